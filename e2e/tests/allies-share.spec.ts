import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { E2E_GOOGLE_SANDBOX_URL } from '../env.ts';
import { allowGoogleConsent, linkedinExport, sentMailUrl, signUpAdmin } from './fixtures.ts';

function csvFile(name: string, lines: string[]) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`) };
}

type Ally = { first: string; last: string; email: string; company: string; domain: string };

/**
 * An admin signs up with Google connected, uploads Targetron as an account and the ally as a client to
 * map, and sends the ally their share link from Admin › Allies: the link, read from the sandbox's sent mail.
 */
async function sendShareLink(page: Page, ally: Ally): Promise<string> {
  const name = `${ally.first} ${ally.last}`;
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
        `${ally.first},${ally.last},${ally.email},${ally.company},${ally.domain},https://www.linkedin.com/in/${ally.first.toLowerCase()}-${ally.domain},,Ally`,
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
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('cell')
    .last();
  const cell = await actions.boundingBox();
  const last = await actions.getByRole('button', { name: `Delete ${name}` }).boundingBox();
  expect(cell && last && last.x + last.width <= cell.x + cell.width).toBe(true);
  await page.getByRole('button', { name: `Share with ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Send a share link' }).click();
  await expect(page.getByText(`Share link sent to ${ally.email}.`)).toBeVisible();
  let link = '';
  await expect
    .poll(
      async () => {
        const sent = await (await page.request.get(sentMailUrl(ally.email))).json();
        link = /https?:\/\/[^\s"\\]+\/share\?token=[A-Za-z0-9._%-]+/.exec(JSON.stringify(sent))?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');

  return link;
}

test('an ally gets a share link by e-mail, shares only matches at the accounts minus one removed, and the admin sees just those', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const link = await sendShareLink(page, {
    first: 'Margaret',
    last: 'Hamilton',
    email: 'margaret@mit.example',
    company: 'MIT',
    domain: 'mit.example',
  });

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

test('an ally connects Google read-only instead of uploading a file, removes one match, and the admin sees only the ones confirmed', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  // A brand-new mailbox of the sandbox (`+empty`), filled below with exactly who the ally knows.
  const domain = `navy-${randomUUID().slice(0, 8)}.example`;
  const ally: Ally = { first: 'Grace', last: 'Hopper', email: `grace+empty@${domain}`, company: 'Navy', domain };
  const link = await sendShareLink(page, ally);
  const control = async (path: string, body: object) =>
    expect((await page.request.post(`${E2E_GOOGLE_SANDBOX_URL}/_control/${path}`, { data: body })).ok()).toBe(true);
  for (const [name, email] of [
    ['Tara Target', 'tara@targetron.example'],
    ['Tom Target', 'tom@targetron.example'],
    ['Olga Outsider', 'olga@elsewhere.example'],
  ]) {
    await control('mail', { email: ally.email, from: { name, email }, to: [ally.email] });
    await control('mail', { email: ally.email, from: ally.email, to: [{ name, email }] });
  }
  await control('meetings', {
    email: ally.email,
    attendees: [{ name: 'Mia Meeting', email: 'mia@targetron.example' }],
  });

  const context = await browser.newContext();
  const allyPage = await context.newPage();
  const url = new URL(link);
  await allyPage.goto(`${url.pathname}${url.search}`);
  // What will be read, and that nothing else is kept, before connecting.
  await expect(
    allyPage.getByText(
      'We read, once: your Google contacts, who you exchanged e-mails with (the senders and recipients only, never the content), and who you met in your calendar.',
    ),
  ).toBeVisible();
  await expect(allyPage.getByText(/Nothing else is kept: not your e-mails, not your other contacts/)).toBeVisible();
  await allyPage.getByRole('button', { name: 'Connect Google (read-only)' }).click();
  await allowGoogleConsent(allyPage);

  const matches = allyPage.getByRole('table', { name: 'Matches' });
  await expect(matches.getByRole('row')).toHaveCount(4, { timeout: 30_000 });
  await expect(matches).toContainText('Mia Meeting');
  await expect(matches).not.toContainText('Olga');
  await allyPage.getByRole('button', { name: 'Remove Tom Target' }).click();
  await allyPage.getByRole('button', { name: 'Share 2 connections' }).click();
  await expect(allyPage.getByText('You shared 2 connections with Analytical Engines.')).toBeVisible();
  await context.close();

  await page.reload();
  await page.getByRole('button', { name: 'Share with Grace Hopper' }).click();
  await page.getByRole('menuitem', { name: 'See what they shared' }).click();
  const shared = page.getByRole('table', { name: 'Shared connections' });
  await expect(shared).toContainText('Tara Target');
  await expect(shared).toContainText('Mia Meeting');
  await expect(shared).not.toContainText('Tom Target');
  await expect(shared).not.toContainText('Olga');
});
