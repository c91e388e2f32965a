import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { allowGoogleConsent, invitationLink, signInThroughProvider, signUpAdmin } from './fixtures.ts';

/** A CSV file for the upload panel's file input. */
function csvFile(name: string, lines: string[]) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`) };
}

const CLIENT_HEADER = 'First name,Last name,Email,Company name,Company domain,Linkedin profile URL,Contact owner,Tag';
/** Enough accounts for the upload to take a few seconds under the throttled upload below. */
const GENERATED_ACCOUNTS = 4000;

/** Slows the page's uploads (bytes per second), so the progress has time to show; null lifts the limit. */
async function throttleUploads(page: Page, bytesPerSecond: number | null) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  });
}

async function downloadedText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** The admin invites a teammate from the Users page; the teammate registers through the e-mailed link. */
async function addTeammate(page: Page, email: string, name: string) {
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Invite users' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite users' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Add users' }).click();
  await dialog.getByRole('button', { name: /^Invite/ }).click();
  await expect(page.getByText('User invited!')).toBeVisible();

  const link = await invitationLink(page, email);

  const context = await page.context().browser()?.newContext();
  if (!context) throw new Error('No browser for the teammate');
  const teammatePage = await context.newPage();
  await teammatePage.goto(new URL(link).pathname);
  await teammatePage.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(teammatePage, email, name);
  await teammatePage.getByRole('checkbox').check();
  await teammatePage.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(teammatePage).toHaveURL(/\/sign-up\/sync$/);
  await context.close();
}

test('an admin fills the lists from CSV files in onboarding and admin pages, keeps allies, and reassigns an account', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { domain } = await signUpAdmin(page);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts$/);

  // Onboarding, accounts: the template, then a file uploaded slowly enough to watch its progress.
  await page.getByRole('button', { name: 'Upload CSV' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts\/upload$/);
  const template = await downloadedText(page, () =>
    page.getByRole('button', { name: 'Download the CSV template' }).click(),
  );
  expect(template.name).toBe('accounts-import-template.csv');
  expect(template.text.split('\r\n')[0]).toBe('Company name,Company domain');

  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('CSV file').setInputFiles(csvFile('notes.txt', ['not a csv']));
  await expect(page.getByText('File type must be text/csv,.csv')).toBeVisible();
  await expect(submit).toBeDisabled();

  const generated = Array.from(
    { length: GENERATED_ACCOUNTS },
    (_, index) => `Company ${index + 1},company-${index + 1}.example`,
  );
  const accounts = csvFile('accounts.csv', [
    'Company name,Company domain',
    'Zeta Analytics,zeta-analytics.example',
    ...generated,
    'Nameless,',
  ]);
  await page.getByLabel('CSV file').setInputFiles(accounts);
  await expect(page.getByRole('button', { name: 'Remove accounts.csv' })).toBeVisible();
  await throttleUploads(page, 16 * 1024);
  await submit.click();
  const progress = page.getByRole('status', { name: 'Upload progress' });
  await expect(progress).toContainText(/Sent [\d.]+ KB of [\d.]+ KB/);
  await expect(progress).toContainText(/rows processed/);
  await throttleUploads(page, null);
  await expect(page.getByText('Accounts uploaded!')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`Added: ${(GENERATED_ACCOUNTS + 1).toLocaleString('en-US')}`)).toBeVisible();
  await expect(page.getByText('Rejected: 1')).toBeVisible();
  const rejected = await downloadedText(page, () =>
    page.getByRole('button', { name: 'Download the rejected rows' }).click(),
  );
  expect(rejected.text).toContain(String(GENERATED_ACCOUNTS + 3));
  expect(rejected.text).toContain('Company domain is required');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);

  // Onboarding, clients: into both lists; a bad row is refused with its reason, the rest imported.
  await page.goto('/sign-up/import-clients');
  await page.getByRole('button', { name: 'Upload CSV' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-clients\/upload$/);
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('clients.csv', [
        CLIENT_HEADER,
        'Katherine,Johnson,katherine@nasa.example,NASA,nasa.example,https://www.linkedin.com/in/katherine-johnson,,Client',
        'Margaret,Hamilton,margaret@mit.example,MIT,mit.example,https://www.linkedin.com/in/margaret-hamilton,,Ally',
        'Bad,Row,not-an-email,Nowhere,nowhere.example,https://www.linkedin.com/in/bad-row,,',
      ]),
    );
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Clients uploaded!')).toBeVisible();
  await expect(page.getByText('Added: 2')).toBeVisible();
  await expect(page.getByText('Rejected: 1')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).not.toHaveURL(/\/sign-up\//);

  // Allies to map network from: the imported ones, then one added, edited and deleted by hand.
  await page.goto('/admin/network-allies');
  await expect(page.getByRole('link', { name: /Katherine Johnson/ })).toBeVisible();
  const margaret = page.getByRole('row', { name: /Margaret Hamilton/ });
  await expect(margaret).toContainText('Ally');
  await expect(page.getByText('2 results')).toBeVisible();

  await page.getByRole('button', { name: 'Add ally' }).click();
  const panel = page.getByRole('dialog', { name: 'Add client or ally' });
  await expect(panel.getByRole('button', { name: 'Create' })).toBeDisabled();
  await panel.getByLabel(/^First name/).fill('Dorothy');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(panel.getByText('Last name is required')).toBeVisible();
  await panel.getByLabel(/^Last name/).fill('Vaughan');
  await panel.getByLabel(/^Email/).fill('dorothy@nasa.example');
  await panel.getByLabel(/^Company name/).fill('NASA');
  await panel.getByLabel(/^Company Domain/).fill('https://nasa.example/');
  await panel.getByLabel(/^Linkedin profile URL/).fill('linkedin.com/in/dorothy-vaughan');
  await panel.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Client Added!')).toBeVisible();
  const dorothy = page.getByRole('row', { name: /Dorothy Vaughan/ });
  await expect(dorothy).toContainText('Unknown');

  await dorothy.getByRole('button', { name: 'Edit Dorothy Vaughan' }).click();
  await expect(panel.getByLabel(/^Email/)).toBeDisabled();
  await panel.getByRole('combobox', { name: 'Tag' }).fill('Investor');
  await panel.getByRole('button', { name: 'Update' }).click();
  await expect(dorothy).toContainText('Investor');
  await page.reload();
  await expect(page.getByRole('row', { name: /Dorothy Vaughan/ })).toContainText('Investor');

  await page
    .getByRole('row', { name: /Margaret Hamilton/ })
    .getByRole('button', { name: 'Delete Margaret Hamilton' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this ally?' });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('row', { name: /Margaret Hamilton/ })).toHaveCount(0);

  // Allies from a CSV file on the admin page.
  await page.getByRole('button', { name: 'Import allies to map network from' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('allies.csv', [
        CLIENT_HEADER,
        'Mary,Jackson,mary@nasa.example,NASA,nasa.example,https://www.linkedin.com/in/mary-jackson,,Internal',
      ]),
    );
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Clients uploaded!')).toBeVisible();
  await expect(page.getByText('Added: 1')).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('row', { name: /Mary Jackson/ })).toContainText('Internal');

  // Assigned Accounts: more accounts from the side panel, then one reassigned to a teammate.
  await addTeammate(page, `grace@${domain}`, 'Grace Hopper');
  await page.goto('/admin/accounts');
  await page.getByRole('button', { name: 'Import accounts' }).click();
  const addAccounts = page.getByRole('dialog', { name: 'Add accounts' });
  await addAccounts
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('more-accounts.csv', [
        'Company name,Company domain',
        'Omega Labs,omega-labs.example',
        'Zeta Analytics,zeta-analytics.example',
      ]),
    );
  await addAccounts.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Accounts uploaded!')).toBeVisible();
  await expect(addAccounts.getByText('Added: 1')).toBeVisible();
  await addAccounts.getByRole('button', { name: 'Back' }).click();

  await page.getByPlaceholder('Search accounts...').fill('Zeta');
  const zeta = page.getByRole('row', { name: /Zeta Analytics/ });
  // The search is debounced, and the server is still taking in the 4,000 onboarding accounts' graph work.
  await expect(zeta).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('1 result')).toBeVisible();
  await zeta.getByRole('button', { name: 'Actions for Zeta Analytics' }).click();
  await page.getByRole('menuitem', { name: 'Change assignments' }).click();
  const assignments = page.getByRole('dialog', { name: 'Edit assigned users for Zeta Analytics' });
  await assignments
    .getByRole('region', { name: 'Assignable Users' })
    .getByRole('button', { name: 'Assign Grace Hopper' })
    .click();
  await expect(
    assignments.getByRole('region', { name: 'Current Assignees' }).getByRole('button', { name: 'Remove Grace Hopper' }),
  ).toBeVisible();
  await assignments.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Account assignees updated!')).toBeVisible();
  await expect(zeta).toContainText('Grace Hopper');
});
