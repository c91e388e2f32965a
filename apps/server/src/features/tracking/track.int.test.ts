import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.ts';
import { upsertPeopleByEmail } from '../../graph/evidence.repo.ts';
import { purgeAnonymousVisits } from './ingest.ts';
import { SNIPPET } from './snippet.ts';
import { visitLinks } from './visit-link.ts';

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A new workspace with a tracking site for `origin`; its key is new too. */
async function site(origin = `https://www.${randomUUID().slice(0, 8)}.test`) {
  const admin = await ctx.registerAdmin();
  const workspaceId = admin.me.workspaceId;
  const key = `wp_${randomUUID().replaceAll('-', '')}`;
  // Stored as an admin may type it (a trailing slash): the same origin.
  await ctx.database.db.execute(
    sql`insert into tracking_sites (key, workspace_id, origins) values (${key}, ${workspaceId}, ${sql.param([`${origin}/`])}::text[])`,
  );
  return { workspaceId, key, origin };
}

let addresses = 0;
/** A client address of its own, so one test's requests never spend another's rate. */
const newAddress = () => `198.51.${Math.floor(++addresses / 250)}.${addresses % 250}`;

type Send = { origin?: string | null; agent?: string; contentType?: string; address?: string };
function send(
  payload: unknown,
  { origin, agent = BROWSER, contentType = 'application/json', address = newAddress() }: Send,
) {
  const headers: Record<string, string> = { 'user-agent': agent, 'content-type': contentType };
  if (origin) headers.origin = origin;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/public/track',
    remoteAddress: address,
    headers,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

const pageView = (anonymousId: string, url: string, extra: object = {}) => ({
  type: 'page',
  anonymousId,
  url,
  ...extra,
});

type StoredEvent = {
  path: string;
  referrer: string | null;
  anonymous_id: string | null;
  person_id: string | null;
  company_id: string | null;
};
async function storedEvents(workspaceId: string) {
  const found = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<StoredEvent>(sql`
      select path, referrer, anonymous_id, person_id, company_id from website_events
       where workspace_id = ${workspaceId} order by occurred_at, path`),
  );
  return found.rows;
}

async function personByEmail(workspaceId: string, email: string) {
  const found = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ id: string; company_id: string | null }>(
      sql`select id, company_id from people where workspace_id = ${workspaceId} and email = ${email}`,
    ),
  );
  return found.rows[0];
}

/** The people marked for the graph's recompute, besides the admin (whose sign-up marked them). */
async function dirtyPeople(workspaceId: string) {
  const found = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ person_id: string }>(sql`
      select d.person_id from graph_dirty d join people p on p.workspace_id = d.workspace_id and p.id = d.person_id
       where d.workspace_id = ${workspaceId} and p.email not like 'admin@%'`),
  );
  return found.rows.map((row) => row.person_id);
}

describe('POST /api/public/track', () => {
  it('stores a batch with paths only and answers 202 allowing the origin', async () => {
    const { workspaceId, key, origin } = await site();
    const response = await send(
      {
        key,
        events: [
          pageView('browser-aaaa', `${origin}/pricing?wp_t=abc&utm_source=mail#plans`, {
            referrer: 'https://www.google.com/search?q=acme',
          }),
          pageView('browser-aaaa', `${origin}/docs/setup`, { occurredAt: new Date(Date.now() + 1000).toISOString() }),
        ],
      },
      { origin },
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: 2 });
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    expect(await storedEvents(workspaceId)).toEqual([
      {
        path: '/pricing',
        referrer: 'https://www.google.com/search',
        anonymous_id: 'browser-aaaa',
        person_id: null,
        company_id: null,
      },
      { path: '/docs/setup', referrer: null, anonymous_id: 'browser-aaaa', person_id: null, company_id: null },
    ]);
  });

  it('takes the text/plain body sendBeacon sends', async () => {
    const { workspaceId, key, origin } = await site();
    const response = await send(
      { key, events: [pageView('browser-bbbb', `${origin}/`)] },
      { origin, contentType: 'text/plain;charset=UTF-8' },
    );
    expect(response.statusCode).toBe(202);
    expect((await storedEvents(workspaceId)).map((event) => event.path)).toEqual(['/']);
  });

  it('refuses bad input with 400 and its reason, and a body over 64 KB with 413, storing nothing', async () => {
    const { workspaceId, key, origin } = await site();
    const cases = [
      { key, events: [] },
      { key, events: [pageView('browser-cccc', 'javascript:alert(1)')] },
      { key, events: [pageView('short', `${origin}/`)] },
      { key, events: [{ type: 'identify', anonymousId: 'browser-cccc', email: 'not an e-mail' }] },
      { key, events: Array.from({ length: 51 }, () => pageView('browser-cccc', `${origin}/`)) },
    ];
    for (const payload of cases) {
      const response = await send(payload, { origin });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/\S/) });
    }
    const malformed = await send('{"key": ', { origin, contentType: 'text/plain' });
    expect(malformed.statusCode).toBe(400);
    const huge = await send(
      { key, events: [pageView('browser-cccc', `${origin}/`, { referrer: 'x'.repeat(70_000) })] },
      { origin },
    );
    expect(huge.statusCode).toBe(413);
    expect(await storedEvents(workspaceId)).toEqual([]);
  });

  it('refuses an unknown key and an origin the site does not list, storing nothing', async () => {
    const { workspaceId, key, origin } = await site();
    const unknown = await send({ key: 'wp_nobody', events: [pageView('browser-dddd', `${origin}/`)] }, { origin });
    expect(unknown.statusCode).toBe(403);
    const elsewhere = await send(
      { key, events: [pageView('browser-dddd', 'https://evil.test/')] },
      { origin: 'https://evil.test' },
    );
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const noOrigin = await send({ key, events: [pageView('browser-dddd', `${origin}/`)] }, { origin: null });
    expect(noOrigin.statusCode).toBe(403);
    expect(await storedEvents(workspaceId)).toEqual([]);
  });

  it('drops known bots with 202 and nothing accepted', async () => {
    const { workspaceId, key, origin } = await site();
    for (const agent of ['Mozilla/5.0 (compatible; Googlebot/2.1)', 'Slackbot-LinkExpanding 1.0', 'curl/8.4.0', '']) {
      const response = await send({ key, events: [pageView('browser-eeee', `${origin}/`)] }, { origin, agent });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ accepted: 0 });
    }
    expect(await storedEvents(workspaceId)).toEqual([]);
  });

  it('limits requests per address and events per key, with Retry-After', async () => {
    const { key, origin } = await site();
    const address = newAddress();
    // 100 requests at once is the burst of an address; crawlers spend it too. The bucket refills at 20 a
    // second meanwhile: on a busy machine a few more get through before the first refusal.
    const started = performance.now();
    let accepted = 0;
    let refused = null;
    while (!refused && accepted < 200) {
      const response = await send({ key, events: [] }, { origin, address, agent: 'curl/8.4.0' });
      if (response.statusCode === 202) accepted += 1;
      else refused = response;
    }
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 20);
    expect(accepted).toBeGreaterThanOrEqual(100);
    expect(accepted).toBeLessThanOrEqual(100 + refilled);
    expect(refused?.statusCode).toBe(429);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // 1,000 events is the burst of a key, whatever the addresses.
    const batch = { key, events: Array.from({ length: 50 }, (_, i) => pageView(`browser-${i}-ffff`, `${origin}/`)) };
    for (let i = 0; i < 20; i++) expect((await send(batch, { origin })).statusCode).toBe(202);
    const over = await send(batch, { origin });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'LIMIT_REACHED' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('ties a browser’s earlier anonymous visits to the person it identifies as, and marks them for the graph', async () => {
    const { workspaceId, key, origin } = await site();
    const domain = `buyer-${randomUUID().slice(0, 6)}.test`;
    const email = `grace@${domain}`;
    await send(
      { key, events: [pageView('browser-gggg', `${origin}/`), pageView('browser-gggg', `${origin}/pricing`)] },
      { origin },
    );
    await send({ key, events: [pageView('browser-other', `${origin}/`)] }, { origin });
    expect(await dirtyPeople(workspaceId)).toEqual([]);

    const identified = await send(
      { key, events: [{ type: 'identify', anonymousId: 'browser-gggg', email: `Grace@${domain.toUpperCase()}` }] },
      { origin },
    );
    expect(identified.json()).toEqual({ accepted: 1 });
    const person = await personByEmail(workspaceId, email);
    expect(person?.company_id).toBeTruthy();
    // Later visits of that browser are theirs as well; another browser stays anonymous.
    await send({ key, events: [pageView('browser-gggg', `${origin}/demo`)] }, { origin });
    const events = await storedEvents(workspaceId);
    const mine = events.filter((event) => event.anonymous_id === 'browser-gggg');
    expect(mine.map((event) => event.path).sort()).toEqual(['/', '/demo', '/pricing']);
    expect(mine.every((event) => event.person_id === person?.id && event.company_id === person?.company_id)).toBe(true);
    expect(events.find((event) => event.anonymous_id === 'browser-other')?.person_id).toBeNull();
    expect(await dirtyPeople(workspaceId)).toEqual([person?.id]);
  });

  it('identifies the visitor a link from our e-mails brought, in its own workspace only', async () => {
    const ours = await site();
    const theirs = await site();
    const email = `ada@lovelace-${randomUUID().slice(0, 6)}.test`;
    const personOf = async (workspaceId: string) => {
      await ctx.database.inWorkspace(workspaceId, (tx) =>
        upsertPeopleByEmail(tx, workspaceId, [{ email, name: 'Ada' }]),
      );
      return (await personByEmail(workspaceId, email))?.id ?? '';
    };
    const ada = await personOf(ours.workspaceId);
    const adaElsewhere = await personOf(theirs.workspaceId);
    const links = visitLinks(ctx.encryptionKey);
    const tokenFor = (workspaceId: string, personId: string) =>
      new URL(links.link('https://www.acme.test/pricing', workspaceId, personId)).searchParams.get('wp_t');

    await send({ key: ours.key, events: [pageView('browser-hhhh', `${ours.origin}/`)] }, { origin: ours.origin });
    const landed = await send(
      {
        key: ours.key,
        events: [pageView('browser-hhhh', `${ours.origin}/pricing`, { token: tokenFor(ours.workspaceId, ada) })],
      },
      { origin: ours.origin },
    );
    expect(landed.statusCode).toBe(202);
    expect((await storedEvents(ours.workspaceId)).map((event) => event.person_id)).toEqual([ada, ada]);
    expect(await dirtyPeople(ours.workspaceId)).toEqual([ada]);

    // Another workspace's token (even for someone this workspace knows too) names nobody here.
    await send(
      {
        key: ours.key,
        events: [
          pageView('browser-iiii', `${ours.origin}/pricing`, { token: tokenFor(theirs.workspaceId, adaElsewhere) }),
        ],
      },
      { origin: ours.origin },
    );
    const foreign = (await storedEvents(ours.workspaceId)).find((event) => event.anonymous_id === 'browser-iiii');
    expect(foreign?.person_id).toBeNull();
    expect(await storedEvents(theirs.workspaceId)).toEqual([]);
    expect(await dirtyPeople(theirs.workspaceId)).toEqual([]);
  });

  it('keeps each workspace’s events in that workspace, however the requests interleave', async () => {
    const sites = await Promise.all([site(), site(), site()]);
    await Promise.all(
      sites.flatMap(({ key, origin }, index) =>
        Array.from({ length: 10 }, (_, i) =>
          send({ key, events: [pageView(`browser-${index}-${i}-jjjj`, `${origin}/site-${index}`)] }, { origin }),
        ),
      ),
    );
    for (const [index, { workspaceId }] of sites.entries()) {
      const paths = (await storedEvents(workspaceId)).map((event) => event.path);
      expect(paths).toEqual(Array.from({ length: 10 }, () => `/site-${index}`));
    }
  });
});

describe('OPTIONS /api/public/track', () => {
  it('allows a listed origin to post JSON, and no other', async () => {
    const { origin } = await site();
    const preflight = (from: string) =>
      ctx.app.inject({
        method: 'OPTIONS',
        url: '/api/public/track',
        headers: {
          origin: from,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight(origin);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type',
    });
    const refused = await preflight('https://evil.test');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GET /api/public/snippet.js', () => {
  it('serves the snippet gzipped, cached an hour, and answers 304 to its ETag', async () => {
    const response = await ctx.app.inject({
      url: '/api/public/snippet.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe(SNIPPET.cacheControl);
    expect(gunzipSync(response.rawPayload).toString()).toBe(SNIPPET.source);
    const plain = await ctx.app.inject({ url: '/api/public/snippet.js' });
    expect(plain.body).toBe(SNIPPET.source);
    const again = await ctx.app.inject({
      url: '/api/public/snippet.js',
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('purgeAnonymousVisits', () => {
  it('deletes page views older than 30 days that count for nobody, and only those', async () => {
    const { workspaceId } = await site();
    const email = `old@client-${randomUUID().slice(0, 6)}.test`;
    await ctx.database.inWorkspace(workspaceId, (tx) => upsertPeopleByEmail(tx, workspaceId, [{ email, name: null }]));
    const person = await personByEmail(workspaceId, email);
    const days = (count: number) => sql`now() - make_interval(days => ${count})`;
    await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(sql`
        insert into website_events (workspace_id, person_id, company_id, anonymous_id, path, occurred_at)
        values (${workspaceId}, null, null, 'browser-kkkk', '/anonymous-old', ${days(31)}),
               (${workspaceId}, null, null, 'browser-kkkk', '/anonymous-recent', ${days(29)}),
               (${workspaceId}, ${person?.id}, ${person?.company_id}, 'browser-kkkk', '/identified-old', ${days(31)}),
               (${workspaceId}, null, ${person?.company_id}, null, '/company-old', ${days(31)})`),
    );
    expect(await purgeAnonymousVisits(ctx.database)).toBeGreaterThanOrEqual(1);
    // A company alone names nobody: its old views go too.
    expect((await storedEvents(workspaceId)).map((event) => event.path).sort()).toEqual([
      '/anonymous-recent',
      '/identified-old',
    ]);
  });
});
