import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_SKEW_MS,
  clampOccurredAt,
  createGroupCommit,
  IngestBusyError,
  pathOf,
  referrerOf,
  type TrackedEvent,
  toTrackedEvents,
} from './ingest.ts';
import { visitLinks } from './visit-link.ts';

const page = (anonymousId = 'browser-1'): TrackedEvent => ({
  type: 'page',
  anonymousId,
  path: '/',
  referrer: null,
  personId: null,
  occurredAt: new Date(),
});

describe('what is kept of an address', () => {
  it.each([
    ['https://www.acme.com/pricing?wp_t=abc.def&utm_source=mail#plans', '/pricing'],
    ['https://www.acme.com/?wp_t=abc', '/'],
    ['https://www.acme.com', '/'],
    ['http://acme.com:8080/docs/api/?q=alice%40acme.com', '/docs/api/'],
    ['https://www.acme.com/caf%C3%A9/menu', '/caf%C3%A9/menu'],
  ])('%s is stored as %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });

  it('keeps a referrer as origin and path, and nothing that is not a web address', () => {
    expect(referrerOf('https://www.google.com/search?q=warm+intros')).toBe('https://www.google.com/search');
    expect(referrerOf('https://mail.acme.com/?wp_t=abc')).toBe('https://mail.acme.com/');
    expect(referrerOf('')).toBeNull();
    expect(referrerOf(null)).toBeNull();
    expect(referrerOf('not an address')).toBeNull();
    expect(referrerOf('android-app://com.slack/')).toBeNull();
  });
});

describe('the time of an event', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['absent', undefined, now],
    ['a minute late', '2026-11-25T11:59:00.000Z', new Date('2026-11-25T11:59:00.000Z')],
    [
      'exactly five minutes early',
      new Date(now.getTime() - CLOCK_SKEW_MS).toISOString(),
      new Date(now.getTime() - CLOCK_SKEW_MS),
    ],
    ['five minutes and a second early', new Date(now.getTime() - CLOCK_SKEW_MS - 1000).toISOString(), now],
    ['in the future', '2026-11-25T12:06:00.000Z', now],
    ['last year', '2025-11-25T12:00:00.000Z', now],
  ])('%s is kept or replaced by the time received', (_case, sent, expected) => {
    expect(clampOccurredAt(sent, now)).toEqual(expected);
  });
});

describe('events as stored', () => {
  it('turns a token into the person it names in this workspace only, and lower-cases e-mails', () => {
    const links = visitLinks(randomBytes(32));
    const workspaceId = randomUUID();
    const personId = randomUUID();
    const token = new URL(links.link('https://www.acme.com/', workspaceId, personId)).searchParams.get('wp_t') ?? '';
    const now = new Date();
    const events = [
      { type: 'page' as const, anonymousId: 'browser-1', url: 'https://www.acme.com/pricing?wp_t=x', token },
      { type: 'identify' as const, anonymousId: 'browser-1', email: ' Ada@Acme.COM ' },
    ];
    expect(toTrackedEvents(events, { workspaceId, visitLinks: links, now })).toEqual([
      { type: 'page', anonymousId: 'browser-1', path: '/pricing', referrer: null, personId, occurredAt: now },
      { type: 'identify', anonymousId: 'browser-1', email: 'ada@acme.com', occurredAt: now },
    ]);
    const elsewhere = toTrackedEvents(events, { workspaceId: randomUUID(), visitLinks: links, now });
    expect(elsewhere[0]).toMatchObject({ personId: null });
    for (const garbage of ['', 'abc', 'a.b', `${token}x`]) {
      const [tracked] = toTrackedEvents([{ ...events[0], token: garbage } as (typeof events)[0]], {
        workspaceId,
        visitLinks: links,
        now,
      });
      expect(tracked).toMatchObject({ personId: null });
    }
  });
});

describe('group commit', () => {
  it('writes requests that arrive together in one transaction and answers each once it committed', async () => {
    const writes: number[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const commit = createGroupCommit({
      write: async (_workspaceId, events) => {
        writes.push(events.length);
        await gate;
      },
    });
    let answered = 0;
    const requests = Array.from({ length: 20 }, () => commit.submit('ws', [page(), page()]).then(() => answered++));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toEqual([40]);
    expect(answered).toBe(0);
    release();
    await Promise.all(requests);
    expect(answered).toBe(20);
  });

  it('batches what arrives while transactions are written into the next, at most two at a time per workspace', async () => {
    const writes: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const commit = createGroupCommit({
      write: async (_workspaceId, events) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        writes.push(events.length);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
      },
      maxEventsPerFlush: 30,
    });
    const first = commit.submit('ws', [page()]);
    await new Promise((resolve) => setImmediate(resolve));
    // The first transaction is running: a second takes 30 of these at once, the rest wait for a free one.
    const later = Array.from({ length: 50 }, () => commit.submit('ws', [page()]));
    await Promise.all([first, ...later]);
    expect(writes).toEqual([1, 30, 20]);
    expect(mostAtOnce).toBe(2);
    await commit.drain();
  });

  it('writes a batch carrying an identity alone, after what came before it', async () => {
    const log: string[] = [];
    let running = 0;
    const commit = createGroupCommit({
      write: async (_workspaceId, events) => {
        running++;
        log.push(`${events.map((event) => event.anonymousId).join('+')} with ${running - 1} other(s)`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
      },
    });
    const identify: TrackedEvent = {
      type: 'identify',
      anonymousId: 'i3',
      email: 'ada@acme.test',
      occurredAt: new Date(),
    };
    const withToken: TrackedEvent = { ...page('t5'), personId: randomUUID() } as TrackedEvent;
    const first = commit.submit('ws', [page('p1')]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([
      first,
      commit.submit('ws', [page('p2')]),
      commit.submit('ws', [identify]),
      commit.submit('ws', [page('p4')]),
    ]);
    await Promise.all([commit.submit('ws', [page('p6')]), commit.submit('ws', [withToken])]);
    expect(log).toEqual([
      'p1 with 0 other(s)',
      'p2 with 1 other(s)',
      'i3+p4 with 0 other(s)',
      'p6 with 0 other(s)',
      't5 with 0 other(s)',
    ]);
  });

  it('writes different workspaces side by side, up to maxInFlight', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const commit = createGroupCommit({
      write: async () => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
      },
      maxInFlight: 2,
    });
    await Promise.all(['a', 'b', 'c', 'd'].map((workspaceId) => commit.submit(workspaceId, [page()])));
    expect(mostAtOnce).toBe(2);
  });

  it('fails the requests of a failed transaction only, and refuses more than maxQueuedEvents waiting', async () => {
    const commit = createGroupCommit({
      write: async (workspaceId) => {
        if (workspaceId === 'broken') throw new Error('database gone');
      },
      maxQueuedEvents: 3,
    });
    await expect(commit.submit('broken', [page()])).rejects.toThrow('database gone');
    await expect(commit.submit('fine', [page()])).resolves.toBeUndefined();
    const waiting = commit.submit('fine', [page(), page(), page()]);
    await expect(commit.submit('fine', [page()])).rejects.toBeInstanceOf(IngestBusyError);
    await waiting;
    await expect(commit.submit('fine', [page()])).resolves.toBeUndefined();
  });

  it('drains: resolves once everything submitted is written', async () => {
    let written = 0;
    const commit = createGroupCommit({
      write: async (_workspaceId, events) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        written += events.length;
      },
    });
    for (let i = 0; i < 5; i++) void commit.submit(`ws-${i % 2}`, [page()]);
    await commit.drain();
    expect(written).toBe(5);
  });
});
