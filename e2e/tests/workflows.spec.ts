import { expect, test } from '@playwright/test';
import { seededUser, signInSeeded } from './fixtures.ts';

// The demo's agents are made and fired as real ones are (seed-demo: the templates, then this morning's
// pricing-page visits through the graph job), so this is what a team sees once its provider set them up.
test('a user sees the agents, a toggle only the provider can use, and what one of them did', async ({ page }) => {
  test.setTimeout(240_000);
  const email = await seededUser();
  await signInSeeded(page, email);

  await page.getByRole('link', { name: 'Workflows' }).click();
  await expect(page.getByRole('heading', { name: 'Agent running plays' })).toBeVisible();
  await expect(page.getByText('Create your own workflow, start with a template or from scratch.')).toBeVisible();
  const card = page.getByRole('region', { name: 'Warm visit at a target account' });
  const toggle = card.getByRole('switch', { name: 'Warm visit at a target account active' });
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeDisabled();
  await toggle.locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Contact your provider to activate or deactivate this workflow.');

  await card.getByRole('button', { name: 'Edit Warm visit at a target account' }).click();
  await expect(page.getByRole('link', { name: 'All my Agents' })).toBeVisible();
  const diagram = page.getByRole('figure', { name: 'How Warm visit at a target account works' });
  await expect(diagram.getByText('Visited pricing page')).toBeVisible();
  await expect(diagram.getByText('Targeted accounts')).toBeVisible();
  await expect(diagram.getByText('Push notification on Slack')).toBeVisible();
  await expect(diagram.getByText('Add an Action')).toBeVisible();

  // This morning's visits fired it; Slack is not connected in a demo workspace, and the run says so.
  const runs = page.getByRole('table', { name: 'Last runs' });
  await expect(runs.getByRole('row')).not.toHaveCount(1);
  await expect(runs.getByText('on Slack: skipped (Slack is not connected)').first()).toBeVisible();
  await expect(runs.getByText('Visited pricing page').first()).toBeVisible();

  await page.getByRole('link', { name: 'All my Agents' }).click();
  await expect(page.getByRole('region', { name: 'Past client changed jobs' })).toBeVisible();
});
