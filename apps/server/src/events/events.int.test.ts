import type { TDeliveryLog, TWebhookEndpoint, TWebhookSaved } from '@warmpath/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestContext, deliveryDeps, type TestContext } from '../../test/harness.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';
import { deliveries, events } from '../db/schema/index.ts';
import type { DeliveryJob } from '../jobs/queue.ts';
import { deliverEvent } from './deliver.ts';
import { createEventRecorder } from './record.ts';

let ctx: TestContext;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
/** What the next attempts do between the destination's answer and their record; a throw is a crash there. */
let afterSend: (job: DeliveryJob) => Promise<void> = async () => {};
let workerRunning = false;

beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

/** The worker role, in this process: pg-boss hands it the deliveries of every workspace. */
async function startWorker() {
  if (workerRunning) return;
  workerRunning = true;
  await ctx.jobs.workDeliveries((job) => deliverEvent({ ...deliveryDeps(ctx), afterSend: (j) => afterSend(j) }, job));
}

async function adminWithWebhook() {
  const admin = await ctx.registerAdmin();
  const saved = await ctx.app.inject({
    method: 'POST',
    url: '/api/workspace/command/set-webhook-url',
    headers: bearer(admin.token),
    payload: { webhookUrl: receiver.url },
  });
  expect(saved.statusCode).toBe(200);
  const { secret } = saved.json<TWebhookSaved>();
  if (!secret) throw new Error('the first save answers the secret');
  receiver.useSecret(secret);
  return admin;
}

async function deliveryLog(token: string) {
  const log = await ctx.app.inject({ url: '/api/integrations/query/webhook-deliveries', headers: bearer(token) });
  return log.json<TDeliveryLog>().attempts;
}

const recorder = () => createEventRecorder(ctx.jobs);

function recordTeammateJoined(workspaceId: string, name: string) {
  return ctx.database.inWorkspace(workspaceId, (tx) =>
    recorder().record(tx, workspaceId, 'teammate.joined', {
      user: { id: crypto.randomUUID(), name, email: `${name.toLowerCase()}@example.test` },
      role: 'member',
      via: 'invite',
    }),
  );
}

const receivedFor = (name: string) =>
  receiver.received.filter((delivery) => delivery.body.includes(`"name":"${name}"`));

describe('events out through the webhook', () => {
  it('lets only admins configure the endpoint, and connects it on save', async () => {
    const admin = await ctx.registerAdmin();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    const save = (token: string, webhookUrl: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/workspace/command/set-webhook-url',
        headers: bearer(token),
        payload: { webhookUrl },
      });

    expect((await save(member.token, receiver.url)).statusCode).toBe(403);
    expect((await save(admin.token, '   ')).statusCode).toBe(400);
    const withCredentials = await save(admin.token, 'https://user:secret@example.com/hook');
    expect(withCredentials.statusCode).toBe(400);

    const first = (await save(admin.token, receiver.url)).json<TWebhookSaved>();
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.endpoint.secretPreview).toBe(`${first.secret?.slice(0, 10)}…`);
    // Saving again keeps the secret, and does not show it again.
    expect((await save(admin.token, `${receiver.url}?v=2`)).json<TWebhookSaved>().secret).toBeNull();

    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(me.json()).toMatchObject({ isWebhookConnected: true, webhookUrl: `${receiver.url}?v=2` });

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/workspace/command/delete-webhook-url',
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(204);
    const after = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(after.json()).toMatchObject({ isWebhookConnected: false, webhookUrl: null });
  });

  it('signs each delivery per Standard Webhooks and logs its attempt; a test event goes to the endpoint', async () => {
    await startWorker();
    const admin = await adminWithWebhook();
    const test = await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/command/send-test-webhook',
      headers: bearer(admin.token),
    });
    expect(test.statusCode).toBe(204);
    await vi.waitFor(() => expect(receiver.received.some((d) => d.type === 'webhook.test' && d.verified)).toBe(true), {
      timeout: 10_000,
    });
    await vi.waitFor(async () => {
      const [attempt] = await deliveryLog(admin.token);
      expect(attempt).toMatchObject({ eventType: 'webhook.test', statusCode: 200, deliveryStatus: 'delivered' });
    });
  });

  it('writes nothing for an event that no destination wants, or whose transaction rolls back', async () => {
    const lonely = await ctx.registerAdmin();
    expect(await recordTeammateJoined(lonely.me.workspaceId, 'Nobody')).toBeNull();

    const admin = await adminWithWebhook();
    const workspaceId = admin.me.workspaceId;
    await expect(
      ctx.database.inWorkspace(workspaceId, async (tx) => {
        await recorder().record(tx, workspaceId, 'teammate.joined', {
          user: { id: crypto.randomUUID(), name: 'Rolledback', email: 'rolledback@example.test' },
          role: 'member',
          via: 'invite',
        });
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    const kept = await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx.select().from(events).where(eq(events.workspaceId, workspaceId)),
    );
    expect(kept).toEqual([]);
    await startWorker();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receivedFor('Rolledback')).toEqual([]);
  });

  it('retries a failing endpoint on the schedule with the same webhook-id, and 410 disables it', async () => {
    await startWorker();
    const admin = await adminWithWebhook();
    receiver.answerWith((delivery) =>
      delivery.body.includes('Flaky') && receivedFor('Flaky').length === 1 ? 500 : 200,
    );
    await recordTeammateJoined(admin.me.workspaceId, 'Flaky');
    // Immediately, then 5 s later (the schedule's second step).
    await vi.waitFor(() => expect(receivedFor('Flaky')).toHaveLength(2), { timeout: 15_000 });
    expect(new Set(receivedFor('Flaky').map((d) => d.id)).size).toBe(1);
    await vi.waitFor(async () => {
      const statuses = (await deliveryLog(admin.token)).map((attempt) => attempt.statusCode);
      expect(statuses).toEqual([200, 500]);
    });

    receiver.answerWith((delivery) => (delivery.body.includes('Gone') ? 410 : 200));
    await recordTeammateJoined(admin.me.workspaceId, 'Gone');
    await vi.waitFor(
      async () => {
        const endpoint = await ctx.app.inject({ url: '/api/integrations/query/webhook', headers: bearer(admin.token) });
        expect(endpoint.json<TWebhookEndpoint>().disabledReason).toBe('The endpoint answered 410 Gone.');
      },
      { timeout: 10_000 },
    );
    // A disabled endpoint is sent nothing until it is saved again.
    expect(await recordTeammateJoined(admin.me.workspaceId, 'Ignored')).toBeNull();
    receiver.answerWith(() => 200);
  }, 40_000);

  it('delivers exactly one webhook-id per event across crashes: after commit, after send, during a retry', async () => {
    const admin = await adminWithWebhook();
    const workspaceId = admin.me.workspaceId;

    // Committed while no worker runs (as if it died right after the business commit): delivered once it starts.
    await recordTeammateJoined(workspaceId, 'Committed');
    await startWorker();
    await vi.waitFor(() => expect(receivedFor('Committed')).toHaveLength(1), { timeout: 10_000 });

    // The endpoint answered, the worker dies before recording it: pg-boss runs the job again.
    let crashes = 0;
    afterSend = async (job) => {
      if (job.workspaceId === workspaceId && crashes === 0) {
        crashes += 1;
        throw new Error('worker died after the send');
      }
    };
    await recordTeammateJoined(workspaceId, 'AfterSend');
    await vi.waitFor(() => expect(receivedFor('AfterSend').length).toBeGreaterThanOrEqual(2), { timeout: 20_000 });

    // The first attempt fails, the worker dies during the retry, the next worker delivers it.
    crashes = 0;
    afterSend = async (job) => {
      if (job.workspaceId === workspaceId && job.attempt === 1 && crashes === 0) {
        crashes += 1;
        throw new Error('worker died during the retry');
      }
    };
    receiver.answerWith((delivery) =>
      delivery.body.includes('DuringRetry') && receivedFor('DuringRetry').length === 1 ? 503 : 200,
    );
    await recordTeammateJoined(workspaceId, 'DuringRetry');
    await vi.waitFor(() => expect(receivedFor('DuringRetry').length).toBeGreaterThanOrEqual(3), { timeout: 30_000 });
    receiver.answerWith(() => 200);
    afterSend = async () => {};

    for (const name of ['Committed', 'AfterSend', 'DuringRetry']) {
      expect(new Set(receivedFor(name).map((d) => d.id)).size, name).toBe(1);
      expect(
        receivedFor(name).every((d) => d.verified),
        name,
      ).toBe(true);
    }
    const rows = await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx
        .select({ status: deliveries.status })
        .from(deliveries)
        .where(and(eq(deliveries.workspaceId, workspaceId), eq(deliveries.destination, 'webhook'))),
    );
    await vi.waitFor(async () => {
      const statuses = await ctx.database.inWorkspace(workspaceId, (tx) =>
        tx.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.workspaceId, workspaceId)),
      );
      expect(statuses.every((row) => row.status === 'delivered')).toBe(true);
    });
    expect(rows).toHaveLength(3);
  }, 60_000);

  it("never sends one workspace's events to another workspace's endpoint", async () => {
    await startWorker();
    const ours = await adminWithWebhook();
    const theirs = await ctx.registerAdmin();
    expect(await recordTeammateJoined(theirs.me.workspaceId, 'Elsewhere')).toBeNull();
    await recordTeammateJoined(ours.me.workspaceId, 'Ours');
    await vi.waitFor(() => expect(receivedFor('Ours')).toHaveLength(1), { timeout: 10_000 });
    expect(receivedFor('Elsewhere')).toEqual([]);
    const theirLog = await ctx.app.inject({
      url: '/api/integrations/query/webhook-deliveries',
      headers: bearer(theirs.token),
    });
    expect(theirLog.json<TDeliveryLog>().attempts).toEqual([]);
  });
});
