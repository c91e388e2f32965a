import { randomUUID } from 'node:crypto';
import type { EventData, TSlackConnection } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestContext, deliveryDeps, nonceCookie, type TestContext } from '../../../test/harness.ts';
import { submitConsent } from '../../../test/slack-sandbox.ts';
import { deliverEvent } from '../../events/deliver.ts';
import { createEventRecorder } from '../../events/record.ts';
import { findWorkspaceIntegration } from '../../integrations/integrations.repo.ts';
import type { DeliveryJob } from '../../jobs/queue.ts';
import { createSealer } from '../../lib/sealing.ts';

let ctx: TestContext;
/** What the next attempts do between Slack's answer and their record; a throw is a crash there. */
let afterSend: (job: DeliveryJob) => Promise<void> = async () => {};

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.jobs.workDeliveries((job) =>
    deliverEvent(
      { ...deliveryDeps(ctx), at: (step, j) => (step === 'after-send' ? afterSend(j) : Promise.resolve()) },
      job,
    ),
  );
});
afterAll(() => ctx.close());

function introRequested(prospectName: string): EventData<'intro.requested'> {
  const id = randomUUID();
  return {
    actionId: null,
    prospect: {
      id,
      name: prospectName,
      email: null,
      title: 'CFO',
      companyName: 'Globex',
      companyDomain: 'globex.test',
      url: `http://localhost:3999/network?personId=${id}`,
    },
    connector: { id: randomUUID(), name: 'Grace Hopper', email: 'grace@example.test' },
    requestedBy: { id: randomUUID(), name: 'Ada Admin', email: 'ada@example.test' },
  };
}

const record = <T extends 'intro.requested' | 'teammate.joined'>(workspaceId: string, type: T, data: EventData<T>) =>
  ctx.database.inWorkspace(workspaceId, (tx) => createEventRecorder(ctx.jobs).record(tx, workspaceId, type, data));

/** What the sandbox's channel got about a prospect. */
const postedAbout = (name: string) => ctx.slack.state.messages().filter((message) => message.text.includes(name));

async function slackOf(token: string) {
  const answer = await ctx.app.inject({ url: '/api/integrations/query/slack', headers: bearer(token) });
  return answer.json<TSlackConnection | null>();
}

async function botToken(workspaceId: string) {
  const row = await ctx.database.inWorkspace(workspaceId, (tx) => findWorkspaceIntegration(tx, workspaceId, 'slack'));
  if (!row?.sealedTokens) throw new Error('Slack is not connected');
  return createSealer(ctx.encryptionKey).open(row.sealedTokens);
}

describe('Slack', () => {
  it('connects from the admin, through the install screen and its channel, and only the admin', async () => {
    const admin = await ctx.registerAdmin();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/command/connect-slack',
      headers: bearer(member.token),
    });
    expect(refused.statusCode).toBe(403);

    expect(await ctx.connectSlack(admin.token, '#intros')).toBe(
      'http://localhost:3999/admin/integrations?slack=connected',
    );
    expect(await slackOf(admin.token)).toEqual({
      teamName: 'Warmpath Sandbox Team',
      channelName: '#intros',
      reconnectRequired: false,
    });
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(me.json()).toMatchObject({ isSlackConnected: true });
  });

  it('binds the install to the browser that started it: approved in another browser, nothing is connected', async () => {
    const admin = await ctx.registerAdmin();
    const other = await ctx.registerAdmin();
    const connect = (token: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-slack?redirectUrl=%2Fadmin%2Fintegrations',
        headers: bearer(token),
      });
    const start = await connect(admin.token);
    expect(String(start.headers['set-cookie'])).toMatch(
      /^warmpath_slack_oauth=[\w-]+; Max-Age=900; Path=\/api\/public\/slack\/callback; HttpOnly; SameSite=Lax$/,
    );
    const callback = await submitConsent(ctx.slack, start.json<{ url: string }>().url, { channel: '#sales' });
    const path = `${callback.pathname}${callback.search}`;
    for (const cookie of [undefined, nonceCookie(await connect(other.token))]) {
      const refused = await ctx.app.inject({ url: path, headers: cookie ? { cookie } : {} });
      expect(refused.headers.location).toBe('http://localhost:3999/admin/integrations?slack=other-browser');
    }
    expect(await slackOf(admin.token)).toBeNull();
    expect(await slackOf(other.token)).toBeNull();

    const back = await ctx.app.inject({ url: path, headers: { cookie: nonceCookie(start) } });
    expect(back.headers.location).toBe('http://localhost:3999/admin/integrations?slack=connected');
    // The card says which team and channel were connected.
    expect(await slackOf(admin.token)).toMatchObject({ teamName: 'Warmpath Sandbox Team', channelName: '#sales' });
  });

  it('is off outside local mode without Slack credentials: connecting says so, and no sandbox stands in', async () => {
    const admin = await ctx.registerAdmin();
    const { app } = await ctx.appWith({ env: { LOCAL_MODE: 'false' } });
    try {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-slack',
        headers: bearer(admin.token),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        code: 'NOT_CONNECTED',
        message: 'Slack is not set up on this server: its operator sets SLACK_CLIENT_ID and SLACK_CLIENT_SECRET.',
      });
    } finally {
      await app.close();
    }
  });

  it('posts an intro request to the channel in Block Kit, with a link back, and nothing it does not want', async () => {
    const admin = await ctx.registerAdmin();
    await ctx.connectSlack(admin.token, '#sales');
    const workspaceId = admin.me.workspaceId;
    await record(workspaceId, 'intro.requested', introRequested('Bob Blocks'));
    // A teammate joining is for the webhook, not the channel: nothing is even written for it.
    expect(
      await record(workspaceId, 'teammate.joined', {
        user: { id: randomUUID(), name: 'Quiet', email: 'quiet@example.test' },
        role: 'member',
        via: 'invite',
      }),
    ).toBeNull();

    await vi.waitFor(() => expect(postedAbout('Bob Blocks')).toHaveLength(1), { timeout: 10_000 });
    const [message] = postedAbout('Bob Blocks');
    const sales = ctx.slack.state.listChannels().find((channel) => channel.name === 'sales');
    expect(message?.channel).toBe(sales?.id);
    expect(message?.text).toBe('Ada Admin asked Grace Hopper for an intro to Bob Blocks (CFO, Globex).');
    expect(JSON.stringify(message?.blocks)).toContain('http://localhost:3999/network?personId=');
    expect(message?.metadata?.event_type).toBe('warmpath_event');
  });

  it('waits out a rate limit, and posts once even when its worker died after posting', async () => {
    const admin = await ctx.registerAdmin();
    await ctx.connectSlack(admin.token);
    const workspaceId = admin.me.workspaceId;

    // 429 with Retry-After 6 s: the next attempt waits 6 s (the schedule alone would say 5 s).
    ctx.slack.state.rateLimit('chat.postMessage', 1, 6);
    const started = Date.now();
    await record(workspaceId, 'intro.requested', introRequested('Rita Ratelimit'));
    await vi.waitFor(() => expect(postedAbout('Rita Ratelimit')).toHaveLength(1), { timeout: 20_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(6_000);

    // Posted, then the worker dies before recording it: the next worker finds the message and does not post again.
    let crashes = 0;
    afterSend = async (job) => {
      if (job.workspaceId === workspaceId && crashes === 0) {
        crashes += 1;
        throw new Error('worker died after the post');
      }
    };
    await record(workspaceId, 'intro.requested', introRequested('Carl Crash'));
    await vi.waitFor(() => expect(postedAbout('Carl Crash')).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(
      async () => {
        const rows = await ctx.database.inWorkspace(workspaceId, (tx) =>
          tx.query.deliveries.findMany({ where: (d, { eq }) => eq(d.workspaceId, workspaceId) }),
        );
        expect(rows.map((row) => row.status).sort()).toEqual(['delivered', 'delivered']);
      },
      { timeout: 20_000 },
    );
    afterSend = async () => {};
    expect(postedAbout('Carl Crash')).toHaveLength(1);
  }, 60_000);

  it('asks for a reconnect once Slack refuses the token, and disconnects by revoking it', async () => {
    const admin = await ctx.registerAdmin();
    await ctx.connectSlack(admin.token);
    const workspaceId = admin.me.workspaceId;
    const token = await botToken(workspaceId);
    ctx.slack.state.revoke(token);
    await record(workspaceId, 'intro.requested', introRequested('Rory Revoked'));
    await vi.waitFor(async () => expect((await slackOf(admin.token))?.reconnectRequired).toBe(true), {
      timeout: 10_000,
    });
    expect(postedAbout('Rory Revoked')).toEqual([]);
    // Until it is connected again, events are not even queued for it.
    expect(await record(workspaceId, 'intro.requested', introRequested('Nobody Listening'))).toBeNull();

    await ctx.connectSlack(admin.token);
    const fresh = await botToken(workspaceId);
    expect((await slackOf(admin.token))?.reconnectRequired).toBe(false);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/workspace/command/delete-slack-token',
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(204);
    expect(() => ctx.slack.state.authenticate(fresh)).toThrow('token_revoked');
    expect(await slackOf(admin.token)).toBeNull();
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/workspace/command/delete-slack-token',
      headers: bearer(admin.token),
    });
    expect(again.json()).toEqual({ code: 'NOT_FOUND', message: 'Slack is not connected' });
  });

  it("never posts one workspace's events to another workspace's channel", async () => {
    const ours = await ctx.registerAdmin();
    await ctx.connectSlack(ours.token);
    const theirs = await ctx.registerAdmin();
    expect(await record(theirs.me.workspaceId, 'intro.requested', introRequested('Elsa Elsewhere'))).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(postedAbout('Elsa Elsewhere')).toEqual([]);
  });
});
