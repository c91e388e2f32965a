import { expect, type Page, test } from '@playwright/test';
import { seededUser, signInSeeded } from './fixtures.ts';

// Issue 26: the account coverage view's numbers are the network API's counts for the same account,
// and an account opens the people view filtered to its company.

const coverageTable = (page: Page) => page.getByRole('table', { name: 'Account coverage' });

test('the account coverage view counts what the network API counts, and opens the filtered people view', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = await seededUser();
  await signInSeeded(page, email);

  // The app's own call carries the session: the API is asked with the same bearer token.
  const coverageCall = page.waitForRequest((request) => request.url().includes('/api/contacts/query/account-coverage'));
  await page.goto('/network');
  await page.getByRole('group', { name: 'Network view' }).getByRole('button', { name: 'Accounts' }).click();
  await expect(page).toHaveURL(/view=accounts/);
  const authorization = (await coverageCall).headers().authorization ?? '';
  expect(authorization).toMatch(/^Bearer /);
  const headers = { authorization };

  // Counted once the graph has rolled in what the seed left it (the report cards say when).
  await expect
    .poll(
      async () =>
        (await (await page.request.get('/api/contacts/query/network-report-cards', { headers })).json()).updating,
      { timeout: 90_000 },
    )
    .toBe(false);
  await page.reload();

  const firstAccount = coverageTable(page).getByRole('row').nth(1);
  const link = firstAccount.getByRole('link');
  await expect(link).toBeVisible({ timeout: 30_000 });
  const name = (await link.textContent()) ?? '';
  const companyId = new URL((await link.getAttribute('href')) ?? '', page.url()).searchParams.get('companyId') ?? '';
  const meter = firstAccount.getByRole('meter');
  const warm = Number(await meter.getAttribute('aria-valuenow'));
  const prospects = Number(await meter.getAttribute('aria-valuemax'));
  await expect(meter).toHaveAccessibleName(
    `${warm.toLocaleString('en-US')} of ${prospects.toLocaleString('en-US')} prospects reachable warm`,
  );
  expect(prospects).toBeGreaterThan(0);

  const totalCount = async (filters: { name: string; values: string[] }[]) => {
    const response = await page.request.post('/api/contacts/query?page=1&pageSize=1', { headers, data: { filters } });
    expect(response.ok()).toBe(true);
    return (await response.json()).pagination.totalCount as number;
  };
  const company = { name: 'companyName', values: [companyId] };
  expect(await totalCount([company])).toBe(prospects);
  expect(await totalCount([company, { name: 'proximity', values: ['High', 'Medium'] }])).toBe(warm);

  // The account opens the people view on its company: as many rows as the coverage said.
  await link.click();
  await expect(page).toHaveURL(new RegExp(`companyId=${companyId}`));
  await expect(page.getByRole('button', { name: 'People', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.getByRole('row').nth(1)).toContainText(name);
  await expect(page.getByText(/^[\d,]+ results?$/)).toHaveText(
    `${prospects.toLocaleString('en-US')} ${prospects === 1 ? 'result' : 'results'}`,
  );
});
