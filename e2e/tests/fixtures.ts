import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR, E2E_GOOGLE_SANDBOX_URL, E2E_PORT, E2E_ROOT } from '../env.ts';

/** A company domain of our own for each test keeps tests independent and parallel-safe. */
export const newDomain = () => `acme-${randomUUID().slice(0, 8)}.test`;

/** The built-in identity provider's local sign-in page. */
export async function signInThroughProvider(page: Page, email: string, name: string) {
  await expect(page.getByRole('heading', { name: 'Local sign-in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill(name);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
}

/** A new admin signs in and creates their workspace; ends on /sign-up/sync. */
export async function signUpAdmin(page: Page, domain = newDomain()) {
  const email = `ada@${domain}`;
  await page.goto('/sign-up/connect');
  await page.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(page, email, 'Ada Lovelace');
  await expect(page).toHaveURL(/\/sign-up\/create-details$/);
  await page.getByLabel('Company name').fill('Analytical Engines');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/sign-up\/sync$/);
  return { email, domain };
}

/** The mail sent through the Google sandbox (all, or to one address), as JSON: the sandbox's own page. */
export const sentMailUrl = (to?: string) =>
  `${E2E_GOOGLE_SANDBOX_URL}/mail.json${to ? `?to=${encodeURIComponent(to)}` : ''}`;

/** The register-invite link of the invitation e-mailed to `to`, read from the Google sandbox's sent mail. */
export async function invitationLink(page: Page, to: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const sent = await (await page.request.get(sentMailUrl(to))).json();
        link = /https?:\/\/\S+\/sign-up\/register-invite\/[0-9a-f-]+/.exec(JSON.stringify(sent))?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return link;
}

/**
 * Skips an onboarding step once its own page shows. The address changes before the next screen's code
 * has loaded, and the previous screen stays meanwhile (a transition): both the accounts and the invite
 * steps have a Skip, so a click on the address alone can land on the page being left.
 */
export async function skipOnboardingStep(page: Page, heading: 'Import accounts' | 'Invite your teammates') {
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  await page.getByRole('button', { name: 'Skip' }).click();
}

/** Google's consent, as the built-in sandbox shows it: Allow for the pre-filled address. */
export async function allowGoogleConsent(page: Page) {
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
}

/** LinkedIn's Connections.csv export, in its real shape (preamble, CRLF, quoted commas, empty e-mails). */
export function linkedinExport(rows: [string, string, string, string][]) {
  const lines = [
    'Notes:',
    '"When exporting your connection data, you may notice that some of the email addresses are missing."',
    '',
    'First Name,Last Name,URL,Email Address,Company,Position,Connected On',
    ...rows.map(
      ([first, last, company, position]) =>
        `${first},${last},https://www.linkedin.com/in/${first.toLowerCase()}-${last.toLowerCase()},,"${company}",${position},07 Dec 2025`,
    ),
  ];
  return Buffer.from(lines.join('\r\n'));
}

/** A workspace filled by the demo generator through the CLI, on the running server's data (with today's recommendations). */
export async function seededUser() {
  const email = `nina@${newDomain()}`;
  await promisify(execFile)('npm', ['run', '--silent', 'cli', '--', 'seed-demo', '--email', email, '--size', 'small'], {
    cwd: E2E_ROOT,
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, PORT: String(E2E_PORT) },
    timeout: 180_000,
  });
  return email;
}

/** The seeded user signs in: their workspace is set up, so straight into the product. */
export async function signInSeeded(page: Page, email: string) {
  await page.goto('/');
  await page
    .getByRole('button', { name: /Sign in|Connect with Google/ })
    .first()
    .click();
  await signInThroughProvider(page, email, 'Nina Demo');
  await expect(page.getByRole('button', { name: /Account menu of/ })).toBeVisible();
}

/** The seeded user signs in and connects Google. */
export async function signInAndConnectGoogle(page: Page, email: string) {
  await signInSeeded(page, email);
  await page.getByRole('button', { name: /Account menu of/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  await page.getByRole('region', { name: 'Google' }).getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
}

/**
 * The whole page in one picture, every row drawn. A table's cells far from the window are drawn only
 * as they scroll near (content-visibility, `FitTable.module.css`), and a full-page capture does not
 * scroll: for the picture the window is as tall as the page, then it gets its size back.
 */
export async function screenshotWholePage(page: Page, path: string) {
  const viewport = page.viewportSize();
  if (viewport) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
    // The cells now in the window are drawn at the next frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  await page.screenshot({ path, fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
}
