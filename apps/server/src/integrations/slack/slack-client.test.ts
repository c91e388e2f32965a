/**
 * The product's Slack client against the Slack sandbox on its own port, exactly as it would talk to
 * Slack: only the base URLs in the configuration differ.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenSlackSandbox, type RunningSlackSandbox, submitConsent } from '../../../test/slack-sandbox.ts';
import { loadConfig } from '../../config.ts';
import {
  createSlackClient,
  SLACK_SCOPES,
  SlackCallError,
  type SlackClient,
  type SlackFailure,
} from './slack-client.ts';

const REDIRECT_URI = 'http://localhost:3000/api/public/slack/callback';

let sandbox: RunningSlackSandbox;
let slack: SlackClient;

beforeAll(async () => {
  sandbox = await listenSlackSandbox();
  slack = createSlackClient(loadConfig({ SLACK_SANDBOX_URL: sandbox.url }).slack);
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.state.reset());

/** An admin's whole connect: our authorize URL, the install screen, Allow, the code exchanged. */
async function connect(channel = 'sales') {
  const back = await submitConsent(sandbox, slack.authorizeUrl({ state: 'state-1', redirectUri: REDIRECT_URI }), {
    channel,
  });
  expect(back.searchParams.get('state')).toBe('state-1');
  return slack.exchangeCode(back.searchParams.get('code') ?? '', REDIRECT_URI);
}

async function failure(promise: Promise<unknown>): Promise<SlackFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SlackCallError) return error.failure;
    throw error;
  }
  throw new Error('expected a SlackCallError');
}

async function rateLimit(method: string, retryAfter: number) {
  const answer = await fetch(`${sandbox.url}/_control/rate-limit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, count: 1, retryAfter }),
  });
  expect(answer.status).toBe(200);
}

describe('Slack client', () => {
  it("builds Slack's authorize URL with our client, scopes, redirect URI and state", () => {
    const url = new URL(slack.authorizeUrl({ state: 's t', redirectUri: REDIRECT_URI }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/oauth/v2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'warmpath-sandbox-client',
      scope: SLACK_SCOPES.join(','),
      redirect_uri: REDIRECT_URI,
      state: 's t',
    });
    const real = createSlackClient(loadConfig({ SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'x' }).slack);
    expect(real.authorizeUrl({ state: 's', redirectUri: REDIRECT_URI })).toMatch(
      /^https:\/\/slack\.com\/oauth\/v2\/authorize\?client_id=1\.2&scope=chat%3Awrite%2C/,
    );
  });

  it('exchanges the code for the bot token and the channel picked on the install screen', async () => {
    const installation = await connect('intros');
    expect(installation).toMatchObject({
      accessToken: expect.stringMatching(/^xoxb-/),
      scopes: [...SLACK_SCOPES],
      team: { id: expect.any(String), name: 'Warmpath Sandbox Team' },
      incomingWebhook: { channel: '#intros', channelId: 'C0INTROS001', url: expect.any(String) },
    });
    expect(installation.botUserId).toMatch(/^U/);
    expect(await failure(slack.exchangeCode('nope', REDIRECT_URI))).toEqual({ kind: 'other', code: 'invalid_code' });
  });

  it('posts Block Kit with metadata, then finds that message by its metadata', async () => {
    const { accessToken, incomingWebhook } = await connect('sales');
    const channel = incomingWebhook?.channelId ?? '';
    const posted = await slack.postMessage(accessToken, {
      channel,
      text: 'Ada asked Grace for an intro to Bob',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Ada* asked *Grace* for an intro to *Bob*' } }],
      metadata: { event_type: 'intro_requested', event_payload: { delivery_id: 'del-1' } },
    });
    expect(posted).toEqual({ channel, ts: expect.stringMatching(/^\d+\.\d{6}$/) });
    await slack.postMessage(accessToken, { channel, text: 'later, another one' });

    expect(await slack.findMessageByMetadata(accessToken, channel, 'intro_requested', 'delivery_id', 'del-1')).toEqual({
      ts: posted.ts,
    });
    expect(await slack.findMessageByMetadata(accessToken, channel, 'intro_requested', 'delivery_id', 'del-2')).toBe(
      null,
    );
    expect(await slack.findMessageByMetadata(accessToken, channel, 'intro_replied', 'delivery_id', 'del-1')).toBe(null);
    const message = sandbox.state.history(channel).find((item) => item.ts === posted.ts);
    expect(message?.blocks).toHaveLength(1);
  });

  it('pages through history when looking for a message', async () => {
    const { accessToken } = await connect('sales');
    const first = await slack.postMessage(accessToken, {
      channel: '#sales',
      text: 'the one',
      metadata: { event_type: 'x', event_payload: { delivery_id: 'old' } },
    });
    for (let index = 0; index < 5; index += 1)
      await slack.postMessage(accessToken, { channel: '#sales', text: `${index}` });
    expect(
      await slack.findMessageByMetadata(accessToken, 'C0SALES0001', 'x', 'delivery_id', 'old', { maxMessages: 6 }),
    ).toEqual({ ts: first.ts });
    expect(
      await slack.findMessageByMetadata(accessToken, 'C0SALES0001', 'x', 'delivery_id', 'old', { maxMessages: 5 }),
    ).toBe(null);
  });

  it('lists the channels the app can see', async () => {
    const { accessToken } = await connect('deal-desk');
    expect(await slack.listChannels(accessToken)).toEqual([
      { id: 'C0GENERAL01', name: 'general', isPrivate: false, isMember: false },
      { id: 'C0SALES0001', name: 'sales', isPrivate: false, isMember: false },
      { id: 'C0INTROS001', name: 'intros', isPrivate: false, isMember: false },
      { id: 'G0DEALDESK1', name: 'deal-desk', isPrivate: true, isMember: true },
    ]);
  });

  it('classifies a 429 as rate_limited with the Retry-After seconds, without waiting', async () => {
    const { accessToken } = await connect();
    await rateLimit('chat.postMessage', 42);
    const started = Date.now();
    expect(await failure(slack.postMessage(accessToken, { channel: '#sales', text: 'x' }))).toEqual({
      kind: 'rate_limited',
      code: 'ratelimited',
      retryAfterSeconds: 42,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await rateLimit('conversations.list', 3);
    expect(await failure(slack.listChannels(accessToken))).toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 3,
    });
    // Once the limit is spent the same call goes through.
    await slack.postMessage(accessToken, { channel: '#sales', text: 'x' });
  });

  it('classifies channel errors', async () => {
    const { accessToken } = await connect('sales');
    expect(await failure(slack.postMessage(accessToken, { channel: '#general', text: 'x' }))).toEqual({
      kind: 'channel',
      code: 'not_in_channel',
    });
    expect(await failure(slack.postMessage(accessToken, { channel: 'C0GONE', text: 'x' }))).toEqual({
      kind: 'channel',
      code: 'channel_not_found',
    });
    sandbox.state.archive('sales');
    expect(await failure(slack.postMessage(accessToken, { channel: '#sales', text: 'x' }))).toEqual({
      kind: 'channel',
      code: 'is_archived',
    });
  });

  it('revokes the token; later calls are revoked, and revoking again still succeeds', async () => {
    const { accessToken } = await connect();
    await slack.revoke(accessToken);
    expect(await failure(slack.postMessage(accessToken, { channel: '#sales', text: 'x' }))).toEqual({
      kind: 'revoked',
      code: 'token_revoked',
    });
    expect(await failure(slack.listChannels(accessToken))).toMatchObject({ kind: 'revoked' });
    await slack.revoke(accessToken);
    expect(await failure(slack.postMessage('xoxb-unknown', { channel: '#sales', text: 'x' }))).toEqual({
      kind: 'revoked',
      code: 'invalid_auth',
    });
  });

  it('sees a removal of the app from Slack as revoked', async () => {
    const { accessToken } = await connect();
    sandbox.state.revoke(accessToken);
    expect(await failure(slack.findMessageByMetadata(accessToken, 'C0SALES0001', 'x', 'delivery_id', 'a'))).toEqual({
      kind: 'revoked',
      code: 'token_revoked',
    });
  });

  it('classifies an unreachable Slack as other', async () => {
    const closed = await listenSlackSandbox();
    await closed.close();
    const offline = createSlackClient(loadConfig({ SLACK_SANDBOX_URL: closed.url }).slack, { timeoutMs: 2_000 });
    expect(await failure(offline.postMessage('xoxb-x', { channel: '#sales', text: 'x' }))).toEqual({
      kind: 'other',
      code: 'slack_webapi_request_error',
    });
  });
});
