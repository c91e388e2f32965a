import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { newDomain, signInThroughProvider } from './fixtures.ts';

test('a new visitor is sent to connect, signs in, registers and lands where the rules say', async ({ page }) => {
  const domain = newDomain();
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-up\/connect$/);

  await page.getByRole('button', { name: 'Connect with Google' }).click();
  await signInThroughProvider(page, `ada@${domain}`, 'Ada Lovelace');

  // Signed in but not registered: the create-details step, pre-filled from the identity.
  await expect(page).toHaveURL(/\/sign-up\/create-details$/);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');
  await page.getByLabel('Company name').fill('Analytical Engines');
  await expect(page.getByText(domain)).toBeVisible();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /create|continue|sign up/i }).click();

  // Registered with onboarding at SIGNUP_DONE: the sync step, and a returning visit goes there too.
  await expect(page).toHaveURL(/\/sign-up\/sync$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-up\/sync$/);
});

test('a free mailbox domain is refused on its own page with the server message', async ({ page }) => {
  const email = `grace.${randomUUID().slice(0, 6)}@gmail.com`;
  await page.goto('/sign-up/connect');
  await page.getByRole('button', { name: 'Connect with Microsoft' }).click();
  await signInThroughProvider(page, email, 'Grace Hopper');
  await expect(page).toHaveURL(/\/sign-up\/create-details$/);
  await page.getByLabel('Company name').fill('Navy');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /create|continue|sign up/i }).click();
  await expect(page.getByText(/The following domains are not whitelisted: gmail\.com/)).toBeVisible();
});

test('an unknown route shows the error screen', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
});
