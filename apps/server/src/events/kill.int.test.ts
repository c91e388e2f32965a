import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { TWebhookSaved } from '@warmpath/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { bearer, createTestContext, deliverPending, type TestContext } from '../../test/harness.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';
import { REPO_ROOT } from '../config.ts';
import { deliveries } from '../db/schema/index.ts';
import type { DeliveryStep } from '../integrations/attempt.ts';
import { createEventRecorder } from './record.ts';

// Exactly once, proved with real crashes: a worker process is killed (SIGKILL) at each step of an
// attempt, with deliveries to a webhook, a Slack channel, HubSpot and Gmail in flight; pg-boss notices the
// dead worker's jobs once they expire, and another worker finishes them. Each destination must then
// hold exactly one copy of each delivery.

/** Short enough for a test, long enough for a loopback attempt on a busy machine. */
const RECOVERY = { expireSeconds: 10, checkEverySeconds: 1, retryDelaySeconds: 1 };

let ctx: TestContext;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  ctx = await createTestContext({ deliveryRecovery: RECOVERY });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

/** A workspace with every destination connected: a webhook, Slack, HubSpot, and the admin's Gmail. */
async function connectedWorkspace() {
  const admin = await ctx.registerAdmin();
  const saved = await ctx.app.inject({
    method: 'POST',
    url: '/api/workspace/command/set-webhook-url',
    headers: bearer(admin.token),
    payload: { webhookUrl: receiver.url },
  });
  receiver.useSecret(saved.json<TWebhookSaved>().secret ?? '');
  await ctx.connectSlack(admin.token);
  expect((await ctx.connectHubspot(admin.token, admin.email)).statusCode).toBe(200);
  await ctx.connectGoogle(admin.token, admin.email);
  return admin;
}

type Admin = Awaited<ReturnType<typeof connectedWorkspace>>;

/** One intro request's worth of deliveries: its event to the webhook, Slack and HubSpot, and its e-mail. */
async function deliveriesFor(admin: Admin, name: string) {
  const ws = admin.me.workspaceId;
  const recorder = createEventRecorder(ctx.jobs);
  await ctx.database.inWorkspace(ws, async (tx) => {
    const id = crypto.randomUUID();
    await recorder.record(tx, ws, 'intro.requested', {
      actionId: null,
      prospect: {
        id,
        name,
        email: prospectEmail(name),
        title: null,
        companyName: null,
        companyDomain: null,
        url: `${ctx.config.publicUrl}/network?personId=${id}`,
      },
      connector: { id: crypto.randomUUID(), name: 'Grace Hopper', email: 'grace@example.test' },
      requestedBy: { id: admin.me.id, name: 'Ada Admin', email: admin.email },
    });
    await recorder.sendEmail(
      tx,
      { workspaceId: ws, userId: admin.me.id },
      {
        purpose: 'test',
        to: [`${name.toLowerCase()}@partner.test`],
        subject: `Intro to ${name}`,
        text: 'Would you introduce me?',
      },
    );
  });
}

const prospectEmail = (name: string) => `${name.toLowerCase()}@prospect.test`;

const workers: ChildProcess[] = [];

/**
 * A worker process on this file's queues; with `dieAt`, it kills itself at the first attempt that
 * reaches that step. This process never works deliveries itself: whichever worker runs takes them.
 */
function startWorker(dieAt: DeliveryStep | null) {
  const worker: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/test/delivery-worker.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        KILL_AT: dieAt ?? '',
        DATABASE_URL: inject('databaseUrl'),
        JOBS_SCHEMA: ctx.jobsSchema,
        WORKER_CONFIG: JSON.stringify(ctx.configEnv),
        DELIVERY_RECOVERY: JSON.stringify(RECOVERY),
        ENCRYPTION_KEY: ctx.encryptionKey.toString('hex'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  workers.push(worker);
  const exited = once(worker, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { exited };
}

afterEach(async () => {
  for (const worker of workers.splice(0))
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
});

async function deliveryStatuses(workspaceId: string) {
  const rows = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx
      .select({ destination: deliveries.destination, status: deliveries.status })
      .from(deliveries)
      .where(and(eq(deliveries.workspaceId, workspaceId))),
  );
  return rows.map((row) => `${row.destination}:${row.status}`).sort();
}

/** What each destination holds of the deliveries about `name`. */
function copiesOf(name: string) {
  const webhook = receiver.received.filter((delivery) => delivery.body.includes(name));
  return {
    webhookIds: new Set(webhook.map((delivery) => delivery.id)).size,
    webhookVerified: webhook.every((delivery) => delivery.verified),
    webhookReceipts: webhook.length,
    slack: ctx.slack.state.messages().filter((message) => message.text.includes(name)).length,
    email: ctx.google.sentMail({ to: `${name.toLowerCase()}@partner.test` }).length,
    hubspotNotes: ctx.hubspot.state
      .notes()
      .filter((note) => note.contacts.some((contact) => contact.email === prospectEmail(name))).length,
  };
}

describe('exactly once across a killed worker', () => {
  it('delivers once when the worker is killed during a retry', async () => {
    const admin = await connectedWorkspace();
    const name = 'Retrier';
    let answered = 0;
    // The endpoint fails the first attempt; the retry, 5 s later, is the dying worker's.
    receiver.answerWith((delivery) => (delivery.body.includes(name) && answered++ === 0 ? 500 : 200));
    await deliveriesFor(admin, name);
    await deliverPending(ctx, admin.me.workspaceId);
    expect(await deliveryStatuses(admin.me.workspaceId)).toEqual([
      'email:delivered',
      'hubspot:delivered',
      'slack:delivered',
      'webhook:pending',
    ]);
    const [, signal] = await startWorker('after-send').exited;
    expect(signal).toBe('SIGKILL');
    // The retry reached the endpoint, and its worker died before recording it.
    expect(copiesOf(name).webhookReceipts).toBe(2);

    startWorker(null);
    await vi.waitFor(async () => expect(await deliveryStatuses(admin.me.workspaceId)).toContain('webhook:delivered'), {
      timeout: 45_000,
      interval: 500,
    });
    expect(copiesOf(name)).toEqual({
      webhookIds: 1,
      webhookVerified: true,
      webhookReceipts: 3,
      slack: 1,
      email: 1,
      hubspotNotes: 1,
    });
    receiver.answerWith(() => 200);
  }, 60_000);

  it.each([
    ['before anything is sent', 'before-send', 'Kilroy'],
    ['once Gmail holds the draft', 'after-draft', 'Draper'],
    ['after the destination answered, before it is recorded', 'after-send', 'Sender'],
  ] as const)(
    'delivers once when the worker is killed %s',
    async (_when, step, name) => {
      const admin = await connectedWorkspace();
      await deliveriesFor(admin, name);
      const [, signal] = await startWorker(step).exited;
      expect(signal).toBe('SIGKILL');

      startWorker(null);
      await vi.waitFor(
        async () =>
          expect(await deliveryStatuses(admin.me.workspaceId)).toEqual([
            'email:delivered',
            'hubspot:delivered',
            'slack:delivered',
            'webhook:delivered',
          ]),
        { timeout: 45_000, interval: 500 },
      );
      expect(copiesOf(name)).toMatchObject({
        webhookIds: 1,
        webhookVerified: true,
        slack: 1,
        email: 1,
        hubspotNotes: 1,
      });
    },
    60_000,
  );
});
