import {
  SIGNAL_LABELS,
  type TAuditPage,
  type TContactsPage,
  type TNetworkFilters,
  type TPrivacy,
  type TProximityExplanation,
  type TRecommendedActionsPage,
  type TSharingLevel,
  type TWarmIntroModalData,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { recordInteractions } from '../../graph/evidence.repo.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { recommendActions } from '../actions/engine.ts';
import { networkRows } from '../network/network.repo.ts';
import { googleAccountDeps } from '../sources/google/google-deps.ts';
import { type SyncDeps, syncGoogleAccount } from '../sources/google/google-sync.ts';

// Issue 22: each member's sharing level holds in every read path a teammate has, the blocklist keeps
// and erases, and mail creates people only after a two-way exchange.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** The id workflows and webhooks read the network as: no member, so nobody's private evidence. */
const NOBODY = '00000000-0000-0000-0000-000000000000';
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

const post = (token: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api${url}`, headers: bearer(token), payload });
const get = (token: string, url: string) => ctx.app.inject({ url: `/api${url}`, headers: bearer(token) });

async function setPrivacy(token: string, change: Partial<Omit<TPrivacy, 'blocklist' | 'workspaceWeeklyIntroCap'>>) {
  const response = await ctx.app.inject({
    method: 'PUT',
    url: '/api/users/command/update-privacy',
    headers: bearer(token),
    payload: { sharingLevel: 'all', acceptsIntros: true, weeklyIntroCap: null, ...change },
  });
  expect(response.statusCode).toBe(200);
  return response.json<TPrivacy>();
}

/**
 * The shared network fixture, plus a prospect only the colleague met (so a recommendation would ask
 * them), and the prospects' company as the admin's account.
 */
async function privacyWorkspace(colleagueSharing: TSharingLevel) {
  const network = await buildNetwork(ctx);
  const { ws, admin, colleague, people } = network;
  const introOnly = `intro-only@${people.met.split('@')[1]}`;
  await ctx.database.inWorkspace(ws, async (tx) => {
    await recordInteractions(tx, ws, admin.me.id, [
      {
        kind: 'meeting',
        externalId: 'x1',
        occurredAt: daysAgo(5),
        participants: [
          { email: colleague.email, name: null, role: 'attendee' },
          { email: introOnly, name: null, role: 'attendee' },
        ],
      },
    ]);
    await tx.execute(sql`
      with account as (
        insert into accounts (workspace_id, company_id)
        select ${ws}::uuid, company_id from people where workspace_id = ${ws} and email = ${people.met}
        returning id
      )
      insert into account_assignees (workspace_id, account_id, user_id) select ${ws}::uuid, id, ${admin.me.id}::uuid from account`);
  });
  await recomputeDirty(ctx.database, ws);
  await setPrivacy(colleague.token, { sharingLevel: colleagueSharing });
  await recomputeDirty(ctx.database, ws);
  const personId = async (email: string) => {
    const result = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ id: string }>(sql`select id from people where workspace_id = ${ws} and email = ${email}`),
    );
    return result.rows[0]?.id ?? '';
  };
  return {
    ...network,
    introOnly,
    ids: {
      met: await personId(people.met),
      oneWay: await personId(people.oneWay),
      introOnly: await personId(introOnly),
      colleague: await personId(colleague.email),
    },
  };
}
type Workspace = Awaited<ReturnType<typeof privacyWorkspace>>;

async function rows(token: string) {
  const response = await post(token, '/contacts/query?page=1&pageSize=100', { filters: [] });
  expect(response.statusCode).toBe(200);
  return response.json<TContactsPage>().rows;
}
const explain = (token: string, prospectId: string) =>
  get(token, `/contacts/query/proximity-explanation?prospectId=${prospectId}`);
const exportCsv = async (token: string) => {
  const response = await post(token, '/contacts/query/export-csv', { filters: [] });
  expect(response.statusCode).toBe(200);
  return response.body;
};
const modal = (w: Workspace, targetId: string) =>
  get(
    w.admin.token,
    `/contacts/query/warm-intro-modal-data?source=connector&targetId=${targetId}&connectorId=${w.ids.colleague}`,
  );
async function recommendedTo(w: Workspace) {
  await recommendActions(ctx.database, w.ws, { userId: w.admin.me.id });
  const response = await post(w.admin.token, '/actions/query/recommended-actions?page=1&pageSize=30', { filters: [] });
  expect(response.statusCode).toBe(200);
  return response.json<TRecommendedActionsPage>().rows;
}
/** The rows as workflows and webhook events read them (signal-events.ts, workflow-engine.ts). */
const rowsForEvents = (w: Workspace) =>
  ctx.database.inWorkspace(w.ws, async (tx) => {
    const { model } = await loadGraphSettings(tx, w.ws);
    return networkRows(tx, { workspaceId: w.ws, userId: NOBODY }, [w.ids.met, w.ids.oneWay, w.ids.introOnly], model);
  });
const COLLEAGUE_NAME = 'Test member';

describe("a 'Private' member", () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await privacyWorkspace('private');
  });

  it('is in no teammate’s network rows, connector filter or export', async () => {
    const seen = await rows(w.admin.token);
    const emails = seen.map((row) => row.email);
    expect(emails).toContain(w.people.met);
    // Prospects only the private member knows are nobody else's.
    expect(emails).not.toContain(w.people.oneWay);
    expect(emails).not.toContain(w.introOnly);
    expect(JSON.stringify(seen)).not.toContain(w.ids.colleague);
    expect(JSON.stringify(seen)).not.toContain(COLLEAGUE_NAME);

    const filters = await post(w.admin.token, '/contacts/query/filters?companyNamePage=1&personNamePage=1', {
      filters: [],
    });
    const connector = filters.json<TNetworkFilters>().filters.find((filter) => filter.filterField === 'connector');
    expect(connector?.options.map((option) => option.name)).not.toContain(COLLEAGUE_NAME);

    const csv = await exportCsv(w.admin.token);
    expect(csv).toContain(w.people.met);
    expect(csv).not.toContain(w.people.oneWay);
    expect(csv).not.toContain(COLLEAGUE_NAME);
  });

  it('is on no teammate’s proximity explanation or warm-intro panel', async () => {
    const why = await explain(w.admin.token, w.ids.met);
    expect(why.statusCode).toBe(200);
    expect(why.json<TProximityExplanation>().paths.map((path) => path.connectorId)).not.toContain(w.ids.colleague);
    expect((await explain(w.admin.token, w.ids.oneWay)).statusCode).toBe(404);
    expect((await modal(w, w.ids.met)).statusCode).toBe(404);
  });

  it('is never recommended as a connector, nor named to workflows and webhooks', async () => {
    const actions = await recommendedTo(w);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.map((action) => action.contact.id)).not.toContain(w.ids.introOnly);
    expect(JSON.stringify(actions)).not.toContain(w.ids.colleague);

    const forEvents = await rowsForEvents(w);
    expect(forEvents.map((row) => row.email)).toEqual([w.people.met]);
    expect(JSON.stringify(forEvents)).not.toContain(w.ids.colleague);
  });

  it('still has their own evidence for themself', async () => {
    const met = (await rows(w.colleague.token)).find((row) => row.email === w.people.met);
    expect(met?.connectors.find((connector) => connector.isCurrentUser)).toMatchObject({
      id: w.ids.colleague,
      connectionSources: ['GOOGLE_MEETING'],
    });
  });

  it('sees in their own table the prospects only they know, counted, filtered, explained and exported', async () => {
    const seen = await rows(w.colleague.token);
    const oneWay = seen.find((row) => row.email === w.people.oneWay);
    expect(oneWay?.proximity).toBeGreaterThan(0);
    expect(oneWay?.connectors).toEqual([expect.objectContaining({ id: w.ids.colleague, isCurrentUser: true })]);
    expect(seen.map((row) => row.email)).toContain(w.introOnly);
    // Their own link counts for them: the shared prospect is at least as close as their own path.
    const met = seen.find((row) => row.email === w.people.met);
    const ownPath = met?.connectors.find((connector) => connector.isCurrentUser)?.proximity ?? 0;
    expect(met?.proximity).toBeGreaterThanOrEqual(ownPath);

    const page = await post(w.colleague.token, '/contacts/query?page=1&pageSize=1', { filters: [] });
    expect(page.json<TContactsPage>().pagination.totalCount).toBe(seen.length);
    const filters = await post(w.colleague.token, '/contacts/query/filters?companyNamePage=1&personNamePage=1', {
      filters: [],
    });
    const connector = filters.json<TNetworkFilters>().filters.find((filter) => filter.filterField === 'connector');
    expect(connector?.options.find((option) => option.key === w.ids.colleague)?.count).toBeGreaterThanOrEqual(2);
    const theirs = await post(w.colleague.token, '/contacts/query?page=1&pageSize=100', {
      filters: [{ name: 'connector', values: [w.ids.colleague] }],
    });
    expect(theirs.json<TContactsPage>().rows.map((row) => row.email)).toEqual(
      expect.arrayContaining([w.people.oneWay, w.introOnly]),
    );

    const why = await explain(w.colleague.token, w.ids.oneWay);
    expect(why.statusCode).toBe(200);
    expect(why.json<TProximityExplanation>().proximity).toBe(oneWay?.proximity);
    expect(await exportCsv(w.colleague.token)).toContain(w.people.oneWay);

    // The team's rows are unchanged by it: the admin's table still lacks them.
    expect((await rows(w.admin.token)).map((row) => row.email)).not.toContain(w.people.oneWay);
  });

  it('keeps no rows of their own once they share again', async () => {
    const ownRows = () =>
      ctx.database.inWorkspace(w.ws, async (tx) => {
        const found = await tx.execute<{ n: number }>(
          sql`select count(*)::int as n from own_network_rows where workspace_id = ${w.ws}`,
        );
        return found.rows[0]?.n ?? 0;
      });
    expect(await ownRows()).toBeGreaterThan(0);
    await setPrivacy(w.colleague.token, { sharingLevel: 'all' });
    await recomputeDirty(ctx.database, w.ws);
    expect(await ownRows()).toBe(0);
    await setPrivacy(w.colleague.token, { sharingLevel: 'private' });
    await recomputeDirty(ctx.database, w.ws);
    expect(await ownRows()).toBeGreaterThan(0);
  });

  it('gives teammates nothing from their mailbox, even of a thread the teammate was on', async () => {
    const prospect = `seen-by-private@${w.people.met.split('@')[1]}`;
    const colleagueId = await ctx.database.inWorkspace(w.ws, async (tx) => {
      const found = await tx.execute<{ id: string }>(
        sql`select id from users where workspace_id = ${w.ws} and email = ${w.colleague.email}`,
      );
      const id = found.rows[0]?.id ?? '';
      await recordInteractions(tx, w.ws, id, [
        {
          kind: 'meeting',
          externalId: 'private-calendar-1',
          occurredAt: daysAgo(3),
          participants: [w.admin.email, w.colleague.email, prospect].map((email) => ({
            email,
            name: null,
            role: 'attendee' as const,
          })),
        },
      ]);
      return id;
    });
    expect(colleagueId).not.toBe('');
    await recomputeDirty(ctx.database, w.ws);
    expect((await rows(w.admin.token)).map((row) => row.email)).not.toContain(prospect);
    // Theirs to use: the private member's own edge is there.
    const own = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ n: number }>(sql`
        select count(*)::int as n from edges e join people p on p.workspace_id = e.workspace_id and p.id = e.prospect_id
         where e.workspace_id = ${w.ws} and p.email = ${prospect} and e.connector_id = ${w.ids.colleague}`),
    );
    expect(own.rows[0]?.n).toBe(1);

    // Shared again (their prospects are rolled up again), the same meeting is evidence for the teammate who was there too.
    await setPrivacy(w.colleague.token, { sharingLevel: 'all' });
    await recomputeDirty(ctx.database, w.ws);
    const met = (await rows(w.admin.token)).find((row) => row.email === prospect);
    expect(met?.connectors.map((connector) => connector.isCurrentUser)).toContain(true);
    await setPrivacy(w.colleague.token, { sharingLevel: 'private' });
    await recomputeDirty(ctx.database, w.ws);
  });

  it('is back for everyone once they share again, and admins read each change in the audit log', async () => {
    await setPrivacy(w.colleague.token, { sharingLevel: 'all' });
    await recomputeDirty(ctx.database, w.ws);
    const emails = (await rows(w.admin.token)).map((row) => row.email);
    expect(emails).toEqual(expect.arrayContaining([w.people.oneWay, w.introOnly]));
    await setPrivacy(w.colleague.token, { sharingLevel: 'private' });
    await recomputeDirty(ctx.database, w.ws);
    const audit = (await get(w.admin.token, '/workspace/query/audit-log')).json<TAuditPage>();
    const changes = audit.rows.filter((row) => row.action === 'sharing.changed');
    // Newest first: the two changes of this test.
    expect(changes.slice(0, 2).map((row) => row.subject)).toEqual(['Share all → Private', 'Private → Share all']);
    expect(changes[0]?.actorEmail).toBe(w.colleague.email);
  });
});

describe("a 'Share strength only' member", () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await privacyWorkspace('strength');
  });

  it('shows teammates whom they know and how well, never through what', async () => {
    const seen = await rows(w.admin.token);
    const oneWay = seen.find((row) => row.email === w.people.oneWay);
    expect(oneWay?.connectors).toEqual([
      expect.objectContaining({ id: w.ids.colleague, connectionSources: [], proximity: expect.any(Number) }),
    ]);
    expect(oneWay?.proximity).toBeGreaterThan(0);
    const met = seen.find((row) => row.email === w.people.met);
    expect(met?.connectors.find((connector) => connector.id === w.ids.colleague)?.connectionSources).toEqual([]);
    // The admin's own channels are still theirs to show.
    expect(met?.connectors.find((connector) => connector.isCurrentUser)?.connectionSources).toEqual([
      'GOOGLE_MEETING',
      'GOOGLE_MAIL',
    ]);
    // Signals and engagement would say 'they met': nothing of it for a prospect only they know.
    const introOnly = seen.find((row) => row.email === w.introOnly);
    expect(introOnly?.engagement).toBe('NEVER_MET');
    expect(introOnly?.signals).toEqual([]);
  });

  it('never lets their channels, counts or dates out in an explanation, panel, export or event', async () => {
    const why = (await explain(w.admin.token, w.ids.oneWay)).json<TProximityExplanation>();
    expect(why.paths).toEqual([expect.objectContaining({ connectorId: w.ids.colleague, channels: [] })]);
    expect(JSON.stringify(why)).not.toMatch(/e-mail|meeting|month/i);

    const panel = await modal(w, w.ids.introOnly);
    expect(panel.statusCode).toBe(200);
    expect(panel.json<TWarmIntroModalData>().connector.connectionSources).toEqual([]);
    expect(panel.json<TWarmIntroModalData>().signals).toEqual([]);

    const csv = (await exportCsv(w.admin.token)).split('\n');
    const line = csv.find((row) => row.includes(w.introOnly));
    expect(line).toContain(COLLEAGUE_NAME);
    expect(line).not.toContain(SIGNAL_LABELS.ALREADY_MET_COLLEAGUE);

    for (const row of await rowsForEvents(w)) {
      for (const connector of row.connectors.filter((c) => c.id === w.ids.colleague)) {
        expect(connector.connectionSources).toEqual([]);
      }
      if (row.email !== w.people.met) expect(row.signals).toEqual([]);
    }
  });

  it('gives recommendations none of their channels', async () => {
    const actions = await recommendedTo(w);
    expect(actions.length).toBeGreaterThan(0);
    // The prospect only they met has no signal saying so (with 'Share all' it is recommended as warm).
    expect(
      actions.filter((action) => action.contact.id === w.ids.introOnly).flatMap((action) => action.signals),
    ).toEqual([]);
    for (const action of actions.filter((row) => row.connector?.id === w.ids.colleague)) {
      expect(action.connector?.connectionSources).toEqual([]);
    }
  });

  it('still sees their own channels', async () => {
    const oneWay = (await rows(w.colleague.token)).find((row) => row.email === w.people.oneWay);
    expect(oneWay?.connectors[0]?.connectionSources).toEqual(['GOOGLE_MAIL']);
  });
});

describe('a member going private', () => {
  it('withdraws the intro asks already recommended to teammates through them', async () => {
    const w = await privacyWorkspace('all');
    const before = await recommendedTo(w);
    expect(before.find((action) => action.contact.id === w.ids.introOnly)?.connector?.id).toBe(w.ids.colleague);
    await setPrivacy(w.colleague.token, { sharingLevel: 'private' });
    await recomputeDirty(ctx.database, w.ws);
    const response = await post(w.admin.token, '/actions/query/recommended-actions?page=1&pageSize=30', {
      filters: [],
    });
    const after = response.json<TRecommendedActionsPage>().rows;
    expect(after.length).toBeGreaterThan(0);
    expect(JSON.stringify(after)).not.toContain(w.ids.colleague);
  });
});

describe("'Don't ask me for intros' and a member's weekly cap", () => {
  it('refuse a request to the member, and the panel shows the member’s own cap', async () => {
    const w = await privacyWorkspace('all');
    await setPrivacy(w.colleague.token, { weeklyIntroCap: 1 });
    expect((await modal(w, w.ids.met)).json<TWarmIntroModalData>().weeklyCap).toBe(1);

    await ctx.recordGoogleConnection(w.ws, w.admin.me.id, w.admin.email);
    await setPrivacy(w.colleague.token, { acceptsIntros: false });
    const refused = await post(w.admin.token, '/contacts/command/send-warm-intro-email', [
      {
        connectorId: w.ids.colleague,
        prospectContactId: w.ids.met,
        connectorMessage: 'Hi',
        introTargetMessage: '',
        source: 'connector',
      },
    ]);
    expect(refused.json()).toMatchObject({
      code: 'LIMIT_REACHED',
      message: expect.stringContaining('does not take intro requests'),
    });
    const actions = await recommendedTo(w);
    expect(JSON.stringify(actions.map((action) => action.connector))).not.toContain(w.ids.colleague);
  });
});

describe('another workspace', () => {
  it('never sees a member’s settings nor their network', async () => {
    const w = await privacyWorkspace('strength');
    await post(w.colleague.token, '/users/command/block-contact', { entry: 'secret-clinic.test' });
    const stranger = await ctx.registerAdmin();
    const theirs = (await get(stranger.token, '/users/query/privacy')).json<TPrivacy>();
    expect(theirs).toMatchObject({ sharingLevel: 'all', blocklist: [] });
    expect(await rows(stranger.token)).toEqual([]);
    expect((await explain(stranger.token, w.ids.oneWay)).statusCode).toBe(404);
    // A member's settings are their own: a teammate reads theirs, not the colleague's.
    expect((await get(w.admin.token, '/users/query/privacy')).json<TPrivacy>().blocklist).toEqual([]);
  });
});

// Whole-mailbox syncs: 5-15 s alone, past 30 s beside the other integration files on two cores.
describe('the blocklist and the two-way rule in a Google sync', { timeout: 300_000 }, () => {
  let deps: SyncDeps;
  beforeAll(() => {
    deps = googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey);
  });
  const peopleAt = async (ws: string, domain: string) => {
    const result = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ email: string }>(
        sql`select email from people where workspace_id = ${ws} and email like ${`%@${domain}`}`,
      ),
    );
    return result.rows.map((row) => row.email);
  };

  it('keeps nothing of a blocked domain, creates people only after a two-way exchange, and erases on a later block', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await ctx.connectGoogle(admin.token, admin.email);
    const [clinic, lawyer, cold, news] = [
      ctx.uniqueDomain(),
      ctx.uniqueDomain(),
      ctx.uniqueDomain(),
      ctx.uniqueDomain(),
    ];
    const blocked = await post(admin.token, '/users/command/block-contact', { entry: clinic.toUpperCase() });
    expect(blocked.json<TPrivacy>().blocklist).toEqual([clinic]);

    const add = (from: string, to: string[], count = 1) => ctx.google.addMail(admin.email, { count, from, to });
    add(`dr@${clinic}`, [admin.email]);
    add(admin.email, [`dr@${clinic}`]);
    add(`anne@${lawyer}`, [admin.email]);
    add(admin.email, [`anne@${lawyer}`]);
    add(`cold@${cold}`, [admin.email], 3);
    add(`digest@${news}`, [admin.email], 5);
    await syncGoogleAccount(deps, { workspaceId: ws, userId: admin.me.id });

    expect(await peopleAt(ws, clinic)).toEqual([]);
    expect(await peopleAt(ws, lawyer)).toEqual([`anne@${lawyer}`]);
    // Cold inbound and a newsletter create nobody; a reply makes it an exchange.
    expect(await peopleAt(ws, cold)).toEqual([]);
    expect(await peopleAt(ws, news)).toEqual([]);
    add(admin.email, [`cold@${cold}`]);
    await syncGoogleAccount(deps, { workspaceId: ws, userId: admin.me.id });
    expect(await peopleAt(ws, cold)).toEqual([`cold@${cold}`]);
    expect(await peopleAt(ws, news)).toEqual([]);

    await recomputeDirty(ctx.database, ws);
    // Read in the database: the sandbox's mailbox fills more rows than a page.
    const lawyerRow = async () => {
      const result = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute(sql`select r.proximity from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
                        where r.workspace_id = ${ws} and p.email = ${`anne@${lawyer}`}`),
      );
      return result.rows[0];
    };
    expect(await lawyerRow()).toBeDefined();
    // Internal mail (only colleagues on it) makes no edge: nobody at the workspace's own domain is a prospect.
    const internal = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select count(*)::int as n from edges e join people p on p.workspace_id = e.workspace_id and p.id = e.prospect_id
                      where e.workspace_id = ${ws} and p.email like ${`%@${admin.domain}`}`),
    );
    expect(internal.rows[0]).toEqual({ n: 0 });

    // Blocking the lawyer's domain later erases what the member's account gave about them.
    await post(admin.token, '/users/command/block-contact', { entry: lawyer });
    const kept = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ participations: number; contacts: number; correspondents: number }>(sql`
        select (select count(*) from interaction_participants ip join people p on p.workspace_id = ip.workspace_id and p.id = ip.person_id
                 where ip.workspace_id = ${ws} and p.email = ${`anne@${lawyer}`})::int as participations,
               (select count(*) from address_book_entries a join people p on p.workspace_id = a.workspace_id and p.id = a.person_id
                 where a.workspace_id = ${ws} and p.email = ${`anne@${lawyer}`})::int as contacts,
               (select count(*) from mail_correspondents where workspace_id = ${ws} and domain = ${lawyer})::int as correspondents`),
    );
    expect(kept.rows[0]).toEqual({ participations: 0, contacts: 0, correspondents: 0 });
    await recomputeDirty(ctx.database, ws);
    expect(await lawyerRow()).toBeUndefined();

    // And the next sync, even a full one, brings nothing of them back.
    ctx.google.dropHistory(admin.email);
    await syncGoogleAccount(deps, { workspaceId: ws, userId: admin.me.id });
    await recomputeDirty(ctx.database, ws);
    expect(await lawyerRow()).toBeUndefined();
    const unblocked = await post(admin.token, '/users/command/unblock-contact', { entry: lawyer });
    expect(unblocked.json<TPrivacy>().blocklist).toEqual([clinic]);
  });
});
