import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { E2E_GOOGLE_SANDBOX_URL } from '../env.ts';
import { allowGoogleConsent, linkedinExport, signUpAdmin, skipOnboardingStep } from './fixtures.ts';

/** Mail in the admin's sandbox mailbox, through the sandbox's test control. */
async function addMail(page: Page, body: Record<string, unknown>) {
  const answer = await page.request.post(`${E2E_GOOGLE_SANDBOX_URL}/_control/mail`, { data: body });
  expect(answer.ok()).toBe(true);
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

async function uploadConnections(page: Page, rows: [string, string, string, string][]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Connections.csv file').click();
  await (await chooser).setFiles({ name: 'Connections.csv', mimeType: 'text/csv', buffer: linkedinExport(rows) });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(`${rows.length} connections imported`)).toBeVisible();
}

test("an admin's LinkedIn exports place contacts at their companies, a newer one shows who moved, and their history fills 'My accounts' with colleagues-in-time", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signUpAdmin(page);
  await uploadConnections(page, [
    ['Ana', 'Silva', 'Beta Systems', 'CTO'],
    ['Bob', 'Stone', 'Gamma', 'CFO'],
  ]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts$/);
  await skipOnboardingStep(page, 'Import accounts');
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);
  await skipOnboardingStep(page, 'Invite your teammates');
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  // The contacts show under their companies.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leads' }).click();
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
  // The admin's own history, from the larger archive: they work at Gamma too, with Bob.
  const positions = page.waitForEvent('filechooser');
  await page.getByLabel('Positions.csv file').click();
  await (await positions).setFiles({
    name: 'Positions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Company Name,Title,Description,Location,Started On,Finished On',
        'Gamma,Account Executive,,,Mar 2021,',
        'Initech,Sales Intern,,,Jan 2019,Dec 2020',
      ].join('\r\n'),
    ),
  });
  await page.getByRole('button', { name: 'Upload history' }).click();
  await expect(page.getByText('2 positions imported')).toBeVisible();
  await page.keyboard.press('Escape');

  // Gamma becomes an account assigned to the admin: 'My accounts' shows Bob, a colleague-in-time.
  await page.goto('/admin/accounts');
  await page.getByRole('button', { name: 'Import accounts' }).click();
  const addAccounts = page.getByRole('dialog', { name: 'Add accounts' });
  await addAccounts.getByLabel('CSV file').setInputFiles({
    name: 'accounts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Company name,Company domain\r\nGamma,gamma.example\r\n'),
  });
  await addAccounts.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Accounts uploaded!')).toBeVisible();
  await addAccounts.getByRole('button', { name: 'Back' }).click();
  const gamma = page.getByRole('row', { name: /Gamma/ });
  await gamma.getByRole('button', { name: 'Actions for Gamma' }).click();
  await page.getByRole('menuitem', { name: 'Change assignments' }).click();
  const assignments = page.getByRole('dialog', { name: 'Edit assigned users for Gamma' });
  await assignments
    .getByRole('region', { name: 'Assignable Users' })
    .getByRole('button', { name: 'Assign Ada Lovelace' })
    .click();
  await assignments.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Account assignees updated!')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leads' }).click();
  await page.getByRole('switch', { name: 'My accounts' }).check();
  const mine = page.getByRole('table').first();
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('switch', { name: 'My accounts' }).check();
        return (await mine.getByRole('row', { name: /Bob Stone/ }).textContent()) ?? '';
      },
      { timeout: 120_000, intervals: [3000] },
    )
    .toContain('Worked with a colleague');
  await expect(mine.getByRole('row', { name: /Ana Silva/ })).toHaveCount(0);

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

test('a move the mailbox shows: probable on the Job changes page, confirmed, then a direct message to the past client and an intro through her into her new company', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const { email } = await signUpAdmin(page);
  // Tina wrote from her old company and was answered, then from her new one: the same name, a new domain.
  const id = randomUUID().slice(0, 6);
  const old = { name: 'Tina Tracked', email: `tina@oldco-${id}.test` };
  const now = { name: 'Tina Tracked', email: `tina.tracked@newco-${id}.test` };
  await addMail(page, { email, count: 2, from: old, to: [email], at: daysAgo(200) });
  await addMail(page, { email, count: 1, from: email, to: [old], at: daysAgo(199) });
  await addMail(page, { email, count: 2, from: now, to: [email], at: daysAgo(20) });
  await addMail(page, { email, count: 1, from: email, to: [now], at: daysAgo(19) });
  // Nina works at Newco too: the mail is all that says so.
  const nina = { name: 'Nina Newco', email: `nina@newco-${id}.test` };
  await addMail(page, { email, count: 1, from: nina, to: [email], at: daysAgo(30) });
  await addMail(page, { email, count: 1, from: email, to: [nina], at: daysAgo(29) });

  await uploadConnections(page, [
    ['Bob', 'Stone', 'Gamma', 'CFO'],
    ['Ana', 'Silva', 'Beta Systems', 'CTO'],
  ]);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: "I don't have a specific list" }).click();
  await expect(page).toHaveURL(/\/sign-up\/targeting-scheme$/);
  for (const size of ['1 - 10', '11 - 50', '51 - 200', '201 - 500'])
    await page.getByRole('checkbox', { name: size, exact: true }).check();
  await page.getByRole('checkbox', { name: 'BtoB' }).check();
  await page.getByRole('checkbox', { name: 'Sales', exact: true }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);

  // Before finishing: the admin tracks Tina as a client, from when she was at OldCo.
  await page.goto('/admin/job-changes-tracking');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Add client or ally' });
  await form.getByLabel(/^First name/).fill('Tina');
  await form.getByLabel(/^Last name/).fill('Tracked');
  await form.getByLabel(/^Email/).fill(old.email);
  await form.getByLabel(/^Company name/).fill('OldCo');
  await form.getByLabel(/^Company Domain/).fill(`oldco-${id}.test`);
  await form.getByLabel(/^Linkedin profile URL/).fill(`linkedin.com/in/tina-${id}`);
  await form.getByRole('button', { name: 'Create' }).click();

  // The sync's mail makes her move probable: the admin confirms it.
  const changes = page.getByRole('table', { name: 'Detected job changes' });
  const change = changes.getByRole('row', { name: /Tina Tracked/ });
  await expect
    .poll(
      async () => {
        await page.reload();
        // The table shows once there is a change; until then the section says there is none.
        await page.getByRole('heading', { name: 'Detected job changes' }).waitFor();
        await page.getByRole('table', { name: 'Job changes tracking' }).waitFor();
        return change.count();
      },
      { timeout: 180_000, intervals: [3000] },
    )
    .toBe(1);
  await expect(change).toContainText('Newco');
  await expect(change).toContainText(/probable/i);
  await change.getByRole('button', { name: /^Confirm Tina Tracked moved to/ }).click();
  await expect(change).toContainText('Confirmed');

  // The onboarding ends; the first recommendations include a direct message to her, at her new address.
  await page.goto('/sign-up/invite-teammates');
  await skipOnboardingStep(page, 'Invite your teammates');
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  const recommended = page.getByRole('table', { name: 'Recommended actions' });
  await expect
    .poll(
      async () => {
        await page.goto('/actions/recommended-actions');
        await page.getByRole('heading', { name: /^Welcome / }).waitFor();
        return recommended.getByRole('button', { name: 'Engage with Tina Tracked' }).count();
      },
      { timeout: 240_000, intervals: [3000] },
    )
    .toBe(1);
  await recommended.getByRole('button', { name: 'Engage with Tina Tracked' }).click();
  await expect(page.getByRole('dialog', { name: 'Engage with Prospect' })).toContainText(now.email);

  // Tina is a path into Newco now: her new colleague Nina has her among the client allies to ask. The
  // sandbox's mailbox brings hundreds of contacts: the Allies filter keeps those Tina knows, once the
  // graph job has made her one.
  const contacts = page.getByRole('table', { name: 'Contacts' });
  const allies = page.getByRole('listbox', { name: 'Allies' });
  await expect
    .poll(
      async () => {
        await page.goto('/network');
        await contacts.waitFor();
        await page.getByRole('textbox', { name: 'Allies' }).click();
        // The list opens once its options are loaded: count them then, not before.
        await allies.getByRole('option', { name: 'All', exact: true }).waitFor();
        const found = await allies.getByRole('option', { name: /Tina Tracked/ }).count();
        await page.keyboard.press('Escape');
        return found;
      },
      { timeout: 120_000, intervals: [3000] },
    )
    .toBe(1);
  // 'All' toggles to none, then Tina alone is picked (as network.spec.ts picks a proximity); the choice is kept.
  await page.getByRole('textbox', { name: 'Allies' }).click();
  await allies.getByRole('option', { name: 'All', exact: true }).click();
  await allies.getByRole('option', { name: /Tina Tracked/ }).click();
  await page.keyboard.press('Escape');
  const askTina = contacts.getByRole('button', { name: 'Ask Tina Tracked for an intro to Nina Newco' });
  await expect(askTina).toBeVisible();
  await askTina.click();
  await expect(page.getByRole('dialog', { name: 'Ask for an intro' })).toContainText('Tina Tracked');
});
