/**
 * The sandbox driven by Slack's official `WebClient` (form-encoded, as it sends by default) with only
 * `slackApiUrl` changed: if its answers satisfy the client, the shapes are Slack's.
 */
import { ErrorCode, LogLevel, WebAPIPlatformError, WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenSlackSandbox, type RunningSlackSandbox } from './server.ts';
import { CODE_SECONDS, DEFAULT_CLIENT, TEAM } from './state.ts';
import { consentChannelOptions, consentFormFields, submitConsent } from './testing.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/api/public/slack/callback';
const SCOPES = 'chat:write,channels:read,channels:history,groups:read,incoming-webhook';

let running: RunningSlackSandbox;
let now = Date.now();

beforeAll(async () => {
  running = await listenSlackSandbox({ clock: () => now });
});
afterAll(() => running.close());
afterEach(() => {
  running.state.reset();
  now = Date.now();
});

function authorizeUrl(params: Record<string, string> = {}): string {
  const url = new URL(running.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: DEFAULT_CLIENT.clientId,
    scope: SCOPES,
    redirect_uri: REDIRECT_URI,
    state: 'st-123',
    ...params,
  }).toString();
  return url.toString();
}

/** A fresh client per test: WebClient keeps no state besides its token, but a rate-limited queue would. */
const client = (token?: string) =>
  new WebClient(token, {
    slackApiUrl: running.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    // The client warns about a missing `text` on purpose-made bad calls; the tests assert the answers.
    logLevel: LogLevel.ERROR,
  });

async function install(channel = 'sales') {
  const back = await submitConsent(running, authorizeUrl(), { channel });
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back}`);
  const access = await client().oauth.v2.access({
    client_id: DEFAULT_CLIENT.clientId,
    client_secret: DEFAULT_CLIENT.clientSecret,
    code,
    redirect_uri: REDIRECT_URI,
  });
  return { code, access, token: access.access_token ?? '' };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function platformError(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  if (!(error instanceof WebAPIPlatformError)) throw error;
  return error.data.error;
}

describe('install screen', () => {
  it('names the workspace, offers its channels and answers a code and the state on Allow', async () => {
    const page = await fetch(authorizeUrl());
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(TEAM.name);
    expect(consentChannelOptions(html).map((option) => option.label)).toEqual([
      '#general',
      '#sales',
      '#intros',
      '🔒 deal-desk',
    ]);
    const fields = consentFormFields(html);
    expect(fields.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(fields.get('state')).toBe('st-123');

    const back = await submitConsent(running, authorizeUrl(), { channel: 'sales' });
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
  });

  it('answers error=access_denied and the state on Cancel', async () => {
    const back = await submitConsent(running, authorizeUrl(), { decision: 'cancel' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('shows an error page for an unknown client, a bad redirect URI or an unknown scope', async () => {
    const requests: Record<string, string>[] = [
      { client_id: 'nobody' },
      { redirect_uri: 'javascript:alert(1)' },
      { scope: 'chat:write,admin:everything' },
    ];
    for (const params of requests) {
      const page = await fetch(authorizeUrl(params));
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('Something went wrong when authorizing this app.');
    }
  });

  it('checks redirect URIs against the configured ones when the app has some', async () => {
    const strict = await listenSlackSandbox({
      clients: [
        { clientId: 'strict', clientSecret: 's', redirectUris: ['https://warmpath.example/api/public/slack/'] },
      ],
    });
    try {
      const base = `${strict.authorizeUrl}?client_id=strict&scope=chat:write`;
      const bad = await fetch(`${base}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`);
      expect(bad.status).toBe(400);
      const good = await fetch(
        `${base}&redirect_uri=${encodeURIComponent('https://warmpath.example/api/public/slack/callback')}`,
      );
      expect(good.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('oauth.v2.access', () => {
  it("answers Slack's shape: bot token, team, authed user and the incoming webhook of the picked channel", async () => {
    const { access } = await install('sales');
    expect(access).toMatchObject({
      ok: true,
      token_type: 'bot',
      scope: SCOPES,
      bot_user_id: expect.stringMatching(/^U/),
      app_id: expect.stringMatching(/^A/),
      team: { id: TEAM.id, name: TEAM.name },
      enterprise: null,
      authed_user: { id: expect.stringMatching(/^U/) },
      incoming_webhook: {
        channel: '#sales',
        channel_id: 'C0SALES0001',
        configuration_url: expect.stringContaining(running.url),
        url: expect.stringContaining(`${running.url}/services/`),
      },
    });
    expect(access.access_token).toMatch(/^xoxb-\d+-\d+-[\w-]+$/);
  });

  it('takes a code once, and not after it expired', async () => {
    const { code } = await install();
    const again = client().oauth.v2.access({
      client_id: DEFAULT_CLIENT.clientId,
      client_secret: DEFAULT_CLIENT.clientSecret,
      code,
    });
    expect(await platformError(again)).toBe('invalid_code');

    const back = await submitConsent(running, authorizeUrl());
    now += (CODE_SECONDS + 1) * 1000;
    const late = client().oauth.v2.access({
      client_id: DEFAULT_CLIENT.clientId,
      client_secret: DEFAULT_CLIENT.clientSecret,
      code: back.searchParams.get('code') ?? '',
    });
    expect(await platformError(late)).toBe('invalid_code');
  });

  it('refuses a wrong secret and a redirect URI other than the authorization’s', async () => {
    const back = await submitConsent(running, authorizeUrl());
    const code = back.searchParams.get('code') ?? '';
    const wrongSecret = client().oauth.v2.access({ client_id: DEFAULT_CLIENT.clientId, client_secret: 'no', code });
    expect(await platformError(wrongSecret)).toBe('bad_client_secret');
    const wrongRedirect = client().oauth.v2.access({
      client_id: DEFAULT_CLIENT.clientId,
      client_secret: DEFAULT_CLIENT.clientSecret,
      code,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
    });
    expect(await platformError(wrongRedirect)).toBe('bad_redirect_uri');
  });
});

describe('Web API', () => {
  it('auth.test names the team and the bot; no token is not_authed, a wrong one invalid_auth', async () => {
    const { token, access } = await install();
    expect(await client(token).auth.test()).toMatchObject({
      ok: true,
      team: TEAM.name,
      team_id: TEAM.id,
      user_id: access.bot_user_id,
      bot_id: expect.stringMatching(/^B/),
    });
    expect(await platformError(client().auth.test())).toBe('not_authed');
    expect(await platformError(client('xoxb-1-2-nope').auth.test())).toBe('invalid_auth');
  });

  it('chat.postMessage keeps text, blocks and metadata; conversations.history returns them newest first', async () => {
    const { token } = await install('sales');
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Intro requested' } },
      { type: 'section', text: { type: 'mrkdwn', text: '*Ada* asked *Grace* for an intro to <https://x.test|Bob>' } },
    ];
    const metadata = { event_type: 'intro.requested', event_payload: { delivery_id: 'd-1', prospect: 'p-9' } };
    const posted = await client(token).chat.postMessage({
      channel: '#sales',
      text: 'Intro requested',
      blocks,
      metadata,
    });
    expect(posted).toMatchObject({
      ok: true,
      channel: 'C0SALES0001',
      ts: expect.stringMatching(/^\d+\.\d{6}$/),
      message: { type: 'message', text: 'Intro requested', blocks, metadata, bot_id: expect.any(String) },
    });
    const second = await client(token).chat.postMessage({ channel: 'C0SALES0001', text: 'second' });
    expect(Number(second.ts)).toBeGreaterThan(Number(posted.ts));

    const history = await client(token).conversations.history({ channel: 'C0SALES0001', include_all_metadata: true });
    expect(history.messages?.map((message) => message.text)).toEqual(['second', 'Intro requested']);
    expect(history.messages?.[1]?.metadata).toEqual(metadata);
    expect(history.has_more).toBe(false);

    const byName = client(token).conversations.history({ channel: '#sales' });
    expect(await platformError(byName)).toBe('channel_not_found');

    const plain = await client(token).conversations.history({ channel: 'C0SALES0001' });
    expect(plain.messages?.[1]?.metadata).toBeUndefined();

    const paged = await client(token).conversations.history({ channel: 'C0SALES0001', limit: 1 });
    expect(paged.has_more).toBe(true);
    const rest = await client(token).conversations.history({
      channel: 'C0SALES0001',
      limit: 1,
      cursor: paged.response_metadata?.next_cursor ?? '',
    });
    expect(rest.messages?.map((message) => message.ts)).toEqual([posted.ts]);
  });

  it('accepts JSON bodies as well as form-encoded ones', async () => {
    const { token } = await install('intros');
    const answer = await fetch(`${running.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: 'intros', text: 'json', blocks: [{ type: 'divider' }] }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true, channel: 'C0INTROS001', message: { text: 'json' } });
  });

  it('answers channel errors as Slack does: not_in_channel, channel_not_found, is_archived, no_text', async () => {
    const { token } = await install('sales');
    const slack = client(token);
    expect(await platformError(slack.chat.postMessage({ channel: '#general', text: 'x' }))).toBe('not_in_channel');
    expect(await platformError(slack.chat.postMessage({ channel: '#deal-desk', text: 'x' }))).toBe('channel_not_found');
    expect(await platformError(slack.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).toBe('channel_not_found');
    expect(await platformError(slack.chat.postMessage({ channel: '#sales', text: '' }))).toBe('no_text');
    running.state.archive('sales');
    expect(await platformError(slack.chat.postMessage({ channel: '#sales', text: 'x' }))).toBe('is_archived');
  });

  it('conversations.list pages with response_metadata.next_cursor and shows private channels the bot is in', async () => {
    const { token } = await install('deal-desk');
    const slack = client(token);
    const first = await slack.conversations.list({ types: 'public_channel,private_channel', limit: 3 });
    expect(first.channels?.map((channel) => channel.name)).toEqual(['general', 'sales', 'intros']);
    const cursor = first.response_metadata?.next_cursor ?? '';
    expect(cursor).not.toBe('');
    const second = await slack.conversations.list({ types: 'public_channel,private_channel', limit: 3, cursor });
    expect(second.channels).toMatchObject([{ name: 'deal-desk', is_private: true, is_member: true, is_group: true }]);
    expect(second.response_metadata?.next_cursor).toBe('');

    const names: string[] = [];
    for await (const page of slack.paginate('conversations.list', { types: 'public_channel', limit: 2 })) {
      for (const channel of (page as { channels?: { name?: string }[] }).channels ?? []) names.push(channel.name ?? '');
    }
    expect(names).toEqual(['general', 'sales', 'intros']);
    expect(await platformError(slack.conversations.list({ cursor: 'bm9wZQ==' }))).toBe('invalid_cursor');
  });

  it('auth.revoke revokes the token: later calls answer token_revoked; so does a revoke from the control', async () => {
    const { token } = await install();
    expect(await client(token).auth.revoke()).toMatchObject({ ok: true, revoked: true });
    expect(await platformError(client(token).auth.test())).toBe('token_revoked');
    expect(await platformError(client(token).chat.postMessage({ channel: '#sales', text: 'x' }))).toBe('token_revoked');

    const other = await install();
    const control = await fetch(`${running.url}/_control/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: other.token }),
    });
    expect(control.status).toBe(200);
    expect(await platformError(client(other.token).conversations.list())).toBe('token_revoked');
  });

  it('answers 429 with Retry-After for the next N calls of a method; the client rejects with its rate-limit error', async () => {
    const { token } = await install();
    const control = await fetch(`${running.url}/_control/rate-limit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'chat.postMessage', count: 2, retryAfter: 7 }),
    });
    expect(control.status).toBe(200);

    const raw = await fetch(`${running.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ channel: '#sales', text: 'x' }),
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe('7');
    expect(await raw.json()).toEqual({ ok: false, error: 'ratelimited' });

    const error = await rejection(client(token).chat.postMessage({ channel: '#sales', text: 'x' }));
    expect(error).toBeInstanceOf(WebAPIRateLimitedError);
    expect(error).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });

    // Other methods, and this one once the N calls are spent, answer normally.
    await client(token).auth.test();
    await client(token).chat.postMessage({ channel: '#sales', text: 'x' });
  });
});

describe('messages page and controls', () => {
  it('lists each channel’s messages newest first with the text of their blocks', async () => {
    const { token } = await install('sales');
    await client(token).chat.postMessage({
      channel: '#sales',
      text: 'first <b>',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Block text' }, fields: [{ type: 'mrkdwn', text: 'Field' }] },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Context' }] },
      ],
    });
    await client(token).chat.postMessage({ channel: '#sales', text: 'second' });
    const page = await fetch(`${running.url}/messages`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('first &#60;b&#62;');
    expect(html).toContain('Block text\nField');
    expect(html).toContain('Context');
    expect(html.indexOf('second')).toBeLessThan(html.indexOf('first &#60;b&#62;'));
    expect(html).toContain('#general');

    const json = (await (await fetch(`${running.url}/_control/messages`)).json()) as {
      messages: { channel: string; channel_name: string; text: string }[];
    };
    expect(json.messages.map((message) => [message.channel_name, message.text])).toEqual([
      ['sales', 'first <b>'],
      ['sales', 'second'],
    ]);

    await fetch(`${running.url}/_control/reset`, { method: 'POST' });
    const after = (await (await fetch(`${running.url}/_control/messages`)).json()) as { messages: unknown[] };
    expect(after.messages).toEqual([]);
    expect(await platformError(client(token).auth.test())).toBe('invalid_auth');
  });

  it('posts through the incoming webhook of an install, and stops once the app is removed', async () => {
    const { access, token } = await install('intros');
    const url = access.incoming_webhook?.url ?? '';
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'via webhook' }),
    });
    expect(await posted.text()).toBe('ok');
    expect(running.state.history('C0INTROS001').map((message) => message.text)).toEqual(['via webhook']);
    running.state.revoke(token);
    const gone = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"x"}',
    });
    expect(gone.status).toBe(404);
  });
});
