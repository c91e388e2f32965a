import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { screenshotWholePage, seededUser, sentMailUrl, signInAndConnectGoogle } from './fixtures.ts';

type Counts = { recommended: number; past: number; pending: number; skipped: number };
const TAB_NAMES = { recommended: 'Recommended', past: 'Past', pending: 'Pending', skipped: 'Skipped' } as const;

/** The four tabs' counts, once they show. */
async function tabCounts(page: Page): Promise<Counts> {
  const read = async (name: string) => {
    const tab = page.getByRole('tab', { name: new RegExp(`^${name} \\(\\d[\\d,]*\\)$`) });
    await expect(tab).toBeVisible();
    return Number(((await tab.textContent()) ?? '').replace(/[^\d]/g, ''));
  };
  return {
    recommended: await read(TAB_NAMES.recommended),
    past: await read(TAB_NAMES.past),
    pending: await read(TAB_NAMES.pending),
    skipped: await read(TAB_NAMES.skipped),
  };
}

async function expectCounts(page: Page, counts: Counts) {
  for (const [key, name] of Object.entries(TAB_NAMES)) {
    await expect(
      page.getByRole('tab', { name: `${name} (${counts[key as keyof Counts]})`, exact: true }),
    ).toBeVisible();
  }
}

const recommendedTable = (page: Page) => page.getByRole('table', { name: 'Recommended actions' });
/** The people named by the rows' buttons of one kind ('Ask intro to ', 'Engage with '). */
async function namesOnButtons(table: Locator, prefix: string): Promise<string[]> {
  const labels = await table
    .getByRole('button', { name: new RegExp(`^${prefix}`) })
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.slice(prefix.length));
}

type SentMail = { to: { email: string }[]; subject: string; text: string; from: { email: string } };
async function sentMail(page: Page, to?: string): Promise<SentMail[]> {
  const answer = await page.request.get(sentMailUrl(to));
  return ((await answer.json()) as { messages: SentMail[] }).messages;
}

test("actions: today's recommendations, an intro request, a direct message, a skip, each in its tab", async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  const email = await seededUser();
  await signInAndConnectGoogle(page, email);

  await page.goto('/actions');
  await expect(page.getByRole('heading', { name: 'Welcome Nina!' })).toBeVisible();
  const table = recommendedTable(page);
  await expect(table.getByRole('button', { name: /^(Ask intro to|Engage with) / }).first()).toBeVisible();
  const before = await tabCounts(page);
  expect(before.recommended).toBeGreaterThanOrEqual(3);
  await expect(page.getByText(`We recommended ${before.recommended} actions to you today.`)).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText([
    'SIGNALS',
    'WARM LEAD',
    'JOB TITLE',
    'COMPANY',
    'SIZE',
    'ALLY',
    'ACTION',
  ]);
  await screenshotWholePage(page, info.outputPath('recommended-actions.png'));
  const axe = await new AxeBuilder({ page }).analyze();
  const serious = axe.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' '))}`),
  ).toEqual([]);

  // Ask a connector for an intro: a real e-mail from the user's Google account, to the connector.
  const [target] = await namesOnButtons(table, 'Ask intro to ');
  expect(target, 'an ask-intro recommendation').toBeTruthy();
  await table.getByRole('button', { name: `Ask intro to ${target}` }).click();
  const ask = page.getByRole('dialog', { name: 'Ask intro' });
  await expect(ask.getByText(/^\d+ signals?$/)).toBeVisible();
  const context = ask.getByRole('textbox', { name: /^Context/ });
  // Signed by the user (named from the e-mail by the seed, or from the sign-in), then the note the
  // connector can forward to the target, below the request, as the mail will carry it.
  await expect(context).toHaveValue(
    new RegExp(`^Hi [\\s\\S]*${target}[\\s\\S]*\\nNina( Demo)?\\n\\n---\\n\\n[\\s\\S]+$`),
  );
  const introMarker = `Would you introduce me to ${target}? (e2e ${Date.now()})`;
  await context.fill(introMarker);
  await ask.getByRole('button', { name: 'Send intro request' }).click();
  await expect(page.getByText('Request sent!')).toBeVisible();
  await expect(ask).toBeHidden();
  await expectCounts(page, { ...before, recommended: before.recommended - 1, past: before.past + 1 });
  await expect(table.getByRole('button', { name: `Ask intro to ${target}` })).toHaveCount(0);

  // Message a prospect directly: the first one with an e-mail address.
  let prospectEmail = '';
  let prospect = '';
  for (const name of await namesOnButtons(table, 'Engage with ')) {
    await table.getByRole('button', { name: `Engage with ${name}` }).click();
    const engage = page.getByRole('dialog', { name: 'Engage with Prospect' });
    await expect(engage.getByRole('button', { name: /^(Send message|Email not available)$/ })).toBeVisible();
    if (await engage.getByRole('button', { name: 'Send message' }).isVisible()) {
      prospect = name;
      prospectEmail = (await engage.getByText(/^[^@\s]+@[^@\s]+$/).textContent()) ?? '';
      break;
    }
    await expect(engage.getByText('Unknown email')).toBeVisible();
    await expect(engage.getByRole('button', { name: 'Email not available' })).toBeDisabled();
    await engage.getByRole('button', { name: 'Close the panel' }).click();
    await expect(engage).toBeHidden();
  }
  expect(prospectEmail, 'a direct-message recommendation with an e-mail').toContain('@');
  const engage = page.getByRole('dialog', { name: 'Engage with Prospect' });
  const message = engage.getByRole('textbox', { name: /^Message/ });
  await expect(message).toHaveValue(new RegExp(`(Hello ${prospect}\\.\\.|Hi ${prospect},)`));
  const messageMarker = `Hello ${prospect}, shall we talk this week? (e2e ${Date.now()})`;
  await message.fill(messageMarker);
  await engage.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Message sent!')).toBeVisible();
  await expect(engage).toBeHidden();
  await expectCounts(page, { ...before, recommended: before.recommended - 2, past: before.past + 2 });

  // Skip one.
  const skipButton = table.getByRole('button', { name: /^Skip the action for / }).first();
  const skipped = ((await skipButton.getAttribute('aria-label')) ?? '').replace('Skip the action for ', '');
  await skipButton.click();
  await expect(page.getByText('Action skipped.')).toBeVisible();
  const after = { ...before, recommended: before.recommended - 3, past: before.past + 2, skipped: before.skipped + 1 };
  await expectCounts(page, after);

  // Both e-mails went out through the user's Google account (the outbox sends them shortly).
  await expect
    .poll(async () => (await sentMail(page, prospectEmail)).find((mail) => mail.text.includes(messageMarker)), {
      timeout: 30_000,
    })
    .toMatchObject({ from: { email }, to: [{ email: prospectEmail }] });
  await expect
    .poll(async () => (await sentMail(page)).find((mail) => mail.text.includes(introMarker)), { timeout: 30_000 })
    .toMatchObject({ from: { email } });

  // Each is in its tab, after a reload too.
  await page.reload();
  await expectCounts(page, after);
  await page.getByRole('tab', { name: /^Past / }).click();
  await expect(page.getByText("Review your team's past actions")).toBeVisible();
  const past = page.getByRole('table', { name: 'Past actions' });
  for (const name of [target, prospect]) {
    const row = past.getByRole('row').filter({ hasText: name }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText(/Sent (just now|1 minute ago|\d+ minutes ago)/);
  }

  await page.getByRole('tab', { name: /^Skipped / }).click();
  await expect(
    page.getByRole('table', { name: 'Skipped actions' }).getByRole('row').filter({ hasText: skipped }),
  ).toHaveCount(1);
  await screenshotWholePage(page, info.outputPath('skipped-actions.png'));
});
