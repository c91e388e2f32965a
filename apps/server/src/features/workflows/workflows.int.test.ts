import type { EventData, TEventPayload, TFilterItem, TWebhookSaved, TWorkflow, TWorkflowRuns } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, deliveryDeps, type TestContext } from '../../../test/harness.ts';
import { startWebhookReceiver } from '../../../test/webhook-receiver.ts';
import { deliverEvent } from '../../events/deliver.ts';
import { createEventRecorder } from '../../events/record.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { activate, createFromTemplate } from './operator.ts';
import { workflowEngine } from './workflow-engine.ts';
import { insertWorkflow, matchingProspects } from './workflows.repo.ts';

let ctx: TestContext;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startWebhookReceiver();
  await ctx.jobs.workDeliveries((job) => deliverEvent(deliveryDeps(ctx), job));
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

/** The graph fixture, its network built, with its people's ids and the prospect company a target account. */
async function workspace() {
  const built = await buildNetwork(ctx);
  const { ws } = built;
  await recomputeDirty(ctx.database, ws);
  const ids = await ctx.database.inWorkspace(ws, async (tx) => {
    const rows = await tx.execute<{ email: string; id: string; company_id: string | null }>(
      sql`select email, id, company_id from people where workspace_id = ${ws}`,
    );
    return new Map(rows.rows.map((row) => [row.email, row]));
  });
  const person = (email: string) => {
    const row = ids.get(email);
    if (!row) throw new Error(`fixture changed: no ${email}`);
    return row;
  };
  const met = person(built.people.met);
  await ctx.database.inWorkspace(ws, (tx) =>
    tx.execute(sql`insert into accounts (workspace_id, company_id) values (${ws}, ${met.company_id})`),
  );
  return { ...built, met, oneWay: person(built.people.oneWay), linkedinOnly: person(built.people.linkedinOnly) };
}

type Workspace = Awaited<ReturnType<typeof workspace>>;

async function connectDestinations(w: Workspace) {
  const saved = await ctx.app.inject({
    method: 'POST',
    url: '/api/workspace/command/set-webhook-url',
    headers: bearer(w.admin.token),
    payload: { webhookUrl: receiver.url },
  });
  receiver.useSecret(saved.json<TWebhookSaved>().secret ?? '');
  await ctx.connectSlack(w.admin.token);
}

/** Visits of the pricing page by these people, then the graph job, with the workflows listening. */
async function visitPricingAndRecompute(w: Workspace, personIds: string[]) {
  await ctx.database.inWorkspace(w.ws, async (tx) => {
    for (const id of personIds) {
      await tx.execute(sql`insert into website_events (workspace_id, person_id, path, occurred_at)
                           values (${w.ws}, ${id}, '/pricing', now())`);
      await tx.execute(
        sql`insert into graph_dirty (workspace_id, person_id) values (${w.ws}, ${id}) on conflict do nothing`,
      );
    }
  });
  const events = { events: createEventRecorder(ctx.jobs), publicUrl: ctx.config.publicUrl };
  await recomputeDirty(ctx.database, w.ws, { signals: workflowEngine(events) });
}

const workflowPushes = (name: string) =>
  receiver.received
    .filter((delivery) => delivery.type === 'workflow.triggered' && delivery.body.includes(name))
    .map((delivery) => JSON.parse(delivery.body) as TEventPayload);

describe('workflow agents', () => {
  it('are read by every role, through GET /workflows/query only, and never by another workspace', async () => {
    const w = await workspace();
    const created = await createFromTemplate(ctx.database, w.ws, 'past-client-job-change', w.admin.me.id);
    const viewer = await ctx.addUser(w.ws, 'viewer', w.admin.domain);
    for (const token of [w.admin.token, w.colleague.token, viewer.token]) {
      const listed = await ctx.app.inject({ url: '/api/workflows/query', headers: bearer(token) });
      expect(listed.statusCode).toBe(200);
      expect(listed.json<TWorkflow[]>()).toEqual([created]);
    }
    expect((await ctx.app.inject({ url: '/api/workflows/query' })).statusCode).toBe(401);
    const write = await ctx.app.inject({ method: 'POST', url: '/api/workflows/query', headers: bearer(w.admin.token) });
    expect(write.statusCode).toBe(404);

    const other = await ctx.registerAdmin();
    const theirs = await ctx.app.inject({ url: '/api/workflows/query', headers: bearer(other.token) });
    expect(theirs.json()).toEqual([]);
    const runs = await ctx.app.inject({ url: `/api/workflows/query/${created.id}/runs`, headers: bearer(other.token) });
    expect(runs.statusCode).toBe(404);
    expect(runs.json()).toEqual({ code: 'NOT_FOUND', message: 'Workflow not found' });
  });

  it('match prospects with the network filters at the contact and the company level', async () => {
    const w = await workspace();
    const all = [w.met.id, w.oneWay.id, w.linkedinOnly.id];
    const match = async (contactLevel: TFilterItem[][], company: TFilterItem[] = [], targetedAccounts = false) => {
      const row = await ctx.database.inWorkspace(w.ws, (tx) =>
        insertWorkflow(tx, {
          workspaceId: w.ws,
          name: 'probe',
          description: '',
          signals: ['VISITED_WEBSITE'],
          filters: { contactLevel, companyLevel: { filters: company, targetedAccounts } },
          engagements: [],
          profileUserId: w.admin.me.id,
        }),
      );
      const matched = await ctx.database.inWorkspace(w.ws, (tx) => matchingProspects(tx, w.ws, row, all));
      return all.filter((id) => matched.has(id));
    };
    expect(await match([])).toEqual(all);
    expect(await match([[{ name: 'proximity', values: ['Medium', 'High'] }]])).toEqual([w.met.id]);
    expect(await match([[{ name: 'engagement', values: ['MET'] }]])).toEqual([w.met.id]);
    // Levels are alternatives; a level's filters all hold.
    expect(
      await match([[{ name: 'engagement', values: ['MET'] }], [{ name: 'personName', values: [w.oneWay.id] }]]),
    ).toEqual([w.met.id, w.oneWay.id]);
    expect(
      await match([
        [
          { name: 'engagement', values: ['MET'] },
          { name: 'personName', values: [w.oneWay.id] },
        ],
      ]),
    ).toEqual([]);
    expect(await match([], [{ name: 'companyName', values: [w.met.company_id ?? ''] }])).toEqual([
      w.met.id,
      w.oneWay.id,
      w.linkedinOnly.id,
    ]);
    expect(await match([], [], true)).toEqual([w.met.id, w.oneWay.id, w.linkedinOnly.id]);
    // The admin has no targeting scheme and no account assigned: those profiles match nobody yet.
    expect(await match([], [{ name: 'idealCustomerProfile', values: ['true'] }])).toEqual([]);
    expect(await match([], [{ name: 'myAccounts', values: ['true'] }])).toEqual([]);
  });

  it('push each matching raised signal once to its destinations, and skip what is not connected', async () => {
    const w = await workspace();
    await connectDestinations(w);
    const warmVisit = await createFromTemplate(ctx.database, w.ws, 'warm-visit-target-account', w.admin.me.id);
    const inactive = await createFromTemplate(ctx.database, w.ws, 'warm-visit-target-account', w.admin.me.id);
    const closeVisitor = await ctx.database.inWorkspace(w.ws, (tx) =>
      insertWorkflow(tx, {
        workspaceId: w.ws,
        name: 'Close visitor',
        description: 'Someone we know well is on the site',
        active: true,
        signals: ['VISITED_WEBSITE'],
        filters: {
          contactLevel: [[{ name: 'proximity', values: ['Medium', 'High'] }]],
          companyLevel: { filters: [], targetedAccounts: false },
        },
        engagements: ['PUSH_TO_WEBHOOK', 'PUSH_TO_CRM', 'PUSH_TO_HUBSPOT'],
        profileUserId: w.admin.me.id,
      }),
    );
    await activate(ctx.database, w.ws, warmVisit.id, true);

    await visitPricingAndRecompute(w, [w.met.id, w.oneWay.id]);
    const slackAbout = (email: string) =>
      ctx.slack.state
        .messages()
        .filter(
          (message) =>
            message.text.startsWith('Warm visit at a target account') &&
            message.text.includes(email.split('@')[0] ?? ''),
        );
    await vi.waitFor(
      () => {
        expect(workflowPushes('Close visitor')).toHaveLength(1);
        expect(
          ctx.slack.state.messages().filter((m) => m.text.startsWith('Warm visit at a target account')),
        ).toHaveLength(2);
      },
      { timeout: 15_000 },
    );
    expect(slackAbout(w.people.met)).toHaveLength(1);
    const [pushed] = workflowPushes('Close visitor');
    expect(pushed?.data as EventData<'workflow.triggered'>).toMatchObject({
      workflow: { id: closeVisitor.id, name: 'Close visitor' },
      signalType: 'VISITED_WEBSITE',
      prospect: { id: w.met.id },
      bestConnector: { name: 'Ada Admin' },
    });

    const runsOf = async (id: string) => {
      const answer = await ctx.app.inject({
        url: `/api/workflows/query/${id}/runs`,
        headers: bearer(w.colleague.token),
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<TWorkflowRuns>().runs;
    };
    await vi.waitFor(async () =>
      expect(await runsOf(closeVisitor.id)).toEqual([
        expect.objectContaining({
          signalType: 'VISITED_WEBSITE',
          prospect: expect.objectContaining({ id: w.met.id }),
          pushes: [
            { engagement: 'PUSH_TO_WEBHOOK', status: 'delivered', detail: null },
            { engagement: 'PUSH_TO_CRM', status: 'skipped', detail: 'No CRM is connected' },
          ],
        }),
      ]),
    );
    expect(await runsOf(warmVisit.id)).toHaveLength(2);
    expect(await runsOf(inactive.id)).toEqual([]);

    // Another visit, and the graph job again: every (workflow, prospect, signal) already fired.
    const slackBefore = ctx.slack.state.messages().length;
    const webhookBefore = receiver.received.length;
    await visitPricingAndRecompute(w, [w.met.id, w.oneWay.id]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(ctx.slack.state.messages().length).toBe(slackBefore);
    expect(receiver.received.length).toBe(webhookBefore);
  }, 40_000);
});
