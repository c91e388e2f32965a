import type { ActionFilterName, TActionFilterItem } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { executeInWrittenJoinOrder } from '../../db/written-join-order.ts';
import { engagementCodeSql } from '../../graph/engagement.ts';
import {
  clientMoved,
  isConnectorClient,
  isCrmCompany,
  membersCte,
  rowsSeenBy,
  rowsViewer,
} from '../../graph/graph.sql.ts';
import { notPastClientSql, temperatureRankSql } from '../../graph/signals.ts';
import type { KeptAction } from './recommend.ts';

// The SQL of the actions: the engine's candidates and writes, the run log, the lists and their
// filters, and an action's life (lock, close, supersede), which intros use too when a send acts on
// an action. Every statement runs inside `inWorkspace`; the conditions repeat the workspace for the
// indexes' sake.

/** The weekly cap counts the intro requests a person received from anyone in the workspace over this window. */
export const INTRO_CAP_WINDOW_DAYS = 7;

/**
 * Intro requests each of these people received in the cap's window (sent or completed asks; not the
 * open asks another send closed, which asked nobody).
 */
export async function introRequestsReceived(tx: Tx, workspaceId: string, connectorIds: readonly string[]) {
  const counts = new Map<string, number>();
  if (connectorIds.length === 0) return counts;
  const result = await tx.execute<{ connector_id: string; count: number }>(sql`
    select connector_id, count(*)::int as count from actions
     where workspace_id = ${workspaceId} and type = 'ask-intro' and connector_id = any(${sql.param([...connectorIds])}::uuid[])
       and status in ('pending', 'completed') and superseded_by is null
       and acted_at > now() - make_interval(days => ${INTRO_CAP_WINDOW_DAYS})
     group by connector_id`);
  for (const row of result.rows) counts.set(row.connector_id, row.count);
  return counts;
}

/** Asks the engine already planned today through these people (still open): they count against the cap too. */
export async function openAsksToday(tx: Tx, workspaceId: string, day: string, connectorIds: readonly string[]) {
  const counts = new Map<string, number>();
  if (connectorIds.length === 0) return counts;
  const result = await tx.execute<{ connector_id: string; count: number }>(sql`
    select connector_id, count(*)::int as count from actions
     where workspace_id = ${workspaceId} and status = 'recommended' and recommended_on = ${day}::date
       and type = 'ask-intro' and connector_id = any(${sql.param([...connectorIds])}::uuid[])
     group by connector_id`);
  for (const row of result.rows) counts.set(row.connector_id, row.count);
  return counts;
}

/** The workspace's day in its own time zone, and its recommendation settings. */
export async function workspaceDay(tx: Tx, workspaceId: string) {
  const result = await tx.execute<{
    today: string;
    hour: number;
    daily_actions_per_user: number;
    recommendations_ran_on: string | null;
  }>(sql`
    select (now() at time zone time_zone)::date::text as today,
           extract(hour from now() at time zone time_zone)::int as hour,
           daily_actions_per_user, recommendations_ran_on::text as recommendations_ran_on
      from workspaces where id = ${workspaceId}`);
  const row = result.rows[0];
  if (!row) throw new Error(`workspace ${workspaceId} not found`);
  return {
    today: row.today,
    hour: row.hour,
    dailyActionsPerUser: row.daily_actions_per_user,
    ranOn: row.recommendations_ran_on,
  };
}

export async function setRecommendationsRanOn(tx: Tx, workspaceId: string, day: string) {
  await tx.execute(sql`update workspaces set recommendations_ran_on = ${day}::date where id = ${workspaceId}`);
}

/** Recommendations of earlier days nobody acted on become pending: today's list holds only today's. */
export async function markEarlierRecommendationsPending(tx: Tx, workspaceId: string, day: string) {
  await tx.execute(sql`
    update actions set status = 'pending'
     where workspace_id = ${workspaceId} and status = 'recommended' and recommended_on < ${day}::date`);
}

/** Marks the engine's run for the user today, whatever it found: the first run after onboarding is done. */
export async function setUserRecommendationsRanOn(tx: Tx, workspaceId: string, userId: string, day: string) {
  await tx.execute(sql`
    update users set recommendations_ran_on = ${day}::date where workspace_id = ${workspaceId} and id = ${userId}`);
}

/** A user who finished onboarding and has had no run since, and what their first run waits for. */
export type AwaitingFirstRun = {
  id: string;
  /** Their own Google sync is queued or running. */
  syncing: boolean;
  /** Some member's Google sync (theirs or another's) is queued or running. */
  teamSyncing: boolean;
  /** Evidence is waiting for the graph job (network_rows are not up to date yet). */
  updating: boolean;
  /** The workspace has a network to recommend from. */
  hasNetwork: boolean;
};

/** Users of these roles (all of them, or the ones named) who finished onboarding and have had no run since. */
export async function usersAwaitingFirstRun(
  tx: Tx,
  workspaceId: string,
  roles: readonly string[],
  userIds?: readonly string[],
): Promise<AwaitingFirstRun[]> {
  const result = await tx.execute<{
    id: string;
    syncing: boolean;
    team_syncing: boolean;
    updating: boolean;
    has_network: boolean;
  }>(sql`
    select u.id,
           exists (select 1 from job_runs j
                    where j.workspace_id = u.workspace_id and j.user_id = u.id and j.kind = 'google-sync'
                      and j.status in ('queued', 'running')) as syncing,
           -- The workspace's, not the row's: read once per statement.
           exists (select 1 from job_runs j
                    where j.workspace_id = ${workspaceId} and j.kind = 'google-sync'
                      and j.status in ('queued', 'running')) as team_syncing,
           exists (select 1 from graph_dirty d where d.workspace_id = u.workspace_id) as updating,
           exists (select 1 from network_rows r where r.workspace_id = u.workspace_id) as has_network
      from users u
     where u.workspace_id = ${workspaceId} and u.has_completed_onboarding and u.recommendations_ran_on is null
       and u.role = any(${sql.param([...roles])}::text[])
       and ${userIds ? sql`u.id = any(${sql.param([...userIds])}::uuid[])` : sql`true`}`);
  return result.rows.map((row) => ({
    id: row.id,
    syncing: row.syncing,
    teamSyncing: row.team_syncing,
    updating: row.updating,
    hasNetwork: row.has_network,
  }));
}

export type RecommendableUser = { id: string; email: string; fullName: string; role: string };

/** The workspace's users who act on recommendations (admins and members), or the one asked for. */
export async function workspaceUsers(tx: Tx, workspaceId: string, userId?: string) {
  const result = await tx.execute<RecommendableUser>(sql`
    select id, email, first_name || ' ' || last_name as "fullName", role from users
     where workspace_id = ${workspaceId} and ${userId ? sql`id = ${userId}` : sql`true`}
     order by created_at, id`);
  return result.rows;
}

/** Prospects already recommended to the user today, whatever became of them since. */
export async function prospectsRecommendedOn(tx: Tx, workspaceId: string, userId: string, day: string) {
  const result = await tx.execute<{ prospect_id: string }>(sql`
    select distinct prospect_id from actions
     where workspace_id = ${workspaceId} and recommended_on = ${day}::date and ${userId} = any(recommendation_users)`);
  return result.rows.map((row) => row.prospect_id);
}

/** Allies nobody can e-mail for an intro: no address of their own and no member owning the relationship. */
export async function unreachableAllies(tx: Tx, workspaceId: string) {
  const result = await tx.execute<{ person_id: string }>(sql`
    select c.person_id from clients c join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
     where c.workspace_id = ${workspaceId} and ${isConnectorClient('c')} and p.email is null
       and c.contact_owner_user_id is null`);
  return new Set(result.rows.map((row) => row.person_id));
}

/**
 * Past clients now at another company (`clientMoved`, the PAST_CLIENT rule), by person, with the
 * company they work at now: an intro through one of them says so. Clients are few.
 */
export async function formerClientsNowAt(tx: Tx, workspaceId: string) {
  const result = await tx.execute<{ person_id: string; company_name: string }>(sql`
    select c.person_id, co.name as company_name
      from clients c
      join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
      join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
     where c.workspace_id = ${workspaceId} and ${clientMoved('c', 'p')}`);
  return new Map(result.rows.map((row) => [row.person_id, row.company_name]));
}

/** The network row's temperature rank (0 warm, 1 medium, 2 cold, 3 none), as `temperatureRank` ranks signals. */
const temperatureOfMask = temperatureRankSql(sql`r.signal_mask`);

export type CandidateFlags = {
  prospect_id: string;
  account_users: string[] | null;
  crm_client: boolean;
  competitor: boolean;
  last_skipped_at: Date | null;
  last_contacted_at: Date | null;
  /** Facts of the profile the prospect's row lacks; empty when it matches on known facts. */
  unknown_facts: string[];
};

/**
 * One page of the user's candidates in rank order (warm, medium, cold, then proximity), with the facts
 * the exclusions need. The pool: prospects at accounts assigned to the user, at the team's accounts
 * nobody is assigned to, or matching the user's ideal customer profile or personas (`profile.known`).
 * Prospects who match only because facts are unknown (`profile.possible`: a mailbox gives no company
 * size, country or industry) are in the pool too, ranked after every known match, with the facts
 * they lack. Prospects already recommended to the user today are left out.
 */
export async function candidatePage(
  tx: Tx,
  input: {
    workspaceId: string;
    userId: string;
    day: string;
    profile: { known: SQL; possible: SQL; unknownFacts: SQL };
    competitorDomains: string[];
    offset: number;
    limit: number;
  },
) {
  const { workspaceId: ws, userId } = input;
  const result = await tx.execute<CandidateFlags>(sql`
    with account_users as (
      select a.company_id,
             coalesce(array_agg(aa.user_id order by aa.user_id) filter (where u.role in ('admin', 'member')), '{}') as users
        from accounts a
        left join account_assignees aa on aa.workspace_id = a.workspace_id and aa.account_id = a.id
        left join users u on u.workspace_id = a.workspace_id and u.id = aa.user_id
       where a.workspace_id = ${ws}
       group by a.company_id
    ),
    -- The page first, then the facts of its rows only: never a lookup per row of the whole pool.
    page as (
      select r.prospect_id, r.company_id, au.users, ${temperatureOfMask} as temperature,
             ${notPastClientSql(sql`r.signal_mask`)} as not_past_client, r.proximity, k.known,
             case when k.known then '{}'::text[] else ${input.profile.unknownFacts} end as unknown_facts
        from ${rowsSeenBy(await rowsViewer(tx, input))}
        left join account_users au on au.company_id = r.company_id
        cross join lateral (select coalesce(${userId} = any(au.users) or cardinality(au.users) = 0, false)
                                   or (${input.profile.known}) as known) k
       where r.workspace_id = ${ws}
         and (k.known or (${input.profile.possible}))
         and not exists (select 1 from actions t
                          where t.workspace_id = ${ws} and t.prospect_id = r.prospect_id
                            and t.recommended_on = ${input.day}::date and ${userId} = any(t.recommendation_users))
       order by not k.known, temperature, not_past_client, r.proximity desc, r.prospect_id
       limit ${input.limit} offset ${input.offset}
    )
    select pg.prospect_id,
           pg.users as account_users,
           pg.unknown_facts,
           ${isCrmCompany(ws, 'pg.company_id')} as crm_client,
           coalesce(pg.company_id in (select c.id from companies c
                                       where c.workspace_id = ${ws} and c.domain = any(${sql.param(input.competitorDomains)}::text[])), false) as competitor,
           (select max(a.acted_at) from actions a
             where a.workspace_id = ${ws} and a.prospect_id = pg.prospect_id and a.status = 'skipped'
               and ${userId} = any(a.recommendation_users)) as last_skipped_at,
           (select max(a.acted_at) from actions a
             where a.workspace_id = ${ws} and a.prospect_id = pg.prospect_id and a.status = 'completed') as last_contacted_at
      from page pg
     order by not pg.known, pg.temperature, pg.not_past_client, pg.proximity desc, pg.prospect_id`);
  return result.rows.map((row) => ({
    ...row,
    last_skipped_at: row.last_skipped_at ? new Date(row.last_skipped_at) : null,
    last_contacted_at: row.last_contacted_at ? new Date(row.last_contacted_at) : null,
  }));
}

/**
 * Writes a kept recommendation for today. The same prospect still open for the same users (an
 * earlier day's pending one) is brought back to today instead of doubled: one open action per
 * prospect and set of users, whatever runs twice.
 */
export async function upsertRecommendation(
  tx: Tx,
  input: {
    workspaceId: string;
    day: string;
    generatedFor: string;
    prospectId: string;
    signals: unknown[];
    action: KeptAction;
    /** The line of why the run logs for it (`recommendationWhy`). */
    reason: string;
  },
) {
  const { action } = input;
  const result = await tx.execute<{ id: string }>(sql`
    insert into actions (workspace_id, type, status, origin, prospect_id, connector_id, source, recommendation_users,
                         signals, recommended_on, generated_for_user_id, temperature, proximity, reason)
    values (${input.workspaceId}, ${action.type}, 'recommended', 'recommendation', ${input.prospectId},
            ${action.connectorId}, ${action.source}, ${sql.param(action.recommendationUsers)}::uuid[],
            ${JSON.stringify(input.signals)}::jsonb, ${input.day}::date, ${input.generatedFor},
            ${action.temperature}, ${action.proximity}, ${input.reason})
    on conflict (workspace_id, prospect_id, recommendation_users) where status in ('recommended', 'pending')
    do update set type = excluded.type, status = 'recommended', connector_id = excluded.connector_id,
                  source = excluded.source, signals = excluded.signals, recommended_on = excluded.recommended_on,
                  generated_for_user_id = excluded.generated_for_user_id, temperature = excluded.temperature,
                  proximity = excluded.proximity, reason = excluded.reason
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) throw new Error('upsert returned no row');
  return id;
}

export type RunLogEntry = {
  prospectId: string;
  outcome: 'kept' | 'dropped';
  reason: string;
  actionType: string | null;
  connectorId: string | null;
  actionId: string | null;
};

export async function insertRunLog(
  tx: Tx,
  run: { workspaceId: string; runId: string; userId: string; day: string },
  entries: RunLogEntry[],
) {
  if (entries.length === 0) return;
  const column = <T>(pick: (entry: RunLogEntry, index: number) => T) => sql.param(entries.map(pick));
  await tx.execute(sql`
    insert into recommendation_log (workspace_id, run_id, user_id, run_on, position, prospect_id, outcome, reason,
                                    action_type, connector_id, action_id)
    select ${run.workspaceId}::uuid, ${run.runId}::uuid, ${run.userId}::uuid, ${run.day}::date, e.position, e.prospect_id,
           e.outcome, e.reason, e.action_type, e.connector_id, e.action_id
      from unnest(${column((_, index) => index)}::int[], ${column((entry) => entry.prospectId)}::uuid[],
                  ${column((entry) => entry.outcome)}::text[], ${column((entry) => entry.reason)}::text[],
                  ${column((entry) => entry.actionType)}::text[], ${column((entry) => entry.connectorId)}::uuid[],
                  ${column((entry) => entry.actionId)}::uuid[])
           as e(position, prospect_id, outcome, reason, action_type, connector_id, action_id)`);
}

/** The run log keeps a month: enough to answer "why was this (not) recommended?". */
export async function pruneRunLog(tx: Tx, workspaceId: string, day: string) {
  await tx.execute(sql`
    delete from recommendation_log where workspace_id = ${workspaceId} and run_on < ${day}::date - 30`);
}

/** The user's latest run, candidate by candidate in the order they were decided. */
export async function latestRunLog(tx: Tx, workspaceId: string, userId: string) {
  const result = await tx.execute<{
    run_on: string;
    created_at: Date;
    outcome: 'kept' | 'dropped';
    reason: string;
    action_type: string | null;
    prospect: string;
    company: string | null;
    connector: string | null;
  }>(sql`
    with latest as (
      select run_id from recommendation_log where workspace_id = ${workspaceId} and user_id = ${userId}
       order by created_at desc limit 1
    )
    select l.run_on::text as run_on, l.created_at, l.outcome, l.reason, l.action_type, p.full_name as prospect,
           co.name as company, cp.full_name as connector
      from recommendation_log l
      join people p on p.workspace_id = l.workspace_id and p.id = l.prospect_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
      left join people cp on cp.workspace_id = l.workspace_id and cp.id = l.connector_id
     where l.workspace_id = ${workspaceId} and l.run_id = (select run_id from latest)
     order by l.position`);
  return result.rows;
}

// ---------------------------------------------------------------------------------------------
// The lists

export type ActionRow = {
  id: string;
  type: 'ask-intro' | 'DIRECT_MESSAGE';
  status: 'recommended' | 'pending' | 'completed' | 'skipped';
  signals: unknown[];
  recommendation_users: string[];
  recommended_on: string | null;
  reason: string | null;
  acted_at: Date | null;
  created_at: Date;
  replied_at: Date | null;
  thanked_at: Date | null;
  message: string | null;
  source: 'connector' | 'client' | null;
  prospect_id: string;
  prospect_name: string;
  prospect_avatar: string | null;
  prospect_linkedin: string | null;
  prospect_title: string | null;
  prospect_email: string | null;
  prospect_phone: string | null;
  proximity: number;
  engagement: number;
  company_id: string | null;
  company_name: string | null;
  company_logo: string | null;
  company_size: string | null;
  connector_id: string | null;
  connector_name: string | null;
  connector_avatar: string | null;
  connector_title: string | null;
  connector_is_colleague: boolean;
  connector_company_id: string | null;
  connector_company_name: string | null;
  connector_company_logo: string | null;
  connector_company_size: string | null;
  owner_id: string | null;
  owner_name: string | null;
  owner_avatar: string | null;
  owner_linkedin: string | null;
};

export type ActionTab = 'past' | 'pending' | 'skipped';

/** Which actions a list is about; the rules of who sees what are the service's, the SQL is built here. */
export type ActionScope =
  /** Today's recommendations: to this user, to any of these users, or the team's. */
  | { kind: 'recommended'; today: string; to: { userId: string } | { anyOf: string[] } | 'team' }
  /**
   * A tab: the team's, or one user's (pending: recommended to them; past and skipped: acted on by
   * them). An action another send superseded was never acted on: it is in no past or skipped tab.
   */
  | { kind: 'tab'; tab: ActionTab; of: { userId: string } | 'team' };

/** Actions in any of the scopes, narrowed by the chosen values of the named filters. */
export type ActionSelection = {
  scopes: readonly ActionScope[];
  filters?: readonly TActionFilterItem[];
  filterNames?: readonly ActionFilterName[];
};

export type ActionOrder = 'recommended' | 'latest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuids = (values: string[]) => sql.param(values.filter((value) => UUID.test(value)));
// Containment, which actions_recommendation_users_idx serves: a membership test of each array read every action.
const recommendedTo = (userId: string) => sql`a.recommendation_users @> array[${userId}::uuid]`;

function scopeSql(scope: ActionScope): SQL {
  if (scope.kind === 'recommended') {
    const { to } = scope;
    const who =
      to === 'team'
        ? sql`true`
        : 'anyOf' in to
          ? sql`a.recommendation_users && ${uuids(to.anyOf)}::uuid[]`
          : recommendedTo(to.userId);
    // A recommendation made before its company became a customer or an exclusion is not shown any more.
    const prospectCompany =
      '(select p_.company_id from people p_ where p_.workspace_id = a.workspace_id and p_.id = a.prospect_id)';
    return sql`a.status = 'recommended' and a.recommended_on = ${scope.today}::date and ${who}
               and not ${isCrmCompany(sql`a.workspace_id`, prospectCompany)}`;
  }
  const { tab, of } = scope;
  if (tab === 'pending') return sql`a.status = 'pending' and ${of === 'team' ? sql`true` : recommendedTo(of.userId)}`;
  const status = tab === 'past' ? 'completed' : 'skipped';
  return sql`a.status = ${status} and a.superseded_by is null and ${
    of === 'team' ? sql`true` : sql`a.owner_user_id = ${of.userId}`
  }`;
}

/** The chosen values of each filter (within a filter any value, across filters all). */
function filterConditions(filters: readonly TActionFilterItem[], names: readonly ActionFilterName[]): SQL[] {
  const conditions: SQL[] = [];
  for (const name of names) {
    const values = filters.filter((filter) => filter.filterName === name).flatMap((filter) => filter.values);
    if (values.length === 0) continue;
    if (name === 'company') conditions.push(sql`p.company_id = any(${uuids(values)}::uuid[])`);
    if (name === 'connector') conditions.push(sql`a.connector_id = any(${uuids(values)}::uuid[])`);
    if (name === 'user') conditions.push(sql`a.owner_user_id = any(${uuids(values)}::uuid[])`);
    if (name === 'actionType') conditions.push(sql`a.type = any(${sql.param(values)}::text[])`);
    if (name === 'signal') {
      conditions.push(sql`exists (select 1 from jsonb_array_elements(a.signals) as s(signal)
                                   where s.signal ->> 'type' = any(${sql.param(values)}::text[]))`);
    }
  }
  return conditions;
}

/** `a` is the action, `p` its prospect: the conditions may use both. */
function selectionSql(selection: ActionSelection): SQL {
  const scopes = selection.scopes.map(scopeSql);
  const [only] = scopes;
  const scope =
    scopes.length === 1 && only
      ? only
      : sql`(${sql.join(
          scopes.map((part) => sql`(${part})`),
          sql` or `,
        )})`;
  const conditions = [scope, ...filterConditions(selection.filters ?? [], selection.filterNames ?? [])];
  return sql.join(conditions, sql` and `);
}

const ORDERS: Record<ActionOrder, SQL> = {
  recommended: sql`a.temperature, a.proximity desc, a.id`,
  latest: sql`coalesce(a.acted_at, a.created_at) desc, a.id`,
};

const actionsFrom = (workspaceId: string) => sql`
  actions a join people p on p.workspace_id = a.workspace_id and p.id = a.prospect_id
  where a.workspace_id = ${workspaceId}`;

export async function countActions(tx: Tx, workspaceId: string, selection: ActionSelection) {
  const result = await tx.execute<{ count: number }>(
    sql`select count(*)::int as count from ${actionsFrom(workspaceId)} and ${selectionSql(selection)}`,
  );
  return result.rows[0]?.count ?? 0;
}

/** One page of actions with everything a row shows: the prospect, their company, the connector and the owner. */
export async function actionRows(
  tx: Tx,
  workspaceId: string,
  input: { selection: ActionSelection; order: ActionOrder; limit: number; offset: number },
) {
  const ws = workspaceId;
  const result = await executeInWrittenJoinOrder<ActionRow>(
    tx,
    sql`
    with ${membersCte(ws)}
    select a.id, a.type, a.status, a.signals, a.recommendation_users, a.recommended_on::text as recommended_on,
           a.reason, a.acted_at, a.created_at, a.replied_at, a.thanked_at, a.message, a.source,
           p.id as prospect_id, p.full_name as prospect_name, p.avatar_url as prospect_avatar,
           p.linkedin_url as prospect_linkedin, p.title as prospect_title, p.email as prospect_email,
           p.phone as prospect_phone, coalesce(o.proximity, r.proximity, 0)::int as proximity,
           coalesce(o.engagement, r.engagement, ${engagementCodeSql('NEVER_MET')})::int as engagement,
           co.id as company_id, co.name as company_name, co.logo_url as company_logo, co.size_bucket as company_size,
           cp.id as connector_id, coalesce(cu.first_name || ' ' || cu.last_name, cp.full_name) as connector_name,
           coalesce(cu.avatar, cp.avatar_url) as connector_avatar, cp.title as connector_title,
           cm.user_id is not null as connector_is_colleague,
           cco.id as connector_company_id, cco.name as connector_company_name, cco.logo_url as connector_company_logo,
           cco.size_bucket as connector_company_size,
           ou.id as owner_id, ou.first_name || ' ' || ou.last_name as owner_name, ou.avatar as owner_avatar,
           op.linkedin_url as owner_linkedin
      from actions a
      join people p on p.workspace_id = a.workspace_id and p.id = a.prospect_id
      left join network_rows r on r.workspace_id = a.workspace_id and r.prospect_id = a.prospect_id
      -- A Private owner sees the prospect as their own row has it (graph.sql.ts rowsSeenBy).
      left join own_network_rows o on o.workspace_id = a.workspace_id and o.user_id = a.owner_user_id
                                   and o.prospect_id = a.prospect_id
      left join companies co on co.workspace_id = a.workspace_id and co.id = p.company_id
      left join people cp on cp.workspace_id = a.workspace_id and cp.id = a.connector_id
      left join members cm on cm.person_id = a.connector_id
      left join users cu on cu.workspace_id = a.workspace_id and cu.id = cm.user_id
      left join companies cco on cco.workspace_id = a.workspace_id and cco.id = cp.company_id
      left join users ou on ou.workspace_id = a.workspace_id and ou.id = a.owner_user_id
      left join members om on om.user_id = a.owner_user_id
      left join people op on op.workspace_id = a.workspace_id and op.id = om.person_id
     where a.workspace_id = ${ws} and ${selectionSql(input.selection)}
     order by ${ORDERS[input.order]}
     limit ${input.limit} offset ${input.offset}`,
  );
  return result.rows;
}

/** The caller's tab counts, one selection per tab. */
export async function tabCounts(
  tx: Tx,
  workspaceId: string,
  selections: Record<'recommended' | 'past' | 'pending' | 'skipped', ActionSelection>,
) {
  const tabs = {
    recommended: selectionSql(selections.recommended),
    past: selectionSql(selections.past),
    pending: selectionSql(selections.pending),
    skipped: selectionSql(selections.skipped),
  };
  const result = await tx.execute<{ recommended: number; past: number; pending: number; skipped: number }>(sql`
    select count(*) filter (where ${tabs.recommended})::int as recommended,
           count(*) filter (where ${tabs.past})::int as past,
           count(*) filter (where ${tabs.pending})::int as pending,
           count(*) filter (where ${tabs.skipped})::int as skipped
      from ${actionsFrom(workspaceId)}
       -- The rows of one tab or another: a member's own, read by the indexes on their user.
       and (${tabs.recommended} or ${tabs.past} or ${tabs.pending} or ${tabs.skipped})`);
  return result.rows[0] ?? { recommended: 0, past: 0, pending: 0, skipped: 0 };
}

export type OptionRow = {
  value: string;
  name: string;
  avatar: string | null;
  company_logo: string | null;
  count: number;
};

/** The options of one filter among the selected actions, most frequent first. */
export async function filterOptions(
  tx: Tx,
  workspaceId: string,
  input: {
    selection: ActionSelection;
    filter: 'user' | 'recommendationUser' | 'company' | 'connector' | 'actionType' | 'signal';
    pattern: string | null;
    limit: number;
  },
) {
  const ws = workspaceId;
  const visible = sql`select a.*, p.company_id as prospect_company_id from ${actionsFrom(ws)} and ${selectionSql(input.selection)}`;
  const byName = (name: SQL) => (input.pattern === null ? sql`true` : sql`${name} ilike ${input.pattern}`);
  const queries = {
    user: sql`
      select u.id::text as value, u.first_name || ' ' || u.last_name as name, u.avatar, null as company_logo, count(*)::int as count
        from visible v join users u on u.workspace_id = ${ws} and u.id = v.owner_user_id
       where ${byName(sql`u.first_name || ' ' || u.last_name`)}
       group by u.workspace_id, u.id`,
    recommendationUser: sql`
      select u.id::text as value, u.first_name || ' ' || u.last_name as name, u.avatar, null as company_logo, count(*)::int as count
        from visible v cross join unnest(v.recommendation_users) as ru(id)
        join users u on u.workspace_id = ${ws} and u.id = ru.id
       where ${byName(sql`u.first_name || ' ' || u.last_name`)}
       group by u.workspace_id, u.id`,
    company: sql`
      select co.id::text as value, co.name, null as avatar, co.logo_url as company_logo, count(*)::int as count
        from visible v join companies co on co.workspace_id = ${ws} and co.id = v.prospect_company_id
       where ${byName(sql`co.name`)}
       group by co.workspace_id, co.id`,
    connector: sql`
      with ${membersCte(ws)}
      select cp.id::text as value, coalesce(cu.first_name || ' ' || cu.last_name, cp.full_name) as name,
             coalesce(cu.avatar, cp.avatar_url) as avatar, null as company_logo, count(*)::int as count
        from visible v join people cp on cp.workspace_id = ${ws} and cp.id = v.connector_id
        left join members m on m.person_id = cp.id
        left join users cu on cu.workspace_id = ${ws} and cu.id = m.user_id
       where ${byName(sql`coalesce(cu.first_name || ' ' || cu.last_name, cp.full_name)`)}
       group by cp.workspace_id, cp.id, cu.workspace_id, cu.id`,
    actionType: sql`
      select v.type as value, v.type as name, null as avatar, null as company_logo, count(*)::int as count
        from visible v group by v.type`,
    signal: sql`
      select s.type as value, s.type as name, null as avatar, null as company_logo, count(distinct v.id)::int as count
        from visible v cross join jsonb_array_elements(v.signals) as e(signal)
        cross join lateral (select e.signal ->> 'type' as type) s
       group by s.type`,
  };
  const result = await tx.execute<OptionRow>(sql`
    with visible as (${visible})
    select * from (${queries[input.filter]}) o order by o.count desc, o.name limit ${input.limit}`);
  return result.rows;
}

// ---------------------------------------------------------------------------------------------
// Commands

export type LockedAction = {
  id: string;
  type: 'ask-intro' | 'DIRECT_MESSAGE';
  status: 'recommended' | 'pending' | 'completed' | 'skipped';
  prospect_id: string;
  connector_id: string | null;
  owner_user_id: string | null;
  recommendation_users: string[];
  replied_at: Date | null;
  thanked_at: Date | null;
};

/** The action, locked until the transaction ends: two clicks never act on it twice. */
export async function lockAction(tx: Tx, workspaceId: string, actionId: string) {
  const result = await tx.execute<LockedAction>(sql`
    select id, type, status, prospect_id, connector_id, owner_user_id, recommendation_users, replied_at, thanked_at
      from actions
     where workspace_id = ${workspaceId} and id = ${actionId} for update`);
  return result.rows[0] ?? null;
}

export async function closeAction(
  tx: Tx,
  workspaceId: string,
  actionId: string,
  change: {
    status: 'completed' | 'skipped';
    ownerUserId: string;
    message?: string;
    outboxId?: string;
    connectorId?: string;
    source?: 'connector' | 'client';
  },
) {
  await tx.execute(sql`
    update actions set status = ${change.status}, owner_user_id = ${change.ownerUserId}, acted_at = now(),
                       message = coalesce(${change.message ?? null}, message),
                       outbox_id = coalesce(${change.outboxId ?? null}::uuid, outbox_id),
                       connector_id = coalesce(${change.connectorId ?? null}::uuid, connector_id),
                       source = coalesce(${change.source ?? null}, source)
     where workspace_id = ${workspaceId} and id = ${actionId}`);
}

/**
 * The prospect was just contacted (by `byActionId`): every other open action about them, recommended or
 * pending for whichever users, is closed as completed by the caller, so it is recommended to nobody.
 */
export async function supersedeOpenActions(
  tx: Tx,
  workspaceId: string,
  input: { prospectId: string; byActionId: string; ownerUserId: string },
) {
  await tx.execute(sql`
    update actions set status = 'completed', owner_user_id = ${input.ownerUserId}, acted_at = now(),
                       superseded_by = ${input.byActionId}
     where workspace_id = ${workspaceId} and prospect_id = ${input.prospectId}
       and status in ('recommended', 'pending') and id <> ${input.byActionId}`);
}

/** Whether the workspace has actions still open (recommended or pending). */
export async function hasOpenActions(tx: Tx, workspaceId: string) {
  const open = await tx.execute(sql`
    select 1 from actions where workspace_id = ${workspaceId} and status in ('recommended', 'pending') limit 1`);
  return open.rows.length > 0;
}

/** The prospect's open actions show their signals as they are now. */
export async function setOpenActionSignals(tx: Tx, workspaceId: string, prospectId: string, signals: unknown[]) {
  await tx.execute(sql`
    update actions set signals = ${JSON.stringify(signals)}::jsonb
     where workspace_id = ${workspaceId} and prospect_id = ${prospectId} and status in ('recommended', 'pending')`);
}
