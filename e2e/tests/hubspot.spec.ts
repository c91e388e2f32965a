import fs from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { E2E_HUBSPOT_SANDBOX_URL } from '../env.ts';
import { seededUser, signInAndConnectGoogle } from './fixtures.ts';

const recommended = (page: Page) => page.getByRole('table', { name: 'Recommended actions' });
const prospectButton = (page: Page, name: string) =>
  recommended(page).getByRole('button', { name: new RegExp(`^(Ask intro to|Engage with) ${name}$`) });

/** The e-mail of a person of the network, from the network's CSV export. */
async function emailOf(page: Page, name: string) {
  await page.goto('/network');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await fs.readFile((await (await download).path()) ?? '', 'utf8');
  const row = csv.split('\n').find((line) => line.startsWith(`${name},`));
  const email = row?.split(',')[1] ?? '';
  expect(email).toContain('@');
  return email;
}

test('an admin connects HubSpot, picks customers and exclusions lists, sees their companies, and no recommendation at an excluded company', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const email = await seededUser();
  await signInAndConnectGoogle(page, email);

  // Someone recommended today, and their company's domain.
  await page.goto('/actions');
  const firstButton = recommended(page)
    .getByRole('button', { name: /^(Ask intro to|Engage with) / })
    .first();
  await expect(firstButton).toBeVisible();
  const prospect = ((await firstButton.getAttribute('aria-label')) ?? '').replace(/^(Ask intro to|Engage with) /, '');
  const domain = (await emailOf(page, prospect)).split('@')[1] ?? '';

  // Connect HubSpot from the Integrations page, through HubSpot's consent screen.
  await page.goto('/admin/integrations');
  await page.getByRole('button', { name: 'Connect HubSpot' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to HubSpot' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Connect app' }).click();
  await expect(page.getByText('Hubspot integration process started in background.')).toBeVisible();
  // The main page.
  await expect(page).toHaveURL(/\/actions(\/recommended-actions)?$/);

  // In HubSpot, a rep puts the prospect's company on the 'Do not contact' list.
  const portal = (await (
    await page.request.get(`${E2E_HUBSPOT_SANDBOX_URL}/_control/portal?email=${encodeURIComponent(email)}`)
  ).json()) as { lists: { listId: string; name: string }[] };
  const doNotContact = portal.lists.find((list) => list.name === 'Do not contact');
  const added = await page.request.post(`${E2E_HUBSPOT_SANDBOX_URL}/_control/list-membership`, {
    data: { email, listId: doNotContact?.listId, addDomains: [domain] },
  });
  expect(added.ok()).toBe(true);

  // The CRM customers list, then the exclusions, on the CRM clients page.
  await page.goto('/admin/crm-clients');
  const customers = page.getByRole('region', { name: 'Company lists' });
  await customers.getByRole('textbox', { name: 'Company lists' }).click();
  await page.getByRole('option', { name: 'Customers – closed won' }).click();
  await page.keyboard.press('Escape');
  await customers.getByRole('button', { name: 'Save company lists' }).click();
  await expect(page.getByText('Exclusion lists updated!')).toBeVisible();
  // Once the sync is done, the table shows the list's companies (header, then at least two of them).
  await expect(customers.getByRole('table').getByRole('row').nth(2)).toBeVisible({ timeout: 60_000 });

  const excluded = page.getByRole('region', { name: 'Excluded companies' });
  await excluded.getByRole('textbox', { name: 'Company lists' }).click();
  await page.getByRole('option', { name: 'Do not contact' }).click();
  await page.keyboard.press('Escape');
  await excluded.getByRole('button', { name: 'Save company lists of excluded companies' }).click();
  await expect(page.getByText('Last sync: ')).toContainText('from 2 lists', { timeout: 60_000 });
  await excluded.getByRole('searchbox', { name: 'Search excluded companies' }).fill(domain);
  await expect(excluded.getByRole('row', { name: new RegExp(domain.replaceAll('.', '\\.')) })).toBeVisible({
    timeout: 30_000,
  });

  // The prospect at the excluded company is no longer recommended.
  await page.goto('/actions');
  await expect(
    recommended(page)
      .getByRole('button', { name: /^(Ask intro to|Engage with) / })
      .first(),
  ).toBeVisible();
  await expect(prospectButton(page, prospect)).toHaveCount(0);
});
