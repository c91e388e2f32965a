import { randomUUID } from 'node:crypto';
import { type SignalType, signalsOfMask, type TTrackedEvent, type TTrackingSettings } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { markDirty, onePerson } from '../../graph/dirty.ts';
import { recordInteractions, upsertPeopleByEmail } from '../../graph/evidence.repo.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { openActionSignals } from '../actions/open-action-signals.ts';
import { siteLinkFor, withSiteLink } from './site-link.ts';
import { visitLinks } from './visit-link.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Admin = Awaited<ReturnType<TestContext['registerAdmin']>>;

/** A workspace with one prospect the admin met, and that prospect's person id. */
async function workspaceWithProspect(): Promise<{ admin: Admin; ws: string; prospect: string }> {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const email = `vera@${ctx.uniqueDomain()}`;
  const prospect = await ctx.database.inWorkspace(ws, async (tx) => {
    await upsertPeopleByEmail(tx, ws, [{ email, name: 'Vera Visitor' }]);
    await recordInteractions(tx, ws, admin.me.id, [
      {
        kind: 'meeting',
        externalId: `m-${randomUUID()}`,
        occurredAt: new Date(Date.now() - 86_400_000),
        participants: [admin.email, email].map((address) => ({
          email: address,
          name: null,
          role: 'attendee' as const,
        })),
      },
    ]);
    const row = await tx.execute<{ id: string }>(
      sql`select id from people where workspace_id = ${ws} and email = ${email}`,
    );
    return row.rows[0]?.id ?? '';
  });
  return { admin, ws, prospect };
}

/** Page views of a person (or of nobody), `daysAgo` each, as the ingestion stores them, then the graph job. */
async function visit(ws: string, personId: string | null, views: [path: string, daysAgo: number][]) {
  await ctx.database.inWorkspace(ws, async (tx) => {
    for (const [path, daysAgo] of views) {
      await tx.execute(sql`
        insert into website_events (workspace_id, person_id, anonymous_id, path, occurred_at)
        values (${ws}, ${personId}, 'browser-123456', ${path}, now() - make_interval(days => ${daysAgo}))`);
    }
    if (personId)
      await tx.execute(sql`insert into graph_dirty (workspace_id, person_id) values (${ws}, ${personId})
                                        on conflict do nothing`);
  });
  await recomputeDirty(ctx.database, ws);
}

async function visitSignals(ws: string, prospect: string): Promise<SignalType[]> {
  const rows = await ctx.database.inWorkspace(ws, (tx) =>
    tx.execute<{ signal_mask: number }>(sql`
      select signal_mask from network_rows where workspace_id = ${ws} and prospect_id = ${prospect}`),
  );
  return signalsOfMask(rows.rows[0]?.signal_mask ?? 0).filter((type) => type.startsWith('VISITED_'));
}

async function saveTracking(admin: Admin, settings: Partial<TTrackingSettings>) {
  const current = await ctx.app.inject({ url: '/api/workspace/query/tracking', headers: bearer(admin.token) });
  const { origins, pricingPatterns, manyPages, manyPagesDays } = { ...current.json<TTrackingSettings>(), ...settings };
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: '/api/workspace/command/set-tracking',
    headers: bearer(admin.token),
    payload: { origins, pricingPatterns, manyPages, manyPagesDays },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json<TTrackingSettings>();
}

describe('website tracking settings', () => {
  it('gives an admin the snippet with a public key, and nobody else the settings', async () => {
    const admin = await ctx.registerAdmin();
    const answer = await ctx.app.inject({ url: '/api/workspace/query/tracking', headers: bearer(admin.token) });
    const settings = answer.json<TTrackingSettings>();
    expect(settings).toMatchObject({ origins: [], pricingPatterns: ['/pricing*'], manyPages: 5, manyPagesDays: 7 });
    expect(settings.key).toMatch(/^wpk_[A-Za-z0-9_-]{20}$/);
    expect(settings.snippet).toBe(
      `<script async src="http://localhost:3999/api/public/snippet.js" data-key="${settings.key}"></script>`,
    );
    // The same key every time; another workspace has its own.
    const again = await ctx.app.inject({ url: '/api/workspace/query/tracking', headers: bearer(admin.token) });
    expect(again.json<TTrackingSettings>().key).toBe(settings.key);
    const other = await ctx.registerAdmin();
    const theirs = await ctx.app.inject({ url: '/api/workspace/query/tracking', headers: bearer(other.token) });
    expect(theirs.json<TTrackingSettings>().key).not.toBe(settings.key);

    const saved = await saveTracking(admin, { origins: ['https://www.engines.example/some/page'] });
    expect(saved.origins).toEqual(['https://www.engines.example']);
    for (const role of ['member', 'viewer'] as const) {
      const user = await ctx.addUser(admin.me.workspaceId, role, admin.domain);
      const refused = await ctx.app.inject({ url: '/api/workspace/query/tracking', headers: bearer(user.token) });
      expect(refused.statusCode).toBe(403);
    }
  });
});

describe('visit signals', () => {
  it('raises visited website and pricing page from identified visits only, by the workspace pricing paths', async () => {
    const { admin, ws, prospect } = await workspaceWithProspect();
    // An anonymous browser's visits count for nobody.
    await visit(ws, null, [['/pricing', 0]]);
    expect(await visitSignals(ws, prospect)).toEqual([]);

    await visit(ws, prospect, [['/pricing/teams', 1]]);
    expect(await visitSignals(ws, prospect)).toEqual(['VISITED_PRICING_PAGE', 'VISITED_WEBSITE']);

    // The site's pricing page is elsewhere: the rule follows, for the visits already made.
    await saveTracking(admin, { pricingPatterns: ['/plans*', '/compare/*_vs_*'] });
    await recomputeDirty(ctx.database, ws);
    expect(await visitSignals(ws, prospect)).toEqual(['VISITED_WEBSITE']);
    await visit(ws, prospect, [['/compare/us_vs_them', 0]]);
    expect(await visitSignals(ws, prospect)).toEqual(['VISITED_PRICING_PAGE', 'VISITED_WEBSITE']);
  });

  it('raises visited many pages at the threshold within the window, and not with older views', async () => {
    const { admin, ws, prospect } = await workspaceWithProspect();
    await saveTracking(admin, { manyPages: 3, manyPagesDays: 7 });
    await visit(ws, prospect, [
      ['/a', 1],
      ['/b', 2],
      ['/c', 10],
    ]);
    expect(await visitSignals(ws, prospect)).toEqual(['VISITED_WEBSITE']);
    await visit(ws, prospect, [['/d', 6]]);
    expect(await visitSignals(ws, prospect)).toEqual(['VISITED_MANY_PAGES', 'VISITED_WEBSITE']);

    const live = await ctx.app.inject({ url: '/api/workspace/query/tracked-events', headers: bearer(admin.token) });
    const events = live.json<TTrackedEvent[]>();
    expect(events.map((event) => event.path)).toEqual(['/a', '/b', '/d', '/c']);
    expect(events[0]?.visitor).toBe('Vera Visitor');
  });
});

describe('links to the team site', () => {
  it('name the recipient once the workspace tracks a site, and are absent before', async () => {
    const { admin, ws, prospect } = await workspaceWithProspect();
    const links = visitLinks(ctx.encryptionKey);
    const linkNow = () => ctx.database.inWorkspace(ws, (tx) => siteLinkFor(tx, links, ws, prospect));
    await saveTracking(admin, {});
    expect(await linkNow()).toBeNull();
    expect(withSiteLink('Hello Vera', null)).toBe('Hello Vera');

    await saveTracking(admin, { origins: ['https://www.engines.example'] });
    const link = await linkNow();
    expect(link).toMatch(/^https:\/\/www\.engines\.example\/\?wp_t=/);
    expect(links.personOf(new URL(link ?? '').searchParams.get('wp_t') ?? '', ws)).toBe(prospect);
    expect(withSiteLink('Hello Vera\n', link)).toBe(`Hello Vera\n\n${link}`);
  });
});

describe('open recommendations', () => {
  it('show the visit signals their prospect gains after they were made', async () => {
    const { admin, ws, prospect } = await workspaceWithProspect();
    await recomputeDirty(ctx.database, ws);
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`
        insert into actions (workspace_id, type, status, origin, prospect_id, recommended_on, recommendation_users)
        values (${ws}, 'DIRECT_MESSAGE', 'recommended', 'recommendation', ${prospect}, current_date,
                array[${admin.me.id}]::uuid[])`),
    );
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into website_events (workspace_id, person_id, path, occurred_at)
                     values (${ws}, ${prospect}, '/pricing', now())`),
    );
    await ctx.database.inWorkspace(ws, (tx) => markDirty(tx, ws, onePerson(prospect)));
    await recomputeDirty(ctx.database, ws, { signals: openActionSignals });
    const stored = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ signals: { type: string }[] }>(sql`
        select signals from actions where workspace_id = ${ws} and prospect_id = ${prospect}`),
    );
    expect(stored.rows[0]?.signals.map((signal) => signal.type)).toEqual(
      expect.arrayContaining(['VISITED_PRICING_PAGE', 'VISITED_WEBSITE', 'ALREADY_MET_COLLEAGUE']),
    );
  });
});
