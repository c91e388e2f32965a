import { expect, type Page, test } from '@playwright/test';
import { linkedinExport, signUpAdmin } from './fixtures.ts';

async function uploadConnections(page: Page, rows: [string, string, string, string][]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Connections.csv file').click();
  await (await chooser).setFiles({ name: 'Connections.csv', mimeType: 'text/csv', buffer: linkedinExport(rows) });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(`${rows.length} connections imported`)).toBeVisible();
}

test("an admin's LinkedIn exports place contacts at their companies, and a newer one shows who moved", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signUpAdmin(page);
  await uploadConnections(page, [
    ['Ana', 'Silva', 'Beta Systems', 'CTO'],
    ['Bob', 'Stone', 'Gamma', 'CFO'],
  ]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  // The contacts show under their companies.
  await page.getByRole('link', { name: 'Leads' }).click();
  const table = page.getByRole('table').first();
  // The graph job rolls them in; on a busy server other workspaces' jobs may come first.
  await expect(table.getByRole('row', { name: /Ana Silva/ })).toContainText('Beta Systems', { timeout: 180_000 });

  // A month later, a newer export: Ana moved to Delta.
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  const linkedin = page.getByRole('region', { name: 'LinkedIn' });
  await linkedin.getByRole('button', { name: 'Import a newer export' }).click();
  await uploadConnections(page, [
    ['Ana', 'Silva', 'Delta Labs Inc.', 'CTO'],
    ['Bob', 'Stone', 'Gamma', 'CFO'],
  ]);
  await page.keyboard.press('Escape');

  await page.goto('/admin/job-changes-tracking');
  await expect(page.getByText('Former clients convert 3 times more than cold outbound.')).toBeVisible();
  const change = page.getByRole('table', { name: 'Detected job changes' }).getByRole('row', { name: /Ana Silva/ });
  await expect(change).toContainText('Beta Systems');
  await expect(change).toContainText('Delta Labs Inc.');
  await expect(change).toContainText('LinkedIn export');
  await expect(
    page.getByRole('table', { name: 'Detected job changes' }).getByRole('row', { name: /Bob Stone/ }),
  ).toHaveCount(0);
});
