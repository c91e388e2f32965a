import { expect, test } from '@playwright/test';
import { allowGoogleConsent, linkedinExport, signUpAdmin, skipOnboardingStep } from './fixtures.ts';

test('a member connects Google from My Account, sees it connected, and the synced people appear', async ({ page }) => {
  test.setTimeout(120_000);
  const { email } = await signUpAdmin(page);
  // LinkedIn only, for now: onboarding goes on without Google.
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Connections.csv file').click();
  await (await chooser).setFiles({
    name: 'Connections.csv',
    mimeType: 'text/csv',
    buffer: linkedinExport([['Ana', 'Silva', 'Beta', 'CTO']]),
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('1 connection imported')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/sign-up\/import-accounts$/);
  await skipOnboardingStep(page, 'Import accounts');
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);
  await skipOnboardingStep(page, 'Invite your teammates');
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  await page.getByRole('button', { name: /Account menu of Ada Lovelace/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  const google = page.getByRole('region', { name: 'Google' });
  await google.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);

  // Back where they were, connected; the first sync runs and reports what it brought in.
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: /Account menu of Ada Lovelace/ }).click();
  await page.getByRole('menuitem', { name: 'My Account' }).click();
  await expect(google.getByRole('button', { name: 'Connected' })).toBeDisabled();
  // Which account the consent connected: the one approved at Google.
  await expect(google.getByText(`Connected as ${email}`)).toBeVisible();
  await expect(google.getByText(/Last sync: [\d,]+ messages, [\d,]+ meetings, [\d,]+ contacts/)).toBeVisible({
    timeout: 60_000,
  });
  await page.keyboard.press('Escape');

  // Colleagues found in the synced mail and contacts are suggested as teammates.
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Invite users' }).click();
  await expect(page.getByText(/Suggestions \(\d+\)/)).toBeVisible();
  const count = Number(/\((\d+)\)/.exec((await page.getByText(/Suggestions \(\d+\)/).textContent()) ?? '')?.[1]);
  expect(count).toBeGreaterThan(0);
});
