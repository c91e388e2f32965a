import { expect, test } from '@playwright/test';
import {
  allowGoogleConsent,
  invitationLink,
  signInThroughProvider,
  signUpAdmin,
  skipOnboardingStep,
} from './fixtures.ts';

test('an admin invites a teammate, who joins through the e-mailed link; the admin changes their role and removes them', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const { domain } = await signUpAdmin(page);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts$/);
  await skipOnboardingStep(page, 'Import accounts');
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);

  // Invite from the onboarding step: the invitation leaves from the admin's Google account.
  const teammate = `grace@${domain}`;
  await page.getByLabel('Email').fill(teammate);
  await page.getByRole('button', { name: 'Add users' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('User invited!')).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  // The invitation e-mail, read from the Google sandbox's sent mail.
  const link = await invitationLink(page, teammate);

  // The teammate, in their own browser, registers through the link.
  const teammateContext = await browser.newContext();
  const teammatePage = await teammateContext.newPage();
  await teammatePage.goto(new URL(link).pathname);
  await teammatePage.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(teammatePage, teammate, 'Grace Hopper');
  await expect(teammatePage.getByText('Analytical Engines')).toBeVisible();
  await teammatePage.getByRole('checkbox').check();
  await teammatePage.getByRole('button', { name: 'Accept invitation' }).click();
  // A member without Google goes to the sync step.
  await expect(teammatePage).toHaveURL(/\/sign-up\/sync$/);
  await teammateContext.close();

  // The admin sees them, changes their role, then removes them.
  await page.goto('/admin/users');
  const row = page.getByRole('row', { name: new RegExp(teammate) });
  await expect(row).toContainText('Accepted');
  await expect(row).toContainText('Member');
  await row.getByRole('button', { name: 'Actions for Grace Hopper' }).click();
  await page.getByRole('menuitem', { name: 'Viewer' }).click();
  await expect(page.getByText('Role updated.')).toBeVisible();
  await expect(row).toContainText('Viewer');
  await row.getByRole('button', { name: 'Actions for Grace Hopper' }).click();
  await page.getByRole('menuitem', { name: 'Remove user' }).click();
  // The confirmation says what leaves with them.
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('the people they know disappear from everyone');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User removed.')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(teammate) })).toHaveCount(0);
});
