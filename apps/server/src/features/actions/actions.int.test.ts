import {
  MESSAGES,
  type TActionCounts,
  type TActionFilters,
  type TPastActionsPage,
  type TRecommendedAction,
  type TRecommendedActionsPage,
  untargetedScheme,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, deliverPending, type TestContext } from '../../../test/harness.ts';
import { recordInteractions, upsertPeopleByEmail } from '../../graph/evidence.repo.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { googleAccount } from '../sources/google/google-account.ts';
import { googleAccountDeps } from '../sources/google/google-deps.ts';
import { syncGoogleAccount } from '../sources/google/google-sync.ts';
import { explainLatestRun, recommendActions, workspacesDueForRecommendations } from './engine.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
const meeting = (id: string, attendees: string[], days: number) => ({
  kind: 'meeting' as const,
  externalId: id,
  occurredAt: daysAgo(days),
  participants: attendees.map((email) => ({ email, name: null, role: 'attendee' as const })),
});

/**
 * The graph fixture's network plus: two prospects at the admin's account only the colleague met
 * (intros to ask), a 'Head of Growth' elsewhere the colleague met (for a user with only a persona),
 * a persona user, a viewer. The target company is an account assigned to the admin.
 */
async function actionsWorkspace() {
  const network = await buildNetwork(ctx);
  const { ws, admin, colleague, people } = network;
  const personaUser = await ctx.addUser(ws, 'member', admin.domain);
  const viewer = await ctx.addUser(ws, 'viewer', admin.domain);
  const target = people.met.split('@')[1] ?? '';
  const extra = {
    introOnly: `intro-only@${target}`,
    introTwo: `intro-two@${target}`,
    growth: `growth@${ctx.uniqueDomain()}`,
  };
  await ctx.database.inWorkspace(ws, async (tx) => {
    await upsertPeopleByEmail(
      tx,
      ws,
      Object.values(extra).map((email) => ({ email, name: null })),
    );
    await recordInteractions(tx, ws, admin.me.id, [
      meeting('x1', [colleague.email, extra.introOnly], 5),
      meeting('x2', [colleague.email, extra.introTwo], 6),
      meeting('x3', [colleague.email, extra.growth], 7),
    ]);
    await tx.execute(sql`update people set title = 'Head of Growth'
                          where workspace_id = ${ws} and email in (${extra.growth}, ${people.linkedinOnly})`);
    await tx.execute(sql`
      with account as (
        insert into accounts (workspace_id, company_id)
        select ${ws}::uuid, company_id from people where workspace_id = ${ws} and email = ${people.met}
        returning id
      )
      insert into account_assignees (workspace_id, account_id, user_id) select ${ws}::uuid, id, ${admin.me.id}::uuid from account`);
    await tx.execute(sql`
      insert into personas (workspace_id, user_id, name, job_departments, seniorities, custom_job_titles)
      select ${ws}::uuid, id, 'Growth', '{}', '{}', '{Head of Growth}' from users
       where workspace_id = ${ws} and email = ${personaUser.email}`);
  });
  await recomputeDirty(ctx.database, ws);
  const userId = async (email: string) => {
    const result = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ id: string }>(sql`select id from users where workspace_id = ${ws} and email = ${email}`),
    );
    return result.rows[0]?.id ?? '';
  };
  return {
    ...network,
    people: { ...people, ...extra },
    personaUser: { ...personaUser, id: await userId(personaUser.email) },
    viewer: { ...viewer, id: await userId(viewer.email) },
    colleagueUser: { ...colleague, id: await userId(colleague.email) },
    prospectId: async (email: string) => {
      const result = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute<{ id: string }>(sql`select id from people where workspace_id = ${ws} and email = ${email}`),
      );
      return result.rows[0]?.id ?? '';
    },
  };
}
type Workspace = Awaited<ReturnType<typeof actionsWorkspace>>;

const post = (token: string, url: string, payload: object = { filters: [] }) =>
  ctx.app.inject({ method: 'POST', url: `/api${url}`, headers: bearer(token), payload });
const get = (token: string, url: string) => ctx.app.inject({ url: `/api${url}`, headers: bearer(token) });

async function recommended(token: string, filters: unknown[] = []) {
  const response = await post(token, '/actions/query/recommended-actions?page=1&pageSize=30', { filters });
  expect(response.statusCode).toBe(200);
  return response.json<TRecommendedActionsPage>();
}
/** The tabs' counts (the first recommendations' flag is first-recommendations.int.test.ts's subject). */
const counts = async (token: string) => {
  const { recommended, past, pending, skipped } = (await get(token, '/actions/query/counts')).json<TActionCounts>();
  return { recommended, past, pending, skipped };
};
const tab = async (token: string, url: string) => {
  const response = await post(token, `${url}?page=1&pageSize=30`);
  expect(response.statusCode).toBe(200);
  return response.json<TPastActionsPage>();
};

/** The recommended action about the prospect with this e-mail, in the user's list. */
async function actionAbout(w: Workspace, token: string, email: string): Promise<TRecommendedAction> {
  const id = await w.prospectId(email);
  const action = (await recommended(token)).rows.find((row) => row.contact.id === id);
  if (!action) throw new Error(`no action about ${email}`);
  return action;
}

describe('the daily recommendations', () => {
  it('give a user with accounts, a user with only personas and a viewer what is theirs, and say why', async () => {
    const w = await actionsWorkspace();
    const run = await recommendActions(ctx.database, w.ws);
    const byEmail = Object.fromEntries(run.users.map((user) => [user.email, user]));
    expect(byEmail[w.admin.email]).toMatchObject({ kept: 6, alreadyToday: 0 });
    expect(byEmail[w.personaUser.email]).toMatchObject({ kept: 1 });
    expect(byEmail[w.colleague.email]).toMatchObject({ kept: 0, dropped: 0 });
    expect(byEmail[w.viewer.email]).toMatchObject({ kept: 0, note: 'a viewer acts on no recommendations' });

    // The admin: prospects at their account, warm before cold; those they know or who were clients
    // are messaged directly, the others asked of the colleague who met them.
    const page = await recommended(w.admin.token);
    expect(page.pagination).toEqual({ page: 1, pageSize: 30, totalCount: 6, totalPages: 1 });
    const byProspect = new Map(page.rows.map((row) => [row.contact.id, row]));
    const of = async (email: string) => byProspect.get(await w.prospectId(email));
    expect(await of(w.people.pastClient)).toMatchObject({
      actionType: 'DIRECT_MESSAGE',
      connector: null,
      source: null,
      prospect: { email: w.people.pastClient },
      signals: [
        expect.objectContaining({
          type: 'PAST_CLIENT',
          metadata: expect.objectContaining({ pastCompanyName: 'Oldco' }),
        }),
      ],
    });
    expect(await of(w.people.met)).toMatchObject({ actionType: 'DIRECT_MESSAGE' });
    const intro = await of(w.people.introOnly);
    expect(intro).toMatchObject({
      actionType: 'ask-intro',
      source: 'connector',
      connector: { fullName: 'Test member', connectionSources: ['GOOGLE_MEETING'], isCurrentUser: false },
      clientConnector: null,
      introTarget: { id: await w.prospectId(w.people.introOnly) },
      prospect: null,
      recommendationUsers: [{ id: w.admin.me.id }],
    });
    expect(page.rows.at(-1)?.contact.id).toBe(await w.prospectId(w.people.linkedinOnly));
    expect(page.rows.at(-1)?.signals.map((signal) => signal.type)).toEqual(['CONNECTED_WITH_COLLEAGUE']);
    expect(await of(w.people.oneWay)).toBeUndefined();

    // The persona user: the Head of Growth elsewhere; the other one is at the admin's account.
    const persona = await recommended(w.personaUser.token);
    expect(persona.rows.map((row) => row.contact.id)).toEqual([await w.prospectId(w.people.growth)]);
    expect(persona.rows[0]).toMatchObject({ actionType: 'ask-intro', recommendationUsers: [{ id: w.personaUser.id }] });
    expect((await recommended(w.viewer.token)).rows).toEqual([]);

    // Why, candidate by candidate.
    const adminLog = await explainLatestRun(ctx.database, w.ws, w.admin.me.id);
    expect(adminLog.find((entry) => entry.outcome === 'dropped')).toMatchObject({
      reason: 'no signal to justify an action',
    });
    expect(adminLog.filter((entry) => entry.outcome === 'kept')).toHaveLength(6);
    // Each action says why in the run's own words: what `cli recommend --explain` prints for it.
    expect(page.rows.map((row) => row.why).sort()).toEqual(
      adminLog
        .filter((entry) => entry.outcome === 'kept')
        .map((entry) => entry.reason)
        .sort(),
    );
    const personaLog = await explainLatestRun(ctx.database, w.ws, w.personaUser.id);
    expect(personaLog.map((entry) => entry.reason)).toContain('account assigned to teammates');
    expect(await counts(w.admin.token)).toEqual({ recommended: 6, past: 0, pending: 0, skipped: 0 });
  });

  it('creates nothing twice the same day, and brings back the next day what nobody acted on', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const rows = async () =>
      (
        await ctx.database.inWorkspace(w.ws, (tx) =>
          tx.execute<{ n: number }>(sql`select count(*)::int as n from actions where workspace_id = ${w.ws}`),
        )
      ).rows[0]?.n;
    const before = await rows();
    const again = await recommendActions(ctx.database, w.ws);
    expect(again.users.find((user) => user.email === w.admin.email)).toMatchObject({ kept: 0, alreadyToday: 6 });
    expect(await rows()).toBe(before);

    // The admin skips one; then it is tomorrow, with room for two actions a day.
    const skipped = await actionAbout(w, w.admin.token, w.people.met);
    expect((await post(w.admin.token, '/actions/command/skip-action', { actionId: skipped.actionId })).statusCode).toBe(
      200,
    );
    await ctx.database.inWorkspace(w.ws, async (tx) => {
      await tx.execute(sql`update actions set recommended_on = recommended_on - 1 where workspace_id = ${w.ws}`);
      await tx.execute(sql`
        update workspaces set daily_actions_per_user = 2, recommendations_ran_on = null where id = ${w.ws}`);
    });
    await recommendActions(ctx.database, w.ws);
    expect(await rows()).toBe(before);
    expect(await counts(w.admin.token)).toEqual({ recommended: 2, past: 0, pending: 3, skipped: 1 });
    const today = await recommended(w.admin.token);
    expect(today.rows.map((row) => row.contact.id)).not.toContain(await w.prospectId(w.people.met));
    const log = await explainLatestRun(ctx.database, w.ws, w.admin.me.id);
    // The past client comes first (within their temperature); the skipped prospect is passed over.
    expect(log).toContainEqual(expect.objectContaining({ outcome: 'dropped', reason: 'skipped in the last 30 days' }));
    const pending = await tab(w.admin.token, '/actions/query/pending-actions');
    expect(pending.rows.map((row) => [row.status, row.owner])).toEqual([
      ['pending', null],
      ['pending', null],
      ['pending', null],
    ]);
  });

  it('never plans more asks of a connector than the weekly cap allows', async () => {
    const w = await actionsWorkspace();
    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`update workspaces set graph_settings = '{"weeklyIntroCap": 1}' where id = ${w.ws}`),
    );
    await recommendActions(ctx.database, w.ws);
    const asks = (await recommended(w.admin.token)).rows.filter((row) => row.actionType === 'ask-intro');
    expect(asks).toHaveLength(1);
    const adminLog = await explainLatestRun(ctx.database, w.ws, w.admin.me.id);
    expect(adminLog.map((entry) => entry.reason)).toContain('every connector is at the weekly intro cap (1)');
    // The persona user's only candidate needs the same colleague.
    expect((await recommended(w.personaUser.token)).rows).toEqual([]);
  });
});

describe('exclusions', () => {
  it('leave out CRM clients’ companies and the competitors of the user’s targeting scheme', async () => {
    const w = await actionsWorkspace();
    const target = w.people.met.split('@')[1] ?? '';
    const growthDomain = w.people.growth.split('@')[1] ?? '';
    const scheme = { ...untargetedScheme(), competitorDomainsToExclude: [target] };
    await ctx.database.inWorkspace(w.ws, async (tx) => {
      await tx.execute(sql`
        insert into crm_clients (workspace_id, company_id, company_name, company_domain)
        select ${w.ws}::uuid, id, name, domain from companies where workspace_id = ${w.ws} and domain = ${growthDomain}`);
      await tx.execute(sql`
        insert into targeting_schemes (workspace_id, user_id, scheme)
        values (${w.ws}, ${w.admin.me.id}, ${JSON.stringify(scheme)}::jsonb)`);
    });
    await recommendActions(ctx.database, w.ws);
    expect((await recommended(w.personaUser.token)).rows).toEqual([]);
    const personaLog = await explainLatestRun(ctx.database, w.ws, w.personaUser.id);
    expect(personaLog.find((entry) => entry.prospect.startsWith('growth'))).toMatchObject({
      outcome: 'dropped',
      reason: 'CRM client',
    });
    // The admin's own account is at the competitor's domain: nothing there is recommended.
    const adminLog = await explainLatestRun(ctx.database, w.ws, w.admin.me.id);
    const atTarget = adminLog.filter((entry) => entry.company?.toLowerCase() === target.split('.')[0]);
    expect(atTarget.length).toBeGreaterThan(0);
    expect(new Set(atTarget.map((entry) => entry.reason))).toEqual(
      new Set(['competitor excluded by the targeting scheme']),
    );
    expect((await recommended(w.admin.token)).rows.map((row) => row.company?.companyName.toLowerCase())).not.toContain(
      target.split('.')[0],
    );
  });
});

describe('a team with only mailboxes and a targeting scheme', () => {
  it('gets the prospects whose company facts are unknown, after the known matches, each saying why', async () => {
    const w = await actionsWorkspace();
    // Sizes, countries and departments a mailbox never tells: before, this matched nobody.
    const scheme = {
      ...untargetedScheme(),
      countries: ['FR', 'US'],
      companySize: ['1 - 10', '11 - 50'],
      companyType: ['BtoB'],
      jobDepartments: ['Sales'],
    };
    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`
        insert into targeting_schemes (workspace_id, user_id, scheme)
        values (${w.ws}, ${w.personaUser.id}, ${JSON.stringify(scheme)}::jsonb)`),
    );
    const run = await recommendActions(ctx.database, w.ws, { userId: w.personaUser.id });
    expect(run.users[0]?.kept).toBeGreaterThan(1);
    const log = await explainLatestRun(ctx.database, w.ws, w.personaUser.id);
    const kept = log.filter((entry) => entry.outcome === 'kept');
    // The persona's Head of Growth matches on what is known: first, with no doubt in its reason.
    expect(kept[0]?.prospect.startsWith('growth')).toBe(true);
    expect(kept[0]?.reason).not.toContain('unknown');
    expect(kept.slice(1).map((entry) => entry.reason)).toEqual(
      kept.slice(1).map(() => expect.stringContaining('may match your profile: country, company size')),
    );
  });
});

describe('the schedule', () => {
  it('finds a workspace due once its own day has reached the morning, and not again that day', async () => {
    const w = await actionsWorkspace();
    // A zone where it is now noon: due (Etc/GMT-N is N hours east of UTC).
    const offset = 12 - new Date().getUTCHours();
    const zone = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`update workspaces set time_zone = ${zone} where id = ${w.ws}`),
    );
    expect(await workspacesDueForRecommendations(ctx.database)).toContain(w.ws);
    const run = await recommendActions(ctx.database, w.ws);
    expect(await workspacesDueForRecommendations(ctx.database)).not.toContain(w.ws);
    const { rows } = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ day: string }>(sql`select (now() at time zone ${zone})::date::text as day`),
    );
    expect(run.day).toBe(rows[0]?.day);
  });
});

describe('acting on an action', () => {
  it('is for the users it is recommended to; the target tab’s count rises', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const action = await actionAbout(w, w.admin.token, w.people.met);
    const other = await actionAbout(w, w.admin.token, w.people.viaAlly);

    const refused = await post(w.colleague.token, '/actions/command/skip-action', { actionId: action.actionId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the users this action is recommended to can act on it.',
    });
    expect(
      (await post(w.viewer.token, '/actions/command/set-action-complete', { actionId: action.actionId })).statusCode,
    ).toBe(403);
    const growth = await actionAbout(w, w.personaUser.token, w.people.growth);
    expect(
      (await post(w.admin.token, '/actions/command/set-action-complete', { actionId: growth.actionId })).statusCode,
    ).toBe(403);

    expect(await post(w.admin.token, '/actions/command/skip-action', { actionId: action.actionId })).toMatchObject({
      statusCode: 200,
    });
    expect(await counts(w.admin.token)).toMatchObject({ recommended: 5, skipped: 1, past: 0 });
    const completed = await post(w.admin.token, '/actions/command/set-action-complete', { actionId: other.actionId });
    expect(completed.json()).toEqual({ actionId: other.actionId, status: 'completed' });
    expect(await counts(w.admin.token)).toEqual({ recommended: 4, past: 1, pending: 0, skipped: 1 });
    expect((await post(w.admin.token, '/actions/command/skip-action', { actionId: action.actionId })).statusCode).toBe(
      409,
    );
    expect(
      (await post(w.personaUser.token, '/actions/command/set-action-complete', { actionId: growth.actionId }))
        .statusCode,
    ).toBe(200);

    // Past actions: the admin sees the team's, a member their own.
    const teamPast = await tab(w.admin.token, '/actions/query');
    expect(teamPast.rows.map((row) => row.owner?.fullName).sort()).toEqual(['Ada Admin', 'Test member']);
    const ownPast = await tab(w.personaUser.token, '/actions/query');
    expect(ownPast.rows.map((row) => row.contact.id)).toEqual([await w.prospectId(w.people.growth)]);
    expect(ownPast.rows[0]).toMatchObject({
      status: 'completed',
      replied: false,
      connectorUser: { fullName: 'Test member' },
    });
    expect((await tab(w.colleague.token, '/actions/query')).rows).toEqual([]);
    const skippedTab = await tab(w.admin.token, '/actions/query/skipped-actions');
    expect(skippedTab.rows).toMatchObject([
      { actionId: action.actionId, status: 'skipped', owner: { id: w.admin.me.id } },
    ]);

    // Filters of the past tabs, and their use.
    const filtersResponse = await get(w.admin.token, '/actions/query/filters');
    expect(filtersResponse.statusCode, filtersResponse.body).toBe(200);
    const filters = filtersResponse.json<TActionFilters>();
    const users = filters.filters.find((filter) => filter.filterName === 'user');
    expect(users?.optionValues.map((option) => [option.optionName, option.count]).sort()).toEqual([
      ['Ada Admin', 2],
      ['Test member', 1],
    ]);
    const mine = await post(w.admin.token, '/actions/query?page=1&pageSize=30', {
      filters: [{ filterName: 'user', values: [w.personaUser.id] }],
    });
    expect(mine.json<TPastActionsPage>().pagination.totalCount).toBe(1);
  });

  it('shows nothing of another workspace, and nothing to the restricted role', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const action = await actionAbout(w, w.admin.token, w.people.met);
    const stranger = await ctx.registerAdmin();
    expect((await recommended(stranger.token)).rows).toEqual([]);
    expect(await counts(stranger.token)).toEqual({ recommended: 0, past: 0, pending: 0, skipped: 0 });
    expect((await post(stranger.token, '/actions/command/skip-action', { actionId: action.actionId })).statusCode).toBe(
      404,
    );

    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`update users set role = 'restricted' where workspace_id = ${w.ws} and id = ${w.personaUser.id}`),
    );
    expect((await recommended(w.personaUser.token)).pagination.totalCount).toBe(0);
    expect(await counts(w.personaUser.token)).toEqual({ recommended: 0, past: 0, pending: 0, skipped: 0 });
    expect((await get(w.personaUser.token, '/actions/query/filters')).json()).toEqual({ filters: [] });
    const growth = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ id: string }>(
        sql`select id from actions where workspace_id = ${w.ws} and ${w.personaUser.id} = any(recommendation_users)`,
      ),
    );
    const skip = await post(w.personaUser.token, '/actions/command/skip-action', { actionId: growth.rows[0]?.id });
    expect(skip.statusCode).toBe(403);
  });

  it('lets admins filter today’s recommendations, with option search', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const all = (await get(w.admin.token, '/actions/query/recommended-actions-filters')).json<TActionFilters>();
    expect(all.filters.map((filter) => filter.filterName)).toEqual(['user', 'company', 'signal', 'actionType']);
    const users = all.filters.find((filter) => filter.filterName === 'user')?.optionValues ?? [];
    expect(users.map((option) => [option.optionName, option.count]).sort()).toEqual([
      ['Ada Admin', 6],
      ['Test member', 1],
    ]);
    const types = all.filters.find((filter) => filter.filterName === 'actionType')?.optionValues ?? [];
    expect(types.map((option) => [option.optionName, option.count]).sort()).toEqual([
      ['Ask intro', 3],
      ['Direct message', 4],
    ]);

    const search = await get(
      w.admin.token,
      '/actions/query/recommended-actions-filters?filterField=signal&searchTerm=past',
    );
    expect(search.json<TActionFilters>().filters).toEqual([
      {
        filterName: 'signal',
        optionValues: [
          { optionName: 'Past client', optionValue: 'PAST_CLIENT', count: 1, avatar: null, companyLogo: null },
        ],
      },
    ]);
    // The persona user's, seen by the admin; a member's own filters never show teammates.
    const theirs = await recommended(w.admin.token, [{ filterName: 'user', values: [w.personaUser.id] }]);
    expect(theirs.rows.map((row) => row.contact.id)).toEqual([await w.prospectId(w.people.growth)]);
    const direct = await recommended(w.admin.token, [{ filterName: 'actionType', values: ['DIRECT_MESSAGE'] }]);
    expect(direct.pagination.totalCount).toBe(4);
    const memberFilters = (
      await get(w.personaUser.token, '/actions/query/recommended-actions-filters')
    ).json<TActionFilters>();
    expect(memberFilters.filters.map((filter) => filter.filterName)).toEqual(['company', 'signal', 'actionType']);
    const ignored = await recommended(w.personaUser.token, [{ filterName: 'user', values: [w.admin.me.id] }]);
    expect(ignored.rows.map((row) => row.contact.id)).toEqual([await w.prospectId(w.people.growth)]);
  });
});

describe('the action panels’ sends', () => {
  it('e-mail the intro request and the direct message from the user’s Google account, and move both to past', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const direct = await actionAbout(w, w.admin.token, w.people.pastClient);
    const intro = await actionAbout(w, w.admin.token, w.people.introOnly);
    const directBody = {
      actionId: direct.actionId,
      email: w.people.pastClient,
      prospectContactId: direct.contact.id,
      subject: 'Congratulations on the move',
      message: 'Hi! Congratulations on the move.',
    };
    const withoutGoogle = await post(w.admin.token, '/contacts/command/send-direct-message-action-email', directBody);
    expect(withoutGoogle.statusCode).toBe(400);
    expect(withoutGoogle.json()).toEqual({ code: 'NOT_CONNECTED', message: MESSAGES.mustConnectGoogle });

    // Engaging is for the users the action is for, like skipping and completing.
    const notTheirs = await post(w.colleague.token, '/contacts/command/send-direct-message-action-email', directBody);
    expect(notTheirs.statusCode).toBe(403);

    await ctx.connectGoogle(w.admin.token, w.admin.email);
    expect(
      (await post(w.admin.token, '/contacts/command/send-direct-message-action-email', directBody)).json(),
    ).toEqual({ actionId: direct.actionId, status: 'completed' });
    const messagedAgain = await post(w.admin.token, '/contacts/command/send-direct-message-action-email', directBody);
    expect(messagedAgain.statusCode).toBe(409);
    expect(messagedAgain.json()).toEqual({
      code: 'ALREADY_DONE',
      message: 'This action was already completed or skipped.',
    });
    const connectorId = intro.connector?.id ?? '';
    const introBody = {
      actionId: intro.actionId,
      connectorId,
      prospectContactId: intro.contact.id,
      message: 'Hi Test, would you introduce me?',
      source: 'connector',
    };
    const wrongType = await post(w.admin.token, '/contacts/command/send-ask-intro-action-email', {
      ...introBody,
      actionId: (await actionAbout(w, w.admin.token, w.people.met)).actionId,
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'This action is not an intro request' });
    expect((await post(w.admin.token, '/contacts/command/send-ask-intro-action-email', introBody)).statusCode).toBe(
      200,
    );

    await deliverPending(ctx, w.ws);
    const toProspect = ctx.google.sentMail({ to: w.people.pastClient });
    expect(toProspect).toHaveLength(1);
    expect(toProspect[0]?.text).toContain('Congratulations on the move.');
    expect(toProspect[0]?.subject).toBe('Congratulations on the move');
    const toColleague = ctx.google.sentMail({ to: w.colleague.email });
    expect(toColleague).toHaveLength(1);
    expect(toColleague[0]?.subject).toContain('Intro to');
    expect(toColleague[0]?.text).toContain('would you introduce me?');

    expect(await counts(w.admin.token)).toEqual({ recommended: 4, past: 2, pending: 0, skipped: 0 });
    const past = await tab(w.admin.token, '/actions/query');
    expect(past.rows.map((row) => [row.actionType, row.warmIntroMessage])).toEqual(
      expect.arrayContaining([
        ['DIRECT_MESSAGE', 'Hi! Congratulations on the move.'],
        ['ask-intro', 'Hi Test, would you introduce me?'],
      ]),
    );
    // The intro counts against the colleague's weekly cap, like one sent from the network page.
    const modal = await get(
      w.admin.token,
      `/contacts/query/warm-intro-modal-data?source=connector&targetId=${intro.contact.id}&connectorId=${connectorId}`,
    );
    expect(modal.json().introRequestsLast7Days).toBe(1);
  });
});

describe('the outcome loop', () => {
  it('marks a sent intro request replied once the next Google sync sees the answer in its thread', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const intro = await actionAbout(w, w.admin.token, w.people.introOnly);
    const google = googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey);
    const admin = { workspaceId: w.ws, userId: w.admin.me.id };
    await ctx.connectGoogle(w.admin.token, w.admin.email);
    await ctx.connectGoogle(w.colleague.token, w.colleague.email);
    await syncGoogleAccount(google, admin);

    const sent = await post(w.admin.token, '/contacts/command/send-ask-intro-action-email', {
      actionId: intro.actionId,
      connectorId: intro.connector?.id ?? '',
      prospectContactId: intro.contact.id,
      message: 'Hi Test, would you introduce me?',
      source: 'connector',
    });
    expect(sent.statusCode).toBe(200);
    await deliverPending(ctx, w.ws);
    const replied = async () => (await tab(w.admin.token, '/actions/query')).rows[0];
    expect(await replied()).toMatchObject({ actionId: intro.actionId, replied: false, repliedAt: null });

    // The colleague answers from their own mailbox, in reply to the request.
    const { rows } = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ message_id: string }>(sql`
        select o.message ->> 'messageId' as message_id from actions a join outbox o on o.workspace_id = a.workspace_id and o.id = a.outbox_id
         where a.workspace_id = ${w.ws} and a.id = ${intro.actionId}`),
    );
    const messageId = rows[0]?.message_id ?? '';
    const account = await googleAccount(google, w.ws, w.colleagueUser.id);
    const answer = await createTransport({ streamTransport: true, buffer: true, newline: 'windows' }).sendMail({
      from: w.colleague.email,
      to: w.admin.email,
      subject: 'Re: Intro',
      text: 'Happy to!',
      inReplyTo: messageId,
      references: [messageId],
    });
    await google.google
      .gmail(account.auth)
      .users.messages.send({ userId: 'me', requestBody: { raw: answer.message.toString('base64url') } });

    await syncGoogleAccount(google, admin);
    expect(await replied()).toMatchObject({ actionId: intro.actionId, replied: true, repliedAt: expect.any(String) });
    // Two whole-mailbox syncs: 4 s alone, 22 s beside the other integration files, past 120 s when the
    // web project's files share the two cores too.
  }, 300_000);
});

describe('the thank-you note', () => {
  it('lets the owner of an answered intro request thank the connector once, by e-mail from their Google account', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const intro = await actionAbout(w, w.admin.token, w.people.introOnly);
    await ctx.connectGoogle(w.admin.token, w.admin.email);
    const sent = await post(w.admin.token, '/contacts/command/send-ask-intro-action-email', {
      actionId: intro.actionId,
      connectorId: intro.connector?.id ?? '',
      prospectContactId: intro.contact.id,
      message: 'Hi Test, would you introduce me?',
      source: 'connector',
    });
    expect(sent.statusCode).toBe(200);
    const thank = (token: string, message = 'Hi Test, thank you for introducing me!') =>
      post(token, '/actions/command/send-thank-you', { actionId: intro.actionId, message });

    // Not before anybody answered.
    const early = await thank(w.admin.token);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ code: 'NO_REPLY_YET', message: 'Nobody has replied to this intro request yet.' });
    // The answer as the Google sync records it (the outcome-loop test covers the sync itself).
    await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute(sql`update actions set replied_at = now() where workspace_id = ${w.ws} and id = ${intro.actionId}`),
    );

    // Only the user who sent the request thanks for it; another workspace does not even find it.
    const notOwner = await thank(w.personaUser.token);
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the user who sent this intro request can send the thank-you.',
    });
    expect((await thank(w.viewer.token)).statusCode).toBe(403);
    const foreign = await thank((await ctx.registerAdmin()).token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'NOT_FOUND', message: 'Action not found' });

    const thanked = await thank(w.admin.token);
    expect(thanked.statusCode).toBe(200);
    expect(thanked.json()).toEqual({ actionId: intro.actionId, thankedAt: expect.any(String) });
    const again = await thank(w.admin.token, 'Thanks again!');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'ALREADY_DONE', message: 'You already thanked Test member for this intro.' });
    const past = (await tab(w.admin.token, '/actions/query')).rows.find((row) => row.actionId === intro.actionId);
    expect(past).toMatchObject({ replied: true, thankedAt: thanked.json().thankedAt });

    await deliverPending(ctx, w.ws);
    const toColleague = ctx.google.sentMail({ to: w.colleague.email });
    expect(toColleague).toHaveLength(2);
    const note = toColleague.find((mail) => mail.subject === `Thank you for the intro to ${intro.contact.fullName}`);
    expect(note?.text).toContain('Hi Test, thank you for introducing me!');
  });

  it('is refused for a direct message, and for a connector without an e-mail address', async () => {
    const w = await actionsWorkspace();
    await ctx.connectGoogle(w.admin.token, w.admin.email);
    const prospectId = await w.prospectId(w.people.introOnly);
    const ids = await ctx.database.inWorkspace(w.ws, async (tx) => {
      const person = await tx.execute<{ id: string }>(sql`
        insert into people (workspace_id, full_name) values (${w.ws}, 'Nomail Ally') returning id`);
      const action = (type: string, connectorId: string | null) =>
        tx.execute<{ id: string }>(sql`
          insert into actions (workspace_id, type, status, origin, prospect_id, connector_id, owner_user_id,
                               recommendation_users, acted_at, replied_at)
          values (${w.ws}, ${type}, 'completed', 'network', ${prospectId}, ${connectorId}, ${w.admin.me.id},
                  array[${w.admin.me.id}]::uuid[], now(), now())
          returning id`);
      return {
        noEmail: (await action('ask-intro', person.rows[0]?.id ?? null)).rows[0]?.id,
        direct: (await action('DIRECT_MESSAGE', null)).rows[0]?.id,
      };
    });
    const noEmail = await post(w.admin.token, '/actions/command/send-thank-you', {
      actionId: ids.noEmail,
      message: 'Thank you!',
    });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json()).toEqual({
      code: 'MISSING_EMAIL',
      message: 'Nomail Ally has no e-mail address to send the thank-you to.',
    });
    const direct = await post(w.admin.token, '/actions/command/send-thank-you', {
      actionId: ids.direct,
      message: 'Thank you!',
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Only a sent intro request can be followed by a thank-you.',
    });
    const blank = await post(w.admin.token, '/actions/command/send-thank-you', { actionId: ids.noEmail, message: ' ' });
    expect(blank.statusCode).toBe(400);
    // Nothing was recorded: the refused sends leave the action as it was.
    const rows = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ n: number }>(
        sql`select count(*)::int as n from actions where workspace_id = ${w.ws} and thanked_at is not null`,
      ),
    );
    expect(rows.rows[0]?.n).toBe(0);
  });
});

describe('a prospect just contacted', () => {
  const openActions = async (w: Workspace, prospectEmail: string) => {
    const prospectId = await w.prospectId(prospectEmail);
    const result = await ctx.database.inWorkspace(w.ws, (tx) =>
      tx.execute<{ status: string; owner_user_id: string | null; superseded_by: string | null }>(sql`
        select status, owner_user_id, superseded_by from actions
         where workspace_id = ${w.ws} and prospect_id = ${prospectId} and ${w.personaUser.id} = any(recommendation_users)`),
    );
    return result.rows;
  };

  it('leaves every user’s recommendations when a warm intro goes out from the network page', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const growth = await actionAbout(w, w.personaUser.token, w.people.growth);
    expect(await counts(w.personaUser.token)).toEqual({ recommended: 1, past: 0, pending: 0, skipped: 0 });
    await ctx.connectGoogle(w.admin.token, w.admin.email);

    // The admin asks the colleague for the same prospect, from the network page.
    const sent = await post(w.admin.token, '/contacts/command/send-warm-intro-email', [
      {
        connectorId: growth.connector?.id ?? '',
        prospectContactId: growth.contact.id,
        connectorMessage: 'Hi Test, would you introduce me?',
        introTargetMessage: '',
        source: 'connector',
      },
    ]);
    expect(sent.statusCode).toBe(200);

    expect((await recommended(w.personaUser.token)).rows).toEqual([]);
    expect(await counts(w.personaUser.token)).toEqual({ recommended: 0, past: 0, pending: 0, skipped: 0 });
    const [closed] = await openActions(w, w.people.growth);
    expect(closed).toMatchObject({
      status: 'completed',
      owner_user_id: w.admin.me.id,
      superseded_by: expect.any(String),
    });
    // The admin's past actions hold the intro they sent, once; the connector was asked once.
    const past = await tab(w.admin.token, '/actions/query');
    expect(past.rows.filter((row) => row.contact.id === growth.contact.id)).toHaveLength(1);
    const modal = await get(
      w.admin.token,
      `/contacts/query/warm-intro-modal-data?source=connector&targetId=${growth.contact.id}&connectorId=${growth.connector?.id}`,
    );
    expect(modal.json().introRequestsLast7Days).toBe(1);
  });

  it('leaves other users’ recommended and pending actions when an action panel sends', async () => {
    const w = await actionsWorkspace();
    await recommendActions(ctx.database, w.ws);
    const intro = await actionAbout(w, w.admin.token, w.people.introOnly);
    const direct = await actionAbout(w, w.admin.token, w.people.pastClient);
    // The persona user has both prospects too: one still pending from yesterday, one recommended today.
    await ctx.database.inWorkspace(w.ws, async (tx) => {
      for (const [action, status] of [
        [intro, 'pending'],
        [direct, 'recommended'],
      ] as const) {
        await tx.execute(sql`
          insert into actions (workspace_id, type, status, origin, prospect_id, connector_id, recommendation_users,
                               recommended_on)
          values (${w.ws}, ${action.actionType}, ${status}, 'recommendation', ${action.contact.id},
                  ${action.connector?.id ?? null}, array[${w.personaUser.id}]::uuid[], ${action.recommendedOn}::date)`);
      }
    });
    expect(await counts(w.personaUser.token)).toEqual({ recommended: 2, past: 0, pending: 1, skipped: 0 });
    await ctx.connectGoogle(w.admin.token, w.admin.email);

    const ask = await post(w.admin.token, '/contacts/command/send-ask-intro-action-email', {
      actionId: intro.actionId,
      connectorId: intro.connector?.id ?? '',
      prospectContactId: intro.contact.id,
      message: 'Hi Test, would you introduce me?',
      source: 'connector',
    });
    expect(ask.statusCode).toBe(200);
    expect(await openActions(w, w.people.introOnly)).toEqual([
      { status: 'completed', owner_user_id: w.admin.me.id, superseded_by: intro.actionId },
    ]);
    const message = await post(w.admin.token, '/contacts/command/send-direct-message-action-email', {
      actionId: direct.actionId,
      email: w.people.pastClient,
      prospectContactId: direct.contact.id,
      message: 'Hi! Congratulations on the move.',
    });
    expect(message.statusCode).toBe(200);
    expect(await openActions(w, w.people.pastClient)).toEqual([
      { status: 'completed', owner_user_id: w.admin.me.id, superseded_by: direct.actionId },
    ]);

    // The persona user keeps only their own prospect; the admin's counts move by the two sends alone.
    expect((await recommended(w.personaUser.token)).rows.map((row) => row.contact.id)).toEqual([
      await w.prospectId(w.people.growth),
    ]);
    expect(await counts(w.personaUser.token)).toEqual({ recommended: 1, past: 0, pending: 0, skipped: 0 });
    expect(await counts(w.admin.token)).toEqual({ recommended: 4, past: 2, pending: 0, skipped: 0 });
    // A superseded ask asked nobody: the colleague's weekly count is the one request sent.
    const modal = await get(
      w.admin.token,
      `/contacts/query/warm-intro-modal-data?source=connector&targetId=${intro.contact.id}&connectorId=${intro.connector?.id}`,
    );
    expect(modal.json().introRequestsLast7Days).toBe(1);
  });
});
