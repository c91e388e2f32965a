import { expect, type Page, test } from '@playwright/test';
import {
  allowGoogleConsent,
  invitationLink,
  signInThroughProvider,
  signUpAdmin,
  skipOnboardingStep,
} from './fixtures.ts';

/** The buttons that ask Ada for an intro, in the network table. */
const askAda = (page: Page) =>
  page.getByRole('table', { name: 'Contacts' }).getByRole('button', { name: /^Ask Ada Lovelace for an intro to / });

test("a member sets 'Private' in My Account, and a teammate no longer sees them as a connector", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  // Ada signs up and connects Google: her mailbox fills the team's network, with her as its connector.
  const { domain } = await signUpAdmin(page);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await skipOnboardingStep(page, 'Import accounts');
  const teammate = `grace@${domain}`;
  await page.getByLabel('Email').fill(teammate);
  await page.getByRole('button', { name: 'Add users' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('User invited!')).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();

  // Grace joins through the e-mailed invitation and goes through her onboarding.
  const link = await invitationLink(page, teammate);
  const graceContext = await browser.newContext();
  const grace = await graceContext.newPage();
  await grace.goto(new URL(link).pathname);
  await grace.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(grace, teammate, 'Grace Hopper');
  await grace.getByRole('checkbox').check();
  await grace.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(grace).toHaveURL(/\/sign-up\/sync$/);
  await grace.getByRole('button', { name: 'Continue' }).click();
  await skipOnboardingStep(grace, 'Import accounts');
  await expect(grace).toHaveURL(/\/sign-up\/import-clients$/);
  await grace.getByRole('button', { name: "I'll do it later" }).click();
  await expect(grace).toHaveURL(/\/actions/);

  // Once Ada's first sync is in the graph, Grace can ask her for intros.
  await expect
    .poll(
      async () => {
        await grace.goto('/network');
        await grace.getByRole('table', { name: 'Contacts' }).waitFor();
        await grace.waitForTimeout(1000);
        return askAda(grace).count();
      },
      { timeout: 150_000, intervals: [3000] },
    )
    .toBeGreaterThan(0);

  // Ada makes her evidence private.
  await page.getByRole('button', { name: /Account menu of Ada Lovelace/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  await expect(page.getByRole('heading', { name: 'Privacy' })).toBeVisible();
  await page.getByRole('radio', { name: 'Private' }).check();
  await page.getByRole('button', { name: 'Save privacy settings' }).click();
  await expect(page.getByText('Privacy settings saved')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Private' })).toBeChecked();

  // Grace no longer sees Ada as a connector (the Allies filter's options are the integration test's).
  await expect
    .poll(
      async () => {
        await grace.goto('/network');
        await expect(grace.getByText(/^[\d,]+ results?$|Your network is empty for now\./).first()).toBeVisible();
        return askAda(grace).count();
      },
      { timeout: 60_000, intervals: [2000] },
    )
    .toBe(0);
  await graceContext.close();
});
