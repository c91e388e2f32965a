import { expect, test } from '@playwright/test';
import { allowGoogleConsent, linkedinExport, sentMailUrl, signUpAdmin } from './fixtures.ts';

function csvFile(name: string, lines: string[]) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`) };
}

test('an ally gets a share link by e-mail, shares only matches at the accounts minus one removed, and the admin sees just those', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signUpAdmin(page);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  // The workspace's accounts: the ally's connections are matched against these.
  await page.getByRole('button', { name: 'Upload CSV' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles(csvFile('accounts.csv', ['Company name,Company domain', 'Targetron,targetron.example']));
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Accounts uploaded!')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);

  // The ally, mapped for their network.
  await page.goto('/sign-up/import-clients');
  await page.getByRole('button', { name: 'Upload CSV' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile('clients.csv', [
        'First name,Last name,Email,Company name,Company domain,Linkedin profile URL,Contact owner,Tag',
        'Margaret,Hamilton,margaret@mit.example,MIT,mit.example,https://www.linkedin.com/in/margaret-hamilton,,Ally',
      ]),
    );
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Clients uploaded!')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).not.toHaveURL(/\/sign-up\//);

  // Admin › Allies: the link goes out from the admin's Google account.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/network-allies');
  // The row's Share, Edit and Delete fit whole in the Actions column of a laptop's screen.
  const actions = page
    .getByRole('row', { name: /Margaret Hamilton/ })
    .getByRole('cell')
    .last();
  const cell = await actions.boundingBox();
  const last = await actions.getByRole('button', { name: 'Delete Margaret Hamilton' }).boundingBox();
  expect(cell && last && last.x + last.width <= cell.x + cell.width).toBe(true);
  await page.getByRole('button', { name: 'Share with Margaret Hamilton' }).click();
  await page.getByRole('menuitem', { name: 'Send a share link' }).click();
  await expect(page.getByText('Share link sent to margaret@mit.example.')).toBeVisible();
  let link = '';
  await expect
    .poll(
      async () => {
        const sent = await (await page.request.get(sentMailUrl('margaret@mit.example'))).json();
        link = /https?:\/\/[^\s"\\]+\/share\?token=[A-Za-z0-9._%-]+/.exec(JSON.stringify(sent))?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');

  // The ally, with no account, in a browser of their own.
  const context = await browser.newContext();
  const ally = await context.newPage();
  const url = new URL(link);
  await ally.goto(`${url.pathname}${url.search}`);
  await expect(ally.getByRole('heading', { name: 'Share connections with Analytical Engines' })).toBeVisible();
  await expect(
    ally.getByText('The rest of your file is discarded right after matching and never stored.'),
  ).toBeVisible();
  const chooser = ally.waitForEvent('filechooser');
  await ally.getByLabel('Your LinkedIn Connections.csv').click();
  await (await chooser).setFiles({
    name: 'Connections.csv',
    mimeType: 'text/csv',
    buffer: linkedinExport([
      ['Tara', 'Target', 'Targetron', 'CTO'],
      ['Tom', 'Target', 'Targetron', 'VP Sales'],
      ['Olga', 'Outsider', 'Elsewhere', 'Designer'],
    ]),
  });
  await ally.getByRole('button', { name: 'Find matches' }).click();
  const matches = ally.getByRole('table', { name: 'Matches' });
  await expect(matches.getByRole('row')).toHaveCount(3);
  await expect(matches).not.toContainText('Olga');
  await ally.getByRole('button', { name: 'Remove Tom Target' }).click();
  await ally.getByRole('button', { name: 'Share 1 connection' }).click();
  await expect(ally.getByText('You shared 1 connection with Analytical Engines.')).toBeVisible();
  await context.close();

  // The admin sees only the confirmed match.
  await page.reload();
  await page.getByRole('button', { name: 'Share with Margaret Hamilton' }).click();
  await page.getByRole('menuitem', { name: 'See what they shared' }).click();
  const shared = page.getByRole('table', { name: 'Shared connections' });
  await expect(shared).toContainText('Tara Target');
  await expect(shared).not.toContainText('Tom Target');
  await expect(shared).not.toContainText('Olga');
});
