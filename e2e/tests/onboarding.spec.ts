import { expect, test } from '@playwright/test';
import { allowGoogleConsent, linkedinExport, signUpAdmin, skipOnboardingStep } from './fixtures.ts';

test('an admin goes through every onboarding step, bringing LinkedIn and Google in, to the main area', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAdmin(page);
  await expect(page.getByRole('heading', { name: 'Sync your connections' })).toBeVisible();
  await expect(page.getByText('0/2 accounts connected')).toBeVisible();

  // LinkedIn: the member's official export, uploaded.
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Connections.csv file').click();
  await (await chooser).setFiles({
    name: 'Connections.csv',
    mimeType: 'text/csv',
    buffer: linkedinExport([
      ['Jean', 'Dupont', 'Dupont, SA', 'CEO'],
      ['Zoé', 'Martin', 'Beta', 'CTO'],
    ]),
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('2 connections imported')).toBeVisible();
  await expect(page.getByText('1/2 accounts connected')).toBeVisible();

  // Google: the consent of the built-in sandbox, then back here, connected, with a first sync running.
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page).toHaveURL(/\/sign-up\/sync$/);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await expect(page.getByText('2/2 accounts connected')).toBeVisible();

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts$/);
  await page.getByRole('button', { name: "I don't have a specific list" }).click();

  await expect(page).toHaveURL(/\/sign-up\/targeting-scheme$/);
  await expect(page.getByRole('heading', { name: 'Alright, no specific accounts' })).toBeVisible();
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeDisabled();
  // A disabled Continue says what it waits for.
  await expect(page.getByText('Choose a company size, a company type and a job department to continue.')).toBeVisible();
  await page.getByRole('checkbox', { name: '51 - 200' }).check();
  await page.getByRole('checkbox', { name: 'BtoB' }).check();
  await page.getByRole('checkbox', { name: 'Sales', exact: true }).check();
  await continueButton.click();
  await expect(page.getByText('Targeted Accounts updated!')).toBeVisible();

  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);
  await skipOnboardingStep(page, 'Invite your teammates');
  // Then the clients import, which every role passes last.
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  // A returning visit lands in the main area; My Account shows Google connected and what it synced.
  await page.goto('/');
  await expect(page).toHaveURL(/\/actions/);
  await page.getByRole('button', { name: /Account menu of Ada Lovelace/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  await expect(page.getByRole('button', { name: 'Connected' }).first()).toBeDisabled();
  await expect(page.getByText(/Last sync: [\d,]+ messages, [\d,]+ meetings, [\d,]+ contacts/)).toBeVisible({
    timeout: 60_000,
  });
});
