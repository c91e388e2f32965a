import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { engagementCodeSql, engagementKeySql, engagementSql } from './engagement.ts';
import {
  clientMoved,
  connectorsCte,
  inScope,
  isConnectorClient,
  isCrmCompany,
  isOutsider,
  maxParticipants,
  membersCte,
  proximityBandSql,
  ROW_COLUMNS,
  type Scope,
} from './graph.sql.ts';
import { decaySql, type ProximityModel, proximitySql } from './proximity.ts';
import { signalBitsTable, signalMaskSql, WEBSITE_SIGNAL_DAYS } from './signals.ts';

// Evidence -> edges -> network rows, set-based in SQL (DESIGN.md section 7). Both steps take a scope:
// the people new evidence touched (the incremental job) or everyone (the full recompute).

const decayTo = (time: string) => decaySql(sql.raw(time));

/**
 * Rebuilds the edges of the outsiders in scope from all their evidence: meetings and mail with a
 * connector, LinkedIn connections of members, overlapping employments. Edges whose evidence is gone
 * are removed. Returns the number of edges written.
 */
export async function rebuildEdges(tx: Tx, workspaceId: string, scope: Scope) {
  const result = await tx.execute<{ written: number }>(rebuildEdgesSql(workspaceId, scope));
  return result.rows[0]?.written ?? 0;
}

export function rebuildEdgesSql(workspaceId: string, scope: Scope) {
  const ws = workspaceId;
  return sql`
    with ${membersCte(ws)}, ${connectorsCte(ws)},
    targets as (
      select p.id from people p where p.workspace_id = ${ws} and ${inScope(scope, 'p.id')} and ${isOutsider(ws, 'p')}
    ),
    -- Private members' accounts (usually none: the anti-join below is then free).
    private_sources as materialized (select user_id, person_id from members where sharing = 'private'),
    together as (
      -- Per target: its own participations first, then the other people in each of those interactions.
      -- Each step is a lateral subquery behind an 'offset 0' fence, so the order is this one whatever the
      -- statistics say about tables a sync has just filled (starting from a member's participations instead
      -- visits every interaction the member ever had, once per target). One row per real meeting or
      -- message: the same one seen in two members' accounts shares its time.
      select distinct tp.person_id as prospect_id, cp.person_id as connector_id, i.kind, i.occurred_at,
             i.participant_count,
             i.kind = 'mail' and cp.role = 'from' and tp.role in ('to', 'cc') as sent,
             i.kind = 'mail' and tp.role = 'from' and cp.role in ('to', 'cc') as received
        from targets t
        cross join lateral (
          select tp.person_id, tp.interaction_id, tp.role from interaction_participants tp
           where tp.workspace_id = ${ws} and tp.person_id = t.id
          offset 0
        ) tp
        cross join lateral (
          select i.kind, i.occurred_at, i.participant_count, i.source_user_id from interactions i
           where i.workspace_id = ${ws} and i.id = tp.interaction_id
             and i.participant_count <= ${maxParticipants} and i.occurred_at <= now()
          offset 0
        ) i
        cross join lateral (
          select cp.person_id, cp.role from interaction_participants cp
           where cp.workspace_id = ${ws} and cp.interaction_id = tp.interaction_id and cp.person_id <> tp.person_id
          offset 0
        ) cp
        join connectors c on c.person_id = cp.person_id
       -- A private member's mailbox and calendar count for their own edges only: a teammate on one of
       -- their threads gets nothing from it (issue 22). The same meeting in the teammate's calendar does.
       where not exists (select 1 from private_sources ps where ps.user_id = i.source_user_id
                           and ps.person_id <> cp.person_id)
    ),
    interaction_evidence as (
      select prospect_id, connector_id,
             coalesce(sum(least(1, 2.0 / greatest(participant_count, 2)) * ${decayTo('occurred_at')})
                        filter (where kind = 'meeting'), 0) as meeting_weight,
             count(distinct occurred_at) filter (where kind = 'meeting') as meetings,
             count(*) filter (where sent) as mails_sent,
             count(*) filter (where received) as mails_received,
             coalesce(sum(${decayTo('occurred_at')}) filter (where sent), 0) as mail_sent_weight,
             coalesce(sum(${decayTo('occurred_at')}) filter (where received), 0) as mail_received_weight,
             max(occurred_at) filter (where kind = 'meeting' or sent or received) as last_interaction_at
        from together group by prospect_id, connector_id
    ),
    linkedin_evidence as (
      select linked.* from targets t
      cross join lateral (
        select lc.person_id as prospect_id, m.person_id as connector_id
          from linkedin_connections lc join members m on m.user_id = lc.user_id
         where lc.workspace_id = ${ws} and lc.person_id = t.id
        union all
        -- An ally's connections, as they confirmed them through their share link (issue 22). Whether the
        -- client is an ally is read from the connectors, where the rule ran once per client.
        select ac.person_id, cl.person_id
          from ally_connections ac
          join clients cl on cl.workspace_id = ac.workspace_id and cl.id = ac.client_id
                         and cl.person_id in (select person_id from connectors)
         where ac.workspace_id = ${ws} and ac.person_id = t.id
        offset 0
      ) linked
    ),
    connector_stints as materialized (
      -- The connectors' own employments, a few thousand: every target's colleagues-in-time are found
      -- among these, never among all the employees of its company (thousands at a large one).
      -- A stint whose start no source gave (a LinkedIn connection's current company) counts from when
      -- it was seen there: the overlap claimed is the one known, never more.
      select ce.person_id, ce.company_id, coalesce(ce.started_on, ce.seen_at::date) as started_on, ce.ended_on,
             ce.department
        from connectors c
        join employments ce on ce.workspace_id = ${ws} and ce.person_id = c.person_id
    ),
    shared_evidence as (
      select distinct on (te.person_id, cs.person_id)
             te.person_id as prospect_id, cs.person_id as connector_id,
             -- Two people seen at the same company on the same day shared at least that: a month, the least.
             greatest(1, ((least(coalesce(te.ended_on, current_date), coalesce(cs.ended_on, current_date))
               - greatest(coalesce(te.started_on, te.seen_at::date), cs.started_on)) / 30.44)::int) as shared_months,
             coalesce(te.department = cs.department, false) as same_department,
             least(te.ended_on, cs.ended_on) as ended_on,
             te.company_id
        from targets t
        join employments te on te.workspace_id = ${ws} and te.person_id = t.id
        join connector_stints cs on cs.company_id = te.company_id and cs.person_id <> te.person_id
       where greatest(coalesce(te.started_on, te.seen_at::date), cs.started_on)
             <= least(coalesce(te.ended_on, current_date), coalesce(cs.ended_on, current_date))
       order by te.person_id, cs.person_id, shared_months desc
    ),
    combined as (
      select prospect_id, connector_id, meeting_weight, meetings, mails_sent, mails_received, mail_sent_weight,
             mail_received_weight, last_interaction_at, 0 as shared_months, false as same_department,
             null::date as ended_on, null::uuid as company_id, false as linkedin
        from interaction_evidence
      union all
      select prospect_id, connector_id, 0, 0, 0, 0, 0, 0, null, 0, false, null, null, true from linkedin_evidence
      union all
      select prospect_id, connector_id, 0, 0, 0, 0, 0, 0, null, shared_months, same_department, ended_on, company_id, false
        from shared_evidence where shared_months > 0
    ),
    written as (
      insert into edges as e (workspace_id, prospect_id, connector_id, meeting_weight, meetings, mails_sent, mails_received,
                         mail_sent_weight, mail_received_weight, shared_months, shared_same_department, shared_ended_on,
                         shared_company_id, linkedin, last_interaction_at, evidence_at)
      select ${ws}::uuid, prospect_id, connector_id, sum(meeting_weight), sum(meetings), sum(mails_sent), sum(mails_received),
             sum(mail_sent_weight), sum(mail_received_weight), max(shared_months), bool_or(same_department),
             max(ended_on), max(company_id::text)::uuid, bool_or(linkedin), max(last_interaction_at), now()
        from combined group by prospect_id, connector_id
      on conflict (workspace_id, prospect_id, connector_id) do update set
             meeting_weight = excluded.meeting_weight, meetings = excluded.meetings,
             mails_sent = excluded.mails_sent, mails_received = excluded.mails_received,
             mail_sent_weight = excluded.mail_sent_weight, mail_received_weight = excluded.mail_received_weight,
             shared_months = excluded.shared_months, shared_same_department = excluded.shared_same_department,
             shared_ended_on = excluded.shared_ended_on, shared_company_id = excluded.shared_company_id,
             linkedin = excluded.linkedin, last_interaction_at = excluded.last_interaction_at,
             evidence_at = excluded.evidence_at
      returning e.prospect_id, e.connector_id
    ),
    removed as (
      delete from edges e
       where e.workspace_id = ${ws} and ${inScope(scope, 'e.prospect_id')}
         and not exists (select 1 from written w where w.prospect_id = e.prospect_id and w.connector_id = e.connector_id)
      returning 1
    )
    select (select count(*) from written)::int as written, (select count(*) from removed)::int as removed`;
}

/**
 * Rebuilds the network rows of the people in scope from their edges and signals: best path
 * proximity (a colleague's link, or an ally's link times the trust the team has in the ally),
 * engagement, connectors and the signal mask. Rows whose values did not change are not written.
 * With `summaries: 'in-step'`, the same statement adds its difference (new rows minus old, per cell)
 * to the summaries, so they stay exact without re-reading the workspace.
 */
export async function rollUpNetworkRows(
  tx: Tx,
  workspaceId: string,
  scope: Scope,
  model: ProximityModel,
  summaries: 'in-step' | 'rebuilt-later' = 'rebuilt-later',
) {
  const result = await tx.execute<{ written: number; removed: number }>(
    rollUpSql(workspaceId, scope, model, summaries),
  );
  if (summaries === 'in-step') {
    // Empty cells go; the total stays even at zero (it is how `summariesBuilt` knows they exist).
    await tx.execute(sql`delete from network_cube where workspace_id = ${workspaceId} and rows = 0`);
    await tx.execute(
      sql`delete from network_reach where workspace_id = ${workspaceId} and rows = 0 and kind in ('company', 'connector')`,
    );
    await countCompaniesReached(tx, workspaceId);
    await tx.execute(sql`delete from network_rank where workspace_id = ${workspaceId} and rows = 0`);
    await tx.execute(sql`delete from network_facets where workspace_id = ${workspaceId} and rows = 0`);
  }
  const row = result.rows[0];
  await rollUpOwnRows(tx, workspaceId, scope, model);
  return { written: row?.written ?? 0, removed: row?.removed ?? 0 };
}

/**
 * Rebuilds Private members' own rows in scope (own_network_rows): for each, the prospects in scope their
 * edges reach, and those their rows held (the edge may be gone). Rows of members who are no longer
 * Private go. Most workspaces have no Private member: one small read, then nothing.
 */
async function rollUpOwnRows(tx: Tx, workspaceId: string, scope: Scope, model: ProximityModel) {
  const ws = workspaceId;
  const owners = await tx.execute<{ user_id: string; person_id: string }>(sql`
    with ${membersCte(ws)} select user_id, person_id from members where sharing = 'private'`);
  await tx.execute(sql`
    delete from own_network_rows where workspace_id = ${ws}
       and user_id <> all(${sql.param(owners.rows.map((owner) => owner.user_id))}::uuid[])`);
  for (const owner of owners.rows) {
    const reached = await tx.execute<{ prospect_id: string }>(sql`
      select e.prospect_id from edges e
       where e.workspace_id = ${ws} and e.connector_id = ${owner.person_id} and ${inScope(scope, 'e.prospect_id')}
      union
      select o.prospect_id from own_network_rows o
       where o.workspace_id = ${ws} and o.user_id = ${owner.user_id} and ${inScope(scope, 'o.prospect_id')}`);
    if (reached.rows.length === 0) continue;
    const personIds = reached.rows.map((row) => row.prospect_id);
    await tx.execute(
      rollUpSql(ws, { personIds }, model, 'rebuilt-later', { userId: owner.user_id, personId: owner.person_id }),
    );
  }
}

/**
 * A prospect's bucket in network_rank: the first 6 bits of its id (ids compare bytewise, so buckets follow
 * the order). 64 buckets per proximity: few enough to walk, small enough to skip into.
 */
export const RANK_BUCKET_SHIFT = 2;
const rankBucket = (prospectId: SQL) =>
  sql`get_byte(uuid_send(${prospectId}), 0) >> ${sql.raw(String(RANK_BUCKET_SHIFT))}`;

/** The summaries' difference for the rows in `changes` (sign +1 for new values, -1 for old ones). */
const summaryDelta = (ws: string) => sql`,
    cube_delta as (
      insert into network_cube as c (workspace_id, company_size, industry, department, proximity, engagement, signal_mask,
                                     has_external_connector, rows)
      select ${ws}::uuid, company_size, industry, department, ${proximityBandSql(sql`proximity`, 'floor')}, engagement, signal_mask,
             has_external_connector, sum(sign)
        from changes group by 2, 3, 4, 5, 6, 7, 8 having sum(sign) <> 0
      on conflict on constraint network_cube_cell_key do update set rows = c.rows + excluded.rows
      returning 1
    ),
    reach_delta as (
      insert into network_reach as n (workspace_id, kind, key, rows)
      select ${ws}::uuid, 'company', company_id, sum(sign) from changes where company_id is not null
       group by company_id having sum(sign) <> 0
      union all
      select ${ws}::uuid, 'connector', c.id, sum(sign) from changes, unnest(connector_ids) as c(id)
       group by c.id having sum(sign) <> 0
      union all
      select ${ws}::uuid, 'total', ${ws}::uuid, sum(sign) from changes having sum(sign) <> 0
      on conflict (workspace_id, kind, key) do update set rows = n.rows + excluded.rows
      returning 1
    ),
    rank_delta as (
      insert into network_rank as k (workspace_id, proximity, bucket, rows)
      select ${ws}::uuid, proximity, ${rankBucket(sql`prospect_id`)}, sum(sign) from changes
       group by 2, 3 having sum(sign) <> 0
      on conflict (workspace_id, proximity, bucket) do update set rows = k.rows + excluded.rows
      returning 1
    ),
    facets_delta as (
      insert into network_facets as f (workspace_id, field, value, rows)
      select ${ws}::uuid, field, value, sum(weight) from (${facetValues(sql`changes`, sql`sign`)}) as v
       group by 2, 3 having sum(weight) <> 0
      on conflict (workspace_id, field, value) do update set rows = f.rows + excluded.rows
      returning 1
    )`;

/**
 * Each row of `source` as the filter options it counts for (network_facets: field is the filter's
 * name, value its option key), with `weight`. Only the low-cardinality filters; companies and
 * connectors have network_reach.
 */
function facetValues(source: SQL, weight: SQL) {
  return sql`
    select 'companySize' as field, company_size as value, ${weight} as weight from ${source} where company_size is not null
    union all
    select 'industry', industry, ${weight} from ${source} where industry is not null
    union all
    select 'jobDepartment', department, ${weight} from ${source} where department is not null
    union all
    select 'proximity', ${proximityBandSql(sql`proximity`, 'name')}, ${weight} from ${source}
    union all
    select 'engagement', ${engagementKeySql(sql`engagement`)}, ${weight} from ${source}
    union all
    select 'signal', signal.type, ${weight}
      from ${source} join ${signalBitsTable('signal')} on signal_mask & signal.bit <> 0`;
}

/**
 * The team's trust in each of the given allies: the best proximity of its links to members, as a
 * fraction, never below the model's floor (an ally with no such link is at the floor). Needs `members`.
 * Rounded to four places: what the roll-up stores (the allies table) then changes when the trust moves, not
 * at every roll-up as the evidence decays by the minute; a path (a rounded link times the trust) moves
 * by less than a hundredth of a point for it.
 */
export const trustSql = (ws: string, model: ProximityModel, allies: SQL) => sql`
  select e.prospect_id as ally_id,
         round(greatest(${model.allyTrustFloor}::float8, max(${proximitySql(model, 'e')}) / 100.0)::numeric, 4)::float8 as trust
    -- The allies' edges first (offset 0 keeps them a subquery), then the members among them: the other
    -- way round, the planner probed the index once per ally and member, 8,000 probes for a table page.
    from (select * from edges where workspace_id = ${ws} and prospect_id in (${allies}) offset 0) e
    -- A private member's links stay theirs: they do not vouch for an ally before the team.
    join members m on m.person_id = e.connector_id and m.sharing <> 'private'
   group by e.prospect_id`;

/**
 * The edges of the prospects in scope, as `e`, each with its `decay` (computed once per edge, in a
 * fenced subquery: inline, the proximity expression computes it twice). For a list of people, one index
 * range per person (a lateral lookup behind 'offset 0'): for 5,000 ids the planner estimated 1.4M edges
 * and read all 10M (190 s for an incremental step that reads 50,000).
 */
const edgesInScope = (ws: string, scope: Scope) => {
  const withDecay = sql`select *, ${decaySql(sql`evidence_at`)} as decay from edges where workspace_id = ${ws}`;
  return scope === 'all'
    ? sql`(${withDecay} offset 0) e`
    : // The outer fence keeps the join with the connectors outside the per-person loop (hashed once).
      sql`(select e.* from unnest(${sql.param([...scope.personIds])}::uuid[]) as scope(id)
           cross join lateral (${withDecay} and prospect_id = scope.id offset 0) e
           offset 0) e`;
};

/** The columns the summaries count by. */
const SUMMED_COLUMNS = [
  'prospect_id',
  'company_id',
  'company_size',
  'industry',
  'department',
  'proximity',
  'engagement',
  'signal_mask',
  'has_external_connector',
  'connector_ids',
];
/** Whether rows `a` and `b` hold the same values, nulls equal. */
const sameRow = (a: string, b: string) =>
  sql.raw(`(${ROW_COLUMNS.map((column) => `${a}.${column}`).join(', ')})
           is not distinct from (${ROW_COLUMNS.map((column) => `${b}.${column}`).join(', ')})`);

/**
 * The team roll-up's allies kept in the allies table for its readers (a table page's paths, the
 * connectors' report card) and for the next roll-ups: the rescored ones written (in ally order, the
 * order every roll-up writes them in), and those no longer allies removed.
 */
const storeAllies = (ws: string) => sql`
    allies_stored as (
      insert into allies as s (workspace_id, person_id, trust, since)
      select ${ws}::uuid, person_id, trust, since from ally_paths where rescored order by person_id
      on conflict (workspace_id, person_id) do update set trust = excluded.trust, since = excluded.since
       where (s.trust, s.since) is distinct from (excluded.trust, excluded.since)
      returning 1
    ),
    allies_dropped as (
      -- An anti-join, hashed whatever the estimates: 'not in' is hashed only while the planner believes
      -- the allies fit in memory, and otherwise scanned them once per ally (minutes for 50,000).
      delete from allies s
       where s.workspace_id = ${ws} and not exists (select 1 from ally_paths p where p.person_id = s.person_id)
      returning 1
    ),`;

/** A Private member whose own rows a roll-up writes (own_network_rows) instead of the team's. */
export type RowsOwner = { userId: string; personId: string };

export function rollUpSql(
  workspaceId: string,
  scope: Scope,
  model: ProximityModel,
  summaries: 'in-step' | 'rebuilt-later',
  owner: RowsOwner | null = null,
) {
  const ws = workspaceId;
  const proximity = proximitySql(model, 'e', sql`e.decay`);
  // The team's rows, or the owner's: the table, and the condition that picks the owner's rows in it.
  const table = owner ? sql`own_network_rows` : sql`network_rows`;
  const owned = owner ? sql` and user_id = ${owner.userId}` : sql``;
  const ownedByR = owner ? sql` and r.user_id = ${owner.userId}` : sql``;
  // The owner counts as a colleague on their own rows, channels and all; everyone else as on the team's.
  const counted = owner ? sql`(sharing <> 'private' or person_id = ${owner.personId})` : sql`sharing <> 'private'`;
  const sharesChannels = owner ? sql`(sharing = 'all' or person_id = ${owner.personId})` : sql`sharing = 'all'`;
  return sql`
    with ${membersCte(ws)},
    -- Mapped allies and past clients at a new company (isConnectorClient), read once. The team's trust in
    -- an ally changes with the ally's own edges, rebuilt only when the ally is in scope (a member's
    -- arrival, departure or sharing marks the allies they link to): only those, and allies not stored yet,
    -- are rescored. The others keep the trust stored by the roll-up that last rescored them. Rescoring
    -- all of them read every ally's edges, 2.3 s of each incremental step with 50,000 allies.
    ally_clients as materialized (
      select c.person_id, c.created_at as since, s.trust as stored_trust,
             (${inScope(scope, 'c.person_id')} or s.person_id is null) as rescored
        from clients c
        left join allies s on s.workspace_id = ${ws} and s.person_id = c.person_id
       where c.workspace_id = ${ws} and ${isConnectorClient('c')}
    ),
    trust as materialized (
      -- Computed once: inlined, a planner misled by fresh statistics re-ran it for every edge.
      ${trustSql(ws, model, sql`select person_id from ally_clients where rescored`)}
    ),
    -- The allies who are not members (a member is a colleague), each with the team's trust in them.
    ally_paths as materialized (
      select a.person_id, a.since, a.rescored,
             case when a.rescored then coalesce(t.trust, ${model.allyTrustFloor}::float8) else a.stored_trust end as trust
        from ally_clients a left join trust t on t.ally_id = a.person_id
       where not exists (select 1 from members m where m.person_id = a.person_id)
    ),${owner ? sql`` : storeAllies(ws)}
    connector_factor as materialized (
      -- What each connector's links are worth on a path: a colleague's in full, an ally's times the
      -- team's trust in it. A few hundred rows, the small side of the join with every edge.
      -- The rows are the team's: a private member's edges are left out (they never reach a teammate), and a
      -- member sharing strength only counts for the proximity but not for what names channels (signals,
      -- engagement).
      select person_id as connector_id, true as colleague, 1.0::float8 as factor, ${sharesChannels} as shares_channels
        from members where ${counted}
      union all
      select person_id, false, trust, true from ally_paths
    ),
    scored as (
      select e.prospect_id, e.connector_id, f.colleague, f.factor, ${proximity} as proximity,
             case when f.shares_channels then e.meetings else 0 end as meetings,
             case when f.shares_channels then e.mails_sent + e.mails_received else 0 end as mails,
             case when f.shares_channels then e.shared_months else 0 end as shared_months,
             f.shares_channels and e.linkedin as linkedin, e.created_at
        from ${edgesInScope(ws, scope)}
        -- Grouped, though each connector is there once: so the planner knows it, hashes these few hundred
        -- rows and streams the edges past them. Unsure, it hashed all 10M edges of a full recompute, or
        -- read them through the connector index in random order.
        join (select connector_id, bool_or(colleague) as colleague, max(factor) as factor,
                     bool_and(shares_channels) as shares_channels
                from connector_factor group by connector_id) f on f.connector_id = e.connector_id
    ),
    from_edges as (
      select s.prospect_id,
             max(case when s.colleague then s.proximity else round(s.proximity * s.factor) end)::int as proximity,
             ${engagementSql()} as engagement,
             array_agg(s.connector_id order by s.proximity desc, s.connector_id) as connector_ids,
             bool_or(not s.colleague) as has_external,
             bit_or(${signalMaskSql('edge')}) as mask,
             min(s.created_at) as first_seen_at
        from scored s
       group by s.prospect_id
    ),
    site as (
      -- The workspace's tracking settings: the pricing-page globs as LIKE patterns, the many-pages rule.
      select array(select replace(replace(replace(replace(g, '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%')
                     from unnest(tracking_pricing_patterns) as g) as pricing_likes,
             tracking_many_pages as many_pages, tracking_many_pages_days as many_pages_days
        from workspaces where id = ${ws}
    ),
    visits as (
      -- Visits identified to the person (by the snippet's identify, or a link from our e-mails); an
      -- anonymous browser's visits count for nobody.
      select p.id as prospect_id, count(*) as views,
             count(*) filter (where w.occurred_at > now() - make_interval(days => site.many_pages_days)) as recent_views,
             min(site.many_pages) as many_pages,
             bool_or(w.path like any(site.pricing_likes)) as pricing, min(w.occurred_at) as first_seen_at
        from people p
        join website_events w on w.workspace_id = ${ws} and w.person_id = p.id
        cross join site
       where p.workspace_id = ${ws} and ${inScope(scope, 'p.id')}
         and w.occurred_at > now() - make_interval(days => ${WEBSITE_SIGNAL_DAYS})
       group by p.id
    ),
    past_clients as (
      select c.person_id as prospect_id, c.created_at as first_seen_at
        from clients c join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
       where c.workspace_id = ${ws} and ${inScope(scope, 'c.person_id')} and ${clientMoved('c', 'p')}
    ),
    candidates as (
      select coalesce(f.prospect_id, v.prospect_id, pc.prospect_id) as prospect_id,
             coalesce(f.proximity, 0) as proximity, coalesce(f.engagement, ${engagementCodeSql('NEVER_MET')}) as engagement,
             coalesce(f.connector_ids, '{}') as connector_ids, coalesce(f.has_external, false) as has_external,
             coalesce(f.mask, 0) | ${signalMaskSql('visits')} | ${signalMaskSql('pastClient')} as mask,
             least(f.first_seen_at, v.first_seen_at, pc.first_seen_at) as first_seen_at
        from from_edges f
        full join visits v on v.prospect_id = f.prospect_id
        full join past_clients pc on pc.prospect_id = coalesce(f.prospect_id, v.prospect_id)
    ),
    kept as materialized (
      -- Materialized once, for the write and for the removal: referenced from the removal's anti-join,
      -- a planner misled by fresh statistics re-ran the whole join once per existing row.
      select p.id as prospect_id, p.full_name, p.company_id, co.size_bucket as company_size, co.industry, co.country,
             co.type as company_type, p.department, p.seniority, p.title as job_title, c.proximity, c.engagement,
             c.connector_ids, c.has_external as has_external_connector, c.mask as signal_mask,
             coalesce(c.first_seen_at, now()) as first_seen_at
        from candidates c
        -- Candidates are people in scope: saying so lets the planner read those few from the index
        -- instead of hashing the whole people table (1.5 s of a 2.2 s step at 1M people).
        join people p on p.workspace_id = ${ws} and p.id = c.prospect_id and ${inScope(scope, 'p.id')}
        left join companies co on co.workspace_id = ${ws} and co.id = p.company_id
       where ${isOutsider(ws, 'p')}
         -- A customer's people are not prospects (their edges stay: a client ally is often one of them).
         and not ${isCrmCompany(ws, 'p.company_id')}
         -- An owner's rows are the prospects their own evidence reaches; the team's rows say the rest.
         ${owner ? sql`and ${owner.personId}::uuid = any(c.connector_ids)` : sql``}
    ),
    fresh as materialized (
      -- The rows that differ from what the table holds: only those are written and summed. A weight
      -- change moved 434,000 of the benchmark's 1M rows; the others cost a comparison, not a write.
      select k.* from kept k
       where not exists (select 1 from ${table} r where r.workspace_id = ${ws} and r.prospect_id = k.prospect_id${ownedByR}
                           and ${sameRow('r', 'k')})
    ),
    written as (
      insert into ${table} as r (workspace_id, ${owner ? sql`user_id, ` : sql``}${sql.raw(ROW_COLUMNS.join(', '))}, first_seen_at)
      select ${ws}::uuid, ${owner ? sql`${owner.userId}::uuid, ` : sql``}f.* from fresh f
      on conflict (workspace_id, ${owner ? sql`user_id, ` : sql``}prospect_id) do update set
             ${sql.raw(
               ROW_COLUMNS.filter((column) => column !== 'prospect_id')
                 .map((column) => `${column} = excluded.${column}`)
                 .join(', '),
             )}
      returning r.prospect_id
    ),
    removed as (
      -- The rows in scope that are no longer kept, as a set difference: it sorts or hashes, and spills to
      -- disk if it must. 'not in (select ... from kept)' is hashed only while the planner believes kept fits
      -- in memory; misled by fresh statistics (29M rows estimated for 1M), it probed kept once per row and
      -- a full roll-up at 1M ran for more than ten minutes instead of two.
      delete from ${table} r
       using (select prospect_id from ${table} where workspace_id = ${ws}${owned} and ${inScope(scope, 'prospect_id')}
              except
              select prospect_id from kept) gone
       where r.workspace_id = ${ws}${ownedByR} and r.prospect_id = gone.prospect_id
      returning 1
    )${
      summaries === 'in-step' && !owner
        ? sql`,
    changes as materialized (
      -- Every statement's CTEs see the rows as they were before it: here, the old values of the rows that
      -- change or go.
      select 1 as sign, ${sql.raw(SUMMED_COLUMNS.join(', '))} from fresh
      union all
      select -1, ${sql.raw(SUMMED_COLUMNS.map((column) => `r.${column}`).join(', '))}
        from network_rows r where r.workspace_id = ${ws} and ${inScope(scope, 'r.prospect_id')}
         and not exists (select 1 from kept k where k.prospect_id = r.prospect_id and ${sameRow('r', 'k')})
    )${summaryDelta(ws)}`
        : sql``
    }
    select (select count(*) from written)::int as written, (select count(*) from removed)::int as removed`;
}

/** The companies that have a network row, counted once per change of the reach (kind 'companies'). */
async function countCompaniesReached(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  await tx.execute(sql`
    insert into network_reach as n (workspace_id, kind, key, rows)
    select ${ws}::uuid, 'companies', ${ws}::uuid, count(*)::int from network_reach
     where workspace_id = ${ws} and kind = 'company'
    on conflict (workspace_id, kind, key) do update set rows = excluded.rows`);
}

/**
 * Rebuilds the workspace's network summaries (the cube and the reach per company and connector) from
 * its network rows, in one transaction: readers see the old summaries or the new, never half.
 */
export async function rebuildNetworkSummaries(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  await tx.execute(sql`delete from network_cube where workspace_id = ${ws}`);
  await tx.execute(sql`
    insert into network_cube (workspace_id, company_size, industry, department, proximity, engagement, signal_mask,
                              has_external_connector, rows)
    select ${ws}::uuid, company_size, industry, department,
           ${proximityBandSql(sql`proximity`, 'floor')}, engagement, signal_mask, has_external_connector, count(*)
      from network_rows where workspace_id = ${ws}
     group by 2, 3, 4, 5, 6, 7, 8`);
  await tx.execute(sql`delete from network_reach where workspace_id = ${ws}`);
  await tx.execute(sql`
    insert into network_reach (workspace_id, kind, key, rows)
    select ${ws}::uuid, 'total', ${ws}::uuid, count(*) from network_rows where workspace_id = ${ws}`);
  await tx.execute(sql`
    insert into network_reach (workspace_id, kind, key, rows)
    select ${ws}::uuid, 'company', company_id, count(*) from network_rows
     where workspace_id = ${ws} and company_id is not null group by company_id`);
  await tx.execute(sql`
    insert into network_reach (workspace_id, kind, key, rows)
    select ${ws}::uuid, 'connector', c.id, count(*) from network_rows r, unnest(r.connector_ids) as c(id)
     where r.workspace_id = ${ws} group by c.id`);
  await countCompaniesReached(tx, ws);
  await tx.execute(sql`delete from network_facets where workspace_id = ${ws}`);
  await tx.execute(sql`
    with source as materialized (
      select company_size, industry, department, proximity, engagement, signal_mask from network_rows
       where workspace_id = ${ws}
    )
    insert into network_facets (workspace_id, field, value, rows)
    select ${ws}::uuid, field, value, sum(weight) from (${facetValues(sql`source`, sql`1`)}) as v group by 2, 3`);
  await tx.execute(sql`delete from network_rank where workspace_id = ${ws}`);
  await tx.execute(sql`
    insert into network_rank (workspace_id, proximity, bucket, rows)
    select ${ws}::uuid, proximity, ${rankBucket(sql`prospect_id`)}, count(*) from network_rows
     where workspace_id = ${ws} group by 2, 3`);
}

/** Whether the workspace's summaries exist (its total does from the first rebuild on), so a difference can apply. */
export async function summariesBuilt(tx: Tx, workspaceId: string) {
  // A workspace with rows has every summary; one from before a summary table existed gets a rebuild.
  const found = await tx.execute<{ built: boolean }>(sql`
    select exists (select 1 from network_reach where workspace_id = ${workspaceId} and kind = 'total')
       and (coalesce((select rows from network_reach where workspace_id = ${workspaceId} and kind = 'total'), 0) = 0
            or (exists (select 1 from network_facets where workspace_id = ${workspaceId})
                and exists (select 1 from network_rank where workspace_id = ${workspaceId}))) as built`);
  return found.rows[0]?.built ?? false;
}
