import { type gmail_v1, gmail as gmailApi } from '@googleapis/gmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMessage } from './compose-for-tests.ts';
import type { SentMailJson } from './sandbox.ts';
import type { RunningGoogleSandbox } from './server.ts';
import { connect, rejection, startSandbox } from './testing.ts';

const JANE = 'jane.doe@acme.com';
let running: RunningGoogleSandbox;
let gmail: gmail_v1.Gmail;

beforeAll(async () => {
  running = await startSandbox();
  const { client } = await connect(running, JANE);
  gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
});
afterAll(async () => {
  await running.close();
});

async function rfc822(mail: Parameters<typeof composeMessage>[0]): Promise<string> {
  return (await composeMessage(mail)).toString('base64url');
}

const HEADERS = ['From', 'To', 'Cc', 'Date', 'Subject', 'Message-ID'];

describe('messages', () => {
  it('lists every message newest first, page by page, with an estimate of the total', async () => {
    const ids = new Set<string>();
    let pageToken: string | undefined;
    let pages = 0;
    let estimate = 0;
    let previous = Number.POSITIVE_INFINITY;
    do {
      const { data } = await gmail.users.messages.list({ userId: 'me', maxResults: 500, pageToken });
      estimate = data.resultSizeEstimate ?? 0;
      for (const message of data.messages ?? []) {
        ids.add(message.id ?? '');
        expect(message.threadId).toBeTruthy();
        // Ids begin with the time in hex, as Gmail's do: newest first.
        const time = Number.parseInt((message.id ?? '').slice(0, 11), 16);
        expect(time).toBeLessThanOrEqual(previous);
        previous = time;
      }
      pageToken = data.nextPageToken ?? undefined;
      pages++;
    } while (pageToken);
    expect(pages).toBeGreaterThan(4);
    expect(ids.size).toBe(estimate);
    expect(estimate).toBeGreaterThan(2500);
    const withSpam = await gmail.users.messages.list({ userId: 'me', maxResults: 1, includeSpamTrash: true });
    expect(withSpam.data.resultSizeEstimate).toBeGreaterThan(estimate);
  });

  it('gets headers only (format=metadata, repeated metadataHeaders), never a body', async () => {
    const { data: list } = await gmail.users.messages.list({ userId: 'me', maxResults: 50 });
    const replies = [];
    for (const item of list.messages ?? []) {
      const { data } = await gmail.users.messages.get({
        userId: 'me',
        id: item.id ?? '',
        format: 'metadata',
        metadataHeaders: HEADERS,
      });
      expect(data.snippet).toBe('');
      expect(data.historyId).toMatch(/^\d+$/);
      expect(data.internalDate).toMatch(/^\d+$/);
      expect(data.labelIds?.length).toBeGreaterThan(0);
      expect(data.payload?.body).toBeUndefined();
      expect(data.payload?.parts).toBeUndefined();
      const names = (data.payload?.headers ?? []).map((header) => header.name ?? '');
      for (const name of names) expect(HEADERS).toContain(name);
      expect(names).toEqual(expect.arrayContaining(['From', 'To', 'Date', 'Subject', 'Message-ID']));
      const date = data.payload?.headers?.find((header) => header.name === 'Date')?.value ?? '';
      expect(Math.abs(Date.parse(date) - Number(data.internalDate))).toBeLessThan(1000);
      if (data.payload?.headers?.some((header) => header.name === 'Subject' && header.value?.startsWith('Re: '))) {
        replies.push(data.id);
      }
    }
    expect(replies.length).toBeGreaterThan(0);
  });

  it('enforces the metadata scope: no q, no full format', async () => {
    const q = await rejection(gmail.users.messages.list({ userId: 'me', q: 'in:sent' }, { retry: false }));
    expect(q.status).toBe(403);
    expect(q.data).toMatchObject({ error: { code: 403, message: "Metadata scope does not support 'q' parameter" } });
    const { data } = await gmail.users.messages.list({ userId: 'me', maxResults: 1 });
    const full = await rejection(
      gmail.users.messages.get({ userId: 'me', id: data.messages?.[0]?.id ?? '', format: 'full' }, { retry: false }),
    );
    expect(full.data).toMatchObject({ error: { message: "Metadata scope doesn't allow format FULL" } });
  });

  it('searches in:sent and after: with a broader scope', async () => {
    const { client } = await connect(running, JANE, ['https://www.googleapis.com/auth/gmail.readonly']);
    const reader = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    const since = new Date(Date.now() - 90 * 86_400_000);
    const after = `${since.getUTCFullYear()}/${since.getUTCMonth() + 1}/${since.getUTCDate()}`;
    const { data } = await reader.users.messages.list({ userId: 'me', q: `in:sent after:${after}`, maxResults: 20 });
    expect(data.messages?.length).toBeGreaterThan(0);
    for (const item of data.messages ?? []) {
      const { data: message } = await reader.users.messages.get({ userId: 'me', id: item.id ?? '', format: 'minimal' });
      expect(message.labelIds).toContain('SENT');
      expect(Number(message.internalDate)).toBeGreaterThanOrEqual(since.getTime() - 86_400_000);
    }
  });

  it('answers an unknown message with 404 and Google’s error body', async () => {
    const missing = await rejection(
      gmail.users.messages.get({ userId: 'me', id: '18c0000000000000', format: 'metadata' }, { retry: false }),
    );
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual({
      error: {
        code: 404,
        message: 'Requested entity was not found.',
        errors: [{ message: 'Requested entity was not found.', domain: 'global', reason: 'notFound' }],
        status: 'NOT_FOUND',
      },
    });
  });

  it('serves a delivery failure report with the headers Gmail gives it, in the thread of the bounced mail', async () => {
    const bounce = running.sandbox
      .user(JANE)
      .mailbox.all()
      .find((message) => message.failedRecipients);
    const { data } = await gmail.users.messages.get({
      userId: 'me',
      id: bounce?.id ?? '',
      format: 'metadata',
      metadataHeaders: ['From', 'To', 'Subject', 'X-Failed-Recipients', 'In-Reply-To'],
    });
    const header = (name: string) => data.payload?.headers?.find((item) => item.name === name)?.value;
    expect(header('From')).toBe('Mail Delivery Subsystem <mailer-daemon@googlemail.com>');
    expect(header('To')).toBe(JANE);
    expect(header('Subject')).toBe('Delivery Status Notification (Failure)');
    const failed = header('X-Failed-Recipients') ?? '';
    expect(failed).toMatch(/^[^\s,@]+@[^\s,@]+$/);
    const { data: thread } = await gmail.users.threads.get({
      userId: 'me',
      id: data.threadId ?? '',
      format: 'metadata',
      metadataHeaders: ['To', 'Message-ID'],
    });
    const sent = thread.messages?.find((message) => message.labelIds?.includes('SENT'));
    const sentHeader = (name: string) => sent?.payload?.headers?.find((item) => item.name === name)?.value;
    expect(sentHeader('To')).toContain(`<${failed}>`);
    expect(header('In-Reply-To')).toBe(sentHeader('Message-ID'));
  });

  it('gives a thread with its messages', async () => {
    const { data: list } = await gmail.users.threads.list({ userId: 'me', maxResults: 20 });
    const id = list.threads?.[0]?.id ?? '';
    const { data } = await gmail.users.threads.get({ userId: 'me', id, format: 'metadata', metadataHeaders: ['From'] });
    expect(data.messages?.length).toBeGreaterThan(0);
    expect(data.messages?.every((message) => message.threadId === id)).toBe(true);
  });
});

describe('profile and history', () => {
  it('reports the profile', async () => {
    const { data } = await gmail.users.getProfile({ userId: 'me' });
    expect(data.emailAddress).toBe(JANE);
    expect(data.messagesTotal).toBeGreaterThan(2500);
    expect(data.threadsTotal).toBeGreaterThan(500);
    expect(data.historyId).toMatch(/^\d+$/);
  });

  it('lists new mail as history after the last history id; a dropped history gets 404', async () => {
    const start = (await gmail.users.getProfile({ userId: 'me' })).data.historyId ?? '';
    const empty = await gmail.users.history.list({ userId: 'me', startHistoryId: start });
    expect(empty.data.history).toBeUndefined();
    expect(empty.data.historyId).toBe(start);

    const [added] = running.sandbox.addMail(JANE, {
      from: { name: 'Zoë Ångström', email: 'zoe@newco.io' },
      subject: 'Hello from NewCo',
    });
    const response = await fetch(`${running.url}/_control/mail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: JANE, count: 2 }),
    });
    const control = (await response.json()) as { messages: { id: string }[] };
    expect(control.messages).toHaveLength(2);

    const { data } = await gmail.users.history.list({
      userId: 'me',
      startHistoryId: start,
      historyTypes: ['messageAdded'],
    });
    const addedIds = (data.history ?? []).flatMap((record) =>
      (record.messagesAdded ?? []).map((entry) => entry.message?.id),
    );
    expect(addedIds).toEqual([added?.id, ...control.messages.map((message) => message.id)]);
    expect(data.history?.[0]?.messagesAdded?.[0]?.message?.labelIds).toContain('INBOX');
    expect(BigInt(data.historyId ?? '0')).toBeGreaterThan(BigInt(start));

    const { data: message } = await gmail.users.messages.get({
      userId: 'me',
      id: added?.id ?? '',
      format: 'metadata',
      metadataHeaders: ['From', 'Subject'],
    });
    expect(message.payload?.headers).toEqual([
      { name: 'Subject', value: 'Hello from NewCo' },
      { name: 'From', value: 'Zoë Ångström <zoe@newco.io>' },
    ]);

    // Paging through history.
    const paged = await gmail.users.history.list({ userId: 'me', startHistoryId: start, maxResults: 1 });
    expect(paged.data.history).toHaveLength(1);
    expect(paged.data.nextPageToken).toBeTruthy();

    running.sandbox.dropHistory(JANE);
    const stale = await rejection(gmail.users.history.list({ userId: 'me', startHistoryId: start }, { retry: false }));
    expect(stale.status).toBe(404);
    expect(stale.data).toMatchObject({ error: { code: 404, status: 'NOT_FOUND', errors: [{ reason: 'notFound' }] } });
    const fresh = (await gmail.users.getProfile({ userId: 'me' })).data.historyId ?? '';
    expect((await gmail.users.history.list({ userId: 'me', startHistoryId: fresh })).status).toBe(200);
  });

  it('keeps a week of history for generated mail: the newest message’s history id works', async () => {
    const { client } = await connect(running, 'fresh.start@acme.com');
    const other = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    const { data: list } = await other.users.messages.list({ userId: 'me', maxResults: 1 });
    const { data: newest } = await other.users.messages.get({
      userId: 'me',
      id: list.messages?.[0]?.id ?? '',
      format: 'minimal',
    });
    const { status } = await other.users.history.list({ userId: 'me', startHistoryId: newest.historyId ?? '' });
    expect(status).toBe(200);
  });
});

describe('sending', () => {
  it('creates a draft, sends it once; sending it again gets 404', async () => {
    const raw = await rfc822({
      from: 'Jane Doe <jane.doe@acme.com>',
      to: 'Bob Martin <bob@partner.io>',
      cc: '"Doe, John" <john@acme.com>',
      subject: 'Intro: Ana <> Bob',
      text: 'Hi Bob,\n\nMeet Ana.\n\nJane',
      html: '<p>Hi Bob,</p><p>Meet Ana.</p><p>Jane</p>',
    });
    const { data: draft } = await gmail.users.drafts.create({ userId: 'me', requestBody: { message: { raw } } });
    expect(draft.id).toMatch(/^r-?\d+$/);
    expect(draft.message?.labelIds).toEqual(['DRAFT']);
    expect((await gmail.users.drafts.get({ userId: 'me', id: draft.id ?? '', format: 'metadata' })).status).toBe(200);

    const { data: sent } = await gmail.users.drafts.send({ userId: 'me', requestBody: { id: draft.id ?? '' } });
    expect(sent.labelIds).toEqual(['SENT']);
    expect(sent.id).toBeTruthy();
    expect(sent.threadId).toBeTruthy();

    const again = await rejection(gmail.users.drafts.send({ userId: 'me', requestBody: { id: draft.id ?? '' } }));
    expect(again.status).toBe(404);
    expect(again.data).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    expect(
      (await rejection(gmail.users.drafts.get({ userId: 'me', id: draft.id ?? '' }, { retry: false }))).status,
    ).toBe(404);

    const { data: message } = await gmail.users.messages.get({
      userId: 'me',
      id: sent.id ?? '',
      format: 'metadata',
      metadataHeaders: HEADERS,
    });
    const header = (name: string) => message.payload?.headers?.find((item) => item.name === name)?.value;
    expect(header('Subject')).toBe('Intro: Ana <> Bob');
    expect(header('To')).toBe('Bob Martin <bob@partner.io>');
    expect(header('Cc')).toBe('"Doe, John" <john@acme.com>');

    const json = (await (await fetch(`${running.url}/mail.json?to=bob@partner.io`)).json()) as {
      messages: SentMailJson[];
    };
    expect(json.messages).toHaveLength(1);
    expect(json.messages[0]).toMatchObject({
      id: sent.id,
      from: { name: 'Jane Doe', email: JANE },
      to: [{ name: 'Bob Martin', email: 'bob@partner.io' }],
      cc: [{ name: 'Doe, John', email: 'john@acme.com' }],
      subject: 'Intro: Ana <> Bob',
      text: 'Hi Bob,\n\nMeet Ana.\n\nJane',
      via: 'drafts.send',
    });
  });

  it('sends with messages.send, keeps non-ASCII text, and delivers to sandbox users', async () => {
    const { client } = await connect(running, 'ana.garcia@partner.io');
    const ana = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    const before = (await ana.users.getProfile({ userId: 'me' })).data.historyId ?? '';
    const raw = await rfc822({
      from: 'Jane Doe <jane.doe@acme.com>',
      to: [{ name: 'Ana García', address: 'ana.garcia@partner.io' }],
      subject: 'Réunion de lundi — café ☕',
      text: 'Bonjour Ana, à lundi ! 日本語も大丈夫。',
    });
    const { data: sent } = await gmail.users.messages.send({ userId: 'me', requestBody: { raw } });
    expect(sent.labelIds).toEqual(['SENT']);

    const { data: history } = await ana.users.history.list({ userId: 'me', startHistoryId: before });
    const receivedId = history.history?.[0]?.messagesAdded?.[0]?.message?.id ?? '';
    const { data: received } = await ana.users.messages.get({
      userId: 'me',
      id: receivedId,
      format: 'metadata',
      metadataHeaders: ['Subject', 'From'],
    });
    expect(received.labelIds).toContain('INBOX');
    expect(received.payload?.headers).toEqual(
      expect.arrayContaining([
        { name: 'Subject', value: 'Réunion de lundi — café ☕' },
        { name: 'From', value: 'Jane Doe <jane.doe@acme.com>' },
      ]),
    );
    const [mail] = running.sandbox.sentMail({ to: 'ana.garcia@partner.io' });
    expect(mail?.text).toBe('Bonjour Ana, à lundi ! 日本語も大丈夫。');
    expect(mail?.deliveredTo).toEqual(['ana.garcia@partner.io']);
    expect(mail?.via).toBe('messages.send');
  });

  it('bounces mail sent to the address someone left behind, not to their new one', async () => {
    const mover = running.sandbox
      .user(JANE)
      .world.people.find((person) => person.formerEmail && (person.changedAt ?? Number.POSITIVE_INFINITY) < Date.now());
    const before = (await gmail.users.getProfile({ userId: 'me' })).data.historyId ?? '';
    for (const to of [mover?.email ?? '', mover?.formerEmail ?? '']) {
      const raw = await rfc822({ from: JANE, to, subject: 'Catching up', text: 'Hello' });
      await gmail.users.messages.send({ userId: 'me', requestBody: { raw } });
    }
    const { data: history } = await gmail.users.history.list({ userId: 'me', startHistoryId: before });
    const added = (history.history ?? []).flatMap((record) => record.messagesAdded ?? []);
    expect(added).toHaveLength(3);
    const reports = [];
    for (const item of added) {
      const { data } = await gmail.users.messages.get({
        userId: 'me',
        id: item.message?.id ?? '',
        format: 'metadata',
        metadataHeaders: ['From', 'X-Failed-Recipients'],
      });
      const failed = data.payload?.headers?.find((header) => header.name === 'X-Failed-Recipients')?.value;
      if (failed) reports.push({ failed, labels: data.labelIds, threadId: data.threadId });
    }
    expect(reports).toEqual([
      { failed: mover?.formerEmail, labels: expect.arrayContaining(['INBOX', 'UNREAD']), threadId: expect.any(String) },
    ]);
    expect(reports[0]?.threadId).toBe(added[1]?.message?.threadId);
  });

  it('refuses a message without recipients or without raw', async () => {
    const raw = await rfc822({ from: 'jane.doe@acme.com', subject: 'nobody', text: 'x' });
    const none = await rejection(gmail.users.messages.send({ userId: 'me', requestBody: { raw } }));
    expect(none.data).toMatchObject({ error: { code: 400, message: 'Recipient address required' } });
    const empty = await rejection(gmail.users.messages.send({ userId: 'me', requestBody: {} }));
    expect(empty.status).toBe(400);
  });

  it('shows sent mail on an accessible page, newest first', async () => {
    const response = await fetch(`${running.url}/mail`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Sent mail</h1>');
    expect(html.indexOf('Réunion de lundi')).toBeLessThan(html.indexOf('Intro: Ana &#60;&#62; Bob'));
    expect(html).toContain('Meet Ana.');
  });
});

describe('rate limits', () => {
  it('answers the next calls with 429, Retry-After and RESOURCE_EXHAUSTED', async () => {
    running.sandbox.rateLimitNextCalls(1, { retryAfterSeconds: 7 });
    const limited = await rejection(gmail.users.messages.list({ userId: 'me', maxResults: 1 }, { retry: false }));
    expect(limited.status).toBe(429);
    expect(limited.header('retry-after')).toBe('7');
    expect(limited.data).toMatchObject({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }],
      },
    });
    expect((await gmail.users.messages.list({ userId: 'me', maxResults: 1 })).status).toBe(200);
  });

  it("lets the client's own retry get through once the limit has passed", async () => {
    const response = await fetch(`${running.url}/_control/rate-limit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, retryAfterSeconds: 0 }),
    });
    expect(response.status).toBe(200);
    expect((await gmail.users.messages.list({ userId: 'me', maxResults: 1 })).status).toBe(200);
  });
});
