import type {
  EventData,
  TContactsPage,
  TDeliveryLog,
  TEventPayload,
  TWebhookEndpoint,
  TWebhookSaved,
} from '@warmpath/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildNetwork } from '../../test/graph-fixtures.ts';
import { bearer, createTestContext, deliveryDeps, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { startWebhookReceiver } from '../../test/webhook-receiver.ts';
import { deliveries, events } from '../db/schema/index.ts';
import { upsertRecommendation, workspaceDay } from '../features/actions/actions.repo.ts';
import { recordReplies } from '../features/intros/replies.ts';
import { signalEvents } from '../features/network/signal-events.ts';
import { recomputeDirty } from '../graph/graph.service.ts';
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

/** A dead worker's delivery is taken over within a minute (40 + 10 + 5 s at worst), plus the suite's load. */
const DEAD_WORKER_REDELIVERY_MS = 65_000;

/** The worker role, in this process: pg-boss hands it the deliveries of every workspace. */
async function startWorker() {
  if (workerRunning) return;
  workerRunning = true;
  await ctx.jobs.workDeliveries((job) =>
    deliverEvent(
      { ...deliveryDeps(ctx), at: (step, j) => (step === 'after-send' ? afterSend(j) : Promise.resolve()) },
      job,
    ),
  );
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

async function deliveryLogOf(token: string) {
  const log = await ctx.app.inject({ url: '/api/integrations/query/webhook-deliveries', headers: bearer(token) });
  return log.json<TDeliveryLog>();
}

const deliveryLog = async (token: string) => (await deliveryLogOf(token)).attempts;

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

  it('counts a delivery as waiting in the log until its first attempt is recorded', async () => {
    await startWorker();
    const admin = await adminWithWebhook();
    // The attempt is held between the endpoint's answer and its record, so the log is read before it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    afterSend = () => held;
    try {
      const test = await ctx.app.inject({
        method: 'POST',
        url: '/api/integrations/command/send-test-webhook',
        headers: bearer(admin.token),
      });
      expect(test.statusCode).toBe(204);
      expect(await deliveryLogOf(admin.token)).toEqual({ attempts: [], waiting: 1 });
    } finally {
      afterSend = async () => {};
      release();
    }
    // The worker records the attempt once released: on a loaded machine that takes more than
    // waitFor's default second.
    await vi.waitFor(
      async () => {
        const log = await deliveryLogOf(admin.token);
        expect(log.waiting).toBe(0);
        expect(log.attempts).toMatchObject([{ eventType: 'webhook.test', deliveryStatus: 'delivered' }]);
      },
      { timeout: 10_000, interval: 100 },
    );
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
    await ctx.connectSlack(admin.token);
    await recordTeammateJoined(admin.me.workspaceId, 'Gone');
    await vi.waitFor(
      async () => {
        const endpoint = await ctx.app.inject({ url: '/api/integrations/query/webhook', headers: bearer(admin.token) });
        expect(endpoint.json<TWebhookEndpoint>().disabledReason).toBe('The endpoint answered 410 Gone.');
      },
      { timeout: 10_000 },
    );
    // The admins are told in the team's channel, once, with the way back to the webhook page.
    await vi.waitFor(() => {
      const told = ctx.slack.state.messages().filter((message) => message.text.includes('410 Gone'));
      expect(told).toHaveLength(1);
      expect(told[0]?.text).toBe(
        `Webhook deliveries stopped: The endpoint answered 410 Gone. Events are no longer sent to ${receiver.url}.`,
      );
      expect(JSON.stringify(told[0]?.blocks)).toContain(`${ctx.config.publicUrl}/admin/integrations/webhook`);
    });
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
    // Redelivered within the minute a dead worker's delivery is promised (queue.ts, DELIVERY_RECOVERY).
    // pg-boss's retry usually comes seconds later; with the whole suite running, a wait of 20 s and then
    // one of 40 s were each short once, and past its expiry the job is retried by the next check anyway.
    await vi.waitFor(() => expect(receivedFor('AfterSend').length).toBeGreaterThanOrEqual(2), {
      timeout: DEAD_WORKER_REDELIVERY_MS,
    });

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
    await vi.waitFor(() => expect(receivedFor('DuringRetry').length).toBeGreaterThanOrEqual(3), {
      timeout: DEAD_WORKER_REDELIVERY_MS,
    });
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
  }, 150_000);

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

// The intros' and actions' events are tested here, beside the webhook's: one delivery worker per test
// database. A second one, in another file, would take this file's jobs (and this file theirs) without
// the sealing key of the workspace's secret, or the crash hooks above.
describe('the events of intros and actions', () => {
  const post = (token: string, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `/api${url}`, headers: bearer(token), payload });

  /** The graph fixture with Google connected for the admin (enough to queue mail), and its prospects. */
  async function network(options: { webhook: boolean }) {
    const built = await buildNetwork(ctx);
    const { admin, ws } = built;
    await recomputeDirty(ctx.database, ws);
    await ctx.recordGoogleConnection(ws, admin.me.id, admin.email);
    if (options.webhook) {
      const saved = await post(admin.token, '/workspace/command/set-webhook-url', { webhookUrl: receiver.url });
      const { secret } = saved.json<TWebhookSaved>();
      if (!secret) throw new Error('the first save answers the secret');
      receiver.useSecret(secret);
    }
    const page = await post(admin.token, '/contacts/query', { filters: [] });
    const rows = page.json<TContactsPage>().rows;
    const target = rows.find((row) => row.email === built.people.met);
    const connector = target?.connectors.find((connector) => connector.fullName.endsWith('member'));
    const others = rows.filter((row) => row.id !== target?.id);
    if (!target || !connector || others.length < 2) throw new Error('fixture changed');
    return { ...built, target, connector, others };
  }

  const introItem = (prospectId: string, connectorId: string) => ({
    connectorId,
    prospectContactId: prospectId,
    connectorMessage: 'Hi Test, would you introduce me?',
    introTargetMessage: '',
    source: 'connector',
  });

  /** Today's recommendation of this type about a prospect, for the admin. */
  async function recommend(w: Awaited<ReturnType<typeof network>>, prospectId: string, type: 'DIRECT_MESSAGE') {
    return ctx.database.inWorkspace(w.ws, async (tx) =>
      upsertRecommendation(tx, {
        workspaceId: w.ws,
        day: (await workspaceDay(tx, w.ws)).today,
        generatedFor: w.admin.me.id,
        prospectId,
        signals: [],
        action: {
          type,
          connectorId: null,
          source: null,
          recommendationUsers: [w.admin.me.id],
          temperature: 0,
          proximity: 50,
        },
        reason: 'no signal: direct message, you know them',
      }),
    );
  }

  /** The verified deliveries of this type whose data says `id` somewhere. */
  const delivered = (type: string, id: string) =>
    receiver.received
      .filter((delivery) => delivery.type === type && delivery.body.includes(id))
      .map((delivery) => ({ ...delivery, payload: JSON.parse(delivery.body) as TEventPayload }));

  it('delivers intro.requested for an intro sent from the network page, naming the prospect and the connector', async () => {
    await startWorker();
    const w = await network({ webhook: true });
    const sent = await post(w.admin.token, '/contacts/command/send-warm-intro-email', [
      introItem(w.target.id, w.connector.id),
    ]);
    expect(sent.statusCode).toBe(200);

    await vi.waitFor(() => expect(delivered('intro.requested', w.target.id)).toHaveLength(1), { timeout: 15_000 });
    const [delivery] = delivered('intro.requested', w.target.id);
    expect(delivery?.verified).toBe(true);
    expect(delivery?.payload).toEqual({
      type: 'intro.requested',
      timestamp: expect.any(String),
      data: {
        actionId: expect.any(String),
        prospect: {
          id: w.target.id,
          name: w.target.name,
          email: w.people.met,
          title: w.target.jobTitle,
          companyName: w.target.companyName,
          companyDomain: expect.any(String),
          url: `${ctx.config.publicUrl}/network?personId=${w.target.id}`,
        },
        connector: { id: w.connector.id, name: w.connector.fullName, email: w.colleague.email },
        requestedBy: { id: w.admin.me.id, name: 'Ada Admin', email: w.admin.email },
      },
    });
    // Once: however the worker went, the event has one id.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(new Set(delivered('intro.requested', w.target.id).map((d) => d.id)).size).toBe(1);
  }, 40_000);

  it('delivers action.completed for an action marked complete, and direct_message.sent for a message sent from one', async () => {
    await startWorker();
    const w = await network({ webhook: true });
    const [toComplete, toMessage] = w.others;
    if (!toComplete || !toMessage) throw new Error('fixture changed');
    const completeId = await recommend(w, toComplete.id, 'DIRECT_MESSAGE');
    const messageId = await recommend(w, toMessage.id, 'DIRECT_MESSAGE');

    const completed = await post(w.admin.token, '/actions/command/set-action-complete', { actionId: completeId });
    expect(completed.statusCode).toBe(200);
    const messaged = await post(w.admin.token, '/contacts/command/send-direct-message-action-email', {
      actionId: messageId,
      prospectContactId: toMessage.id,
      email: 'prospect@example.test',
      message: 'Hello!',
    });
    expect(messaged.statusCode).toBe(200);

    await vi.waitFor(
      () => {
        expect(delivered('action.completed', completeId)).toHaveLength(1);
        expect(delivered('direct_message.sent', messageId)).toHaveLength(1);
      },
      { timeout: 15_000 },
    );
    const [complete] = delivered('action.completed', completeId);
    expect(complete?.verified).toBe(true);
    expect(complete?.payload.data).toEqual({
      actionId: completeId,
      actionType: 'DIRECT_MESSAGE',
      prospect: expect.objectContaining({ id: toComplete.id, name: toComplete.name }),
      completedBy: { id: w.admin.me.id, name: 'Ada Admin', email: w.admin.email },
    });
    const [message] = delivered('direct_message.sent', messageId);
    expect(message?.payload.data).toEqual({
      actionId: messageId,
      prospect: expect.objectContaining({
        id: toMessage.id,
        url: `${ctx.config.publicUrl}/network?personId=${toMessage.id}`,
      }),
      sentBy: { id: w.admin.me.id, name: 'Ada Admin', email: w.admin.email },
    });
    // A send completes its action too, but says so as its own event: no action.completed for it.
    expect(delivered('action.completed', messageId)).toEqual([]);
  }, 40_000);

  it('delivers intro.replied when the sync records the first answer to an intro request', async () => {
    await startWorker();
    const w = await network({ webhook: true });
    expect(
      (await post(w.admin.token, '/contacts/command/send-warm-intro-email', [introItem(w.target.id, w.connector.id)]))
        .statusCode,
    ).toBe(200);
    const [request] = await ctx.database
      .inWorkspace(w.ws, (tx) =>
        tx.execute<{ action_id: string; message_id: string }>(sql`
        select a.id as action_id, o.message ->> 'messageId' as message_id
          from actions a join outbox o on o.workspace_id = a.workspace_id and o.id = a.outbox_id
         where a.workspace_id = ${w.ws} and a.prospect_id = ${w.target.id}`),
      )
      .then((result) => result.rows);
    if (!request) throw new Error('the intro request was not recorded');
    // The colleague's answer, as the Google sync reads its headers.
    const answer = {
      id: `reply-${request.action_id}`,
      threadId: null,
      internalDate: String(Date.now()),
      payload: {
        headers: [
          { name: 'From', value: w.colleague.email },
          { name: 'In-Reply-To', value: request.message_id },
        ],
      },
    };
    const events = { events: recorder(), publicUrl: ctx.config.publicUrl };
    const target = { workspaceId: w.ws, userId: w.admin.me.id, accountEmail: w.admin.email };
    expect(await recordReplies({ database: ctx.database, replyEvents: events }, target, [answer])).toBe(1);
    // Only the first reply is an event.
    expect(await recordReplies({ database: ctx.database, replyEvents: events }, target, [answer])).toBe(0);

    await vi.waitFor(() => expect(delivered('intro.replied', request.action_id)).toHaveLength(1), {
      timeout: 15_000,
    });
    const [replied] = delivered('intro.replied', request.action_id);
    expect(replied?.verified).toBe(true);
    expect(replied?.payload.data).toEqual({
      actionId: request.action_id,
      prospect: expect.objectContaining({ id: w.target.id }),
      connector: { id: w.connector.id, name: w.connector.fullName, email: w.colleague.email },
      requestedBy: { id: w.admin.me.id, name: 'Ada Admin', email: w.admin.email },
      repliedAt: expect.any(String),
    });
  }, 40_000);

  it('delivers teammate.joined when an invitee joins, and import.completed when an upload is merged', async () => {
    await startWorker();
    const admin = await adminWithWebhook();
    await ctx.connectGoogle(admin.token, admin.email);
    const email = `dana@${admin.domain}`;
    const invited = await post(admin.token, '/teammates/invite', { teammates: [{ email, role: 'viewer' }] });
    const [{ id: inviteId }] = invited.json().invited;
    const dana = await ctx.tokenFor(email, 'Dana Scully');
    const accepted = await post(dana, '/teammates/accept-invitation', {
      firstName: 'Dana',
      lastName: 'Scully',
      inviteId,
    });
    expect(accepted.statusCode).toBe(200);
    const danaId = accepted.json().id;

    const { body, contentType } = multipartBody({}, [
      { filename: 'accounts.csv', content: 'Company name,Company domain\nInitech,initech.test\nbroken row\n' },
    ]);
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/accounts/command/upload-accounts',
      headers: { ...bearer(admin.token), 'content-type': contentType },
      payload: body,
    });
    expect(upload.statusCode).toBe(200);
    const importId = upload.json().id;

    await vi.waitFor(
      () => {
        expect(delivered('teammate.joined', danaId)).toHaveLength(1);
        expect(delivered('import.completed', importId)).toHaveLength(1);
      },
      { timeout: 15_000 },
    );
    expect(delivered('teammate.joined', danaId)[0]?.payload.data).toEqual({
      user: { id: danaId, name: 'Dana Scully', email },
      role: 'viewer',
      via: 'invite',
    });
    expect(delivered('import.completed', importId)[0]?.payload.data).toEqual({
      importId,
      kind: 'accounts',
      imported: 1,
      rejected: 1,
      startedBy: { id: admin.me.id, name: 'Ada Admin', email: admin.email },
    });
  }, 40_000);

  it('delivers signal.raised for the signals a graph run raises, and job_change.detected for a past client', async () => {
    await startWorker();
    const w = await network({ webhook: true });
    await ctx.connectSlack(w.admin.token);
    const [mover] = w.others;
    if (!mover) throw new Error('fixture changed');
    await ctx.database.inWorkspace(w.ws, async (tx) => {
      // The prospect the admin met visits the pricing page; a tracked client moved on from Initrode.
      await tx.execute(sql`insert into website_events (workspace_id, person_id, path, occurred_at)
                           values (${w.ws}, ${w.target.id}, '/pricing', now())`);
      const [initrode, globex] = (
        await tx.execute<{ id: string }>(sql`insert into companies (workspace_id, name, domain)
          values (${w.ws}, 'Initrode', 'initrode.test'), (${w.ws}, 'Globex', 'globex.test') returning id`)
      ).rows;
      await tx.execute(
        sql`update people set company_id = ${globex?.id} where workspace_id = ${w.ws} and id = ${mover.id}`,
      );
      await tx.execute(sql`insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
                           values (${w.ws}, ${mover.id}, 'manual', true, ${initrode?.id})
                           on conflict (workspace_id, person_id)
                           do update set track_job_changes = true, company_id_at_import = excluded.company_id_at_import`);
      await tx.execute(sql`insert into graph_dirty (workspace_id, person_id)
                           values (${w.ws}, ${w.target.id}), (${w.ws}, ${mover.id}) on conflict do nothing`);
    });
    const signals = signalEvents({ events: recorder(), publicUrl: ctx.config.publicUrl });
    await recomputeDirty(ctx.database, w.ws, { signals });

    const raised = (prospectId: string) =>
      delivered('signal.raised', prospectId)
        .map((delivery) => (delivery.payload.data as EventData<'signal.raised'>).signalType)
        .sort();
    await vi.waitFor(
      () => {
        expect(raised(w.target.id)).toEqual(['VISITED_PRICING_PAGE', 'VISITED_WEBSITE']);
        expect(raised(mover.id)).toEqual(['PAST_CLIENT']);
        expect(delivered('job_change.detected', mover.id)).toHaveLength(1);
      },
      { timeout: 15_000 },
    );
    expect(delivered('signal.raised', w.target.id)[0]?.payload.data).toMatchObject({
      prospect: { id: w.target.id, url: `${ctx.config.publicUrl}/network?personId=${w.target.id}` },
    });
    expect(delivered('job_change.detected', mover.id)[0]?.payload.data).toMatchObject({
      person: { id: mover.id, companyName: 'Globex' },
      pastCompanyName: 'Initrode',
      newCompanyName: 'Globex',
    });
    // The channel hears the warm ones and the job change.
    await vi.waitFor(() =>
      expect(ctx.slack.state.messages().filter((message) => message.text.includes(mover.name))).toHaveLength(2),
    );

    // A rerun raises nothing new: every signal was already there.
    const before = receiver.received.length;
    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`insert into graph_dirty (workspace_id, person_id) values (${w.ws}, ${w.target.id}), (${w.ws}, ${mover.id})
                     on conflict do nothing`),
    );
    await recomputeDirty(ctx.database, w.ws, { signals });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received.length).toBe(before);
  }, 40_000);

  it('writes no event when the workspace has no destination', async () => {
    const w = await network({ webhook: false });
    const [toComplete] = w.others;
    if (!toComplete) throw new Error('fixture changed');
    const actionId = await recommend(w, toComplete.id, 'DIRECT_MESSAGE');
    const sent = await post(w.admin.token, '/contacts/command/send-warm-intro-email', [
      introItem(w.target.id, w.connector.id),
    ]);
    expect(sent.statusCode).toBe(200);
    expect((await post(w.admin.token, '/actions/command/set-action-complete', { actionId })).statusCode).toBe(200);
    const written = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.select().from(events).where(eq(events.workspaceId, w.ws)),
    );
    expect(written).toEqual([]);
  });
});
