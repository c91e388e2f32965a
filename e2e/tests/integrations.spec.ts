import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { E2E_SLACK_SANDBOX_URL } from '../env.ts';
import { allowGoogleConsent, seededUser, signInAndConnectGoogle, signUpAdmin, skipOnboardingStep } from './fixtures.ts';

/** A customer's endpoint on this machine: it keeps what it gets, and checks signatures once it knows the secret. */
async function startReceiver() {
  const received: { id: string; type: string; body: string; headers: Record<string, string> }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      received.push({ id: headers['webhook-id'], type: (JSON.parse(body) as { type: string }).type, body, headers });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/warmpath`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('an admin connects a webhook from the Integrations page, sends a test event, sees it delivered, connects and disconnects Slack, and disconnects the webhook', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const receiver = await startReceiver();
  await signUpAdmin(page);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await allowGoogleConsent(page);
  await expect(page.getByText('Google account connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await skipOnboardingStep(page, 'Import accounts');
  await expect(page).toHaveURL(/\/sign-up\/invite-teammates$/);
  await skipOnboardingStep(page, 'Invite your teammates');
  await expect(page).toHaveURL(/\/sign-up\/import-clients$/);
  await page.getByRole('button', { name: "I'll do it later" }).click();
  await expect(page).toHaveURL(/\/actions\/recommended-actions$/);

  await page.goto('/admin/integrations');
  await expect(page.getByText('Connect the product to other tools that you use.')).toBeVisible();
  await page.getByRole('button', { name: 'Connect Webhook' }).click();
  await expect(page).toHaveURL(/\/admin\/integrations\/webhook$/);
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await save.click();

  // The secret is shown whole once, right after the save that created it (not its preview, 'whsec_abcd…').
  const shownSecret = page.getByLabel('Signing secret');
  await expect(shownSecret).toHaveText(/^whsec_[A-Za-z0-9+/=]{32}$/);
  const secret = (await shownSecret.textContent()) ?? '';
  await expect(save).toBeDisabled();

  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect
    .poll(() => receiver.received.filter((delivery) => delivery.type === 'webhook.test').length, { timeout: 30_000 })
    .toBe(1);
  const [delivery] = receiver.received;
  if (!delivery) throw new Error('no delivery');
  expect(() => new Webhook(secret).verify(delivery.body, delivery.headers)).not.toThrow();
  const log = page.getByRole('table', { name: 'Webhook deliveries' });
  await expect(log.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: '200' })).toBeVisible({
    timeout: 30_000,
  });

  // Slack: its install screen (the sandbox's, on its own port), a channel, Allow, and back.
  await page.goto('/admin/integrations');
  const slack = page.getByRole('region', { name: 'Slack' });
  await slack.getByRole('button', { name: 'Connect Slack' }).click();
  await expect(page.getByText('Warmpath Sandbox Team')).toBeVisible();
  await page.getByLabel('Where should the app post?').selectOption({ label: '#sales' });
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page).toHaveURL(/\/admin\/integrations$/);
  await expect(page.getByText('Slack connected')).toBeVisible();
  await expect(slack.getByText('Posting to #sales in Warmpath Sandbox Team.')).toBeVisible();
  await slack.getByRole('button', { name: 'Connected' }).hover();
  await slack.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Slack disconnected successfully')).toBeVisible();
  await expect(slack.getByRole('button', { name: 'Connect Slack' })).toBeVisible();

  const card = page.getByRole('region', { name: 'Webhook' });
  await card.getByRole('button', { name: 'Connected' }).hover();
  await card.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Webhook disconnected successfully')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Connect Webhook' })).toBeVisible();
  await receiver.close();
});

test('an intro sent from the network page reaches the Slack channel and the webhook, each once', async ({ page }) => {
  test.setTimeout(300_000);
  const receiver = await startReceiver();
  const email = await seededUser();
  await signInAndConnectGoogle(page, email);

  await page.goto('/admin/integrations/webhook');
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('Signing secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{32}$/);
  await page.goto('/admin/integrations');
  await page.getByRole('region', { name: 'Slack' }).getByRole('button', { name: 'Connect Slack' }).click();
  await page.getByLabel('Where should the app post?').selectOption({ label: '#intros' });
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByText('Posting to #intros in Warmpath Sandbox Team.')).toBeVisible();

  // The intro, as on the network page.
  await page.goto('/network');
  const ask = page
    .getByRole('table', { name: 'Contacts' })
    .getByRole('button', { name: /^Ask [^,]+ for an intro to / })
    .first();
  await expect(ask).toBeVisible({ timeout: 90_000 });
  const [, colleague = '', prospect = ''] =
    /^Ask (.+) for an intro to (.+)$/.exec((await ask.getAttribute('aria-label')) ?? '') ?? [];
  await ask.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send intro request' }).click();
  await expect(page.getByText('Warm intro sent!')).toBeVisible();

  // Slack: the sandbox's channel page shows the message, once.
  const slackMessages = `${E2E_SLACK_SANDBOX_URL}/messages`;
  await expect
    .poll(
      async () => (await (await page.request.get(slackMessages)).text()).split(`an intro to ${prospect}`).length - 1,
      {
        timeout: 30_000,
      },
    )
    .toBe(1);
  const channelPage = await page.request.get(slackMessages);
  expect(await channelPage.text()).toContain(colleague);

  // The webhook: one intro.requested naming the prospect, and its 200 in the delivery log.
  await expect
    .poll(() => receiver.received.filter((delivery) => delivery.type === 'intro.requested').length, { timeout: 30_000 })
    .toBe(1);
  expect(receiver.received.find((delivery) => delivery.type === 'intro.requested')?.body).toContain(prospect);
  // The worker records the attempt once the receiver has answered, so the log may be opened before:
  // it then says the delivery is waiting, and follows it until its row shows.
  await page.goto('/admin/integrations/webhook');
  const log = page.getByRole('table', { name: 'Webhook deliveries' });
  await expect(log.getByRole('row').filter({ hasText: 'intro.requested' }).filter({ hasText: '200' })).toBeVisible({
    timeout: 30_000,
  });

  // Both disconnected from their cards.
  await page.goto('/admin/integrations');
  for (const [name, toast] of [
    ['Slack', 'Slack disconnected successfully'],
    ['Webhook', 'Webhook disconnected successfully'],
  ] as const) {
    // By keyboard this time: focus turns 'Connected' into 'Disconnect' wherever the cards settle,
    // while a hover is lost when a card above grows as its status loads.
    const card = page.getByRole('region', { name });
    await card.getByRole('button', { name: 'Connected' }).focus();
    await card.getByRole('button', { name: 'Disconnect' }).press('Enter');
    await expect(page.getByText(toast)).toBeVisible();
  }
  await receiver.close();
});
