import {
  type AccountCoverageSort,
  CONNECTION_SOURCES,
  type ConnectionSource,
  engagementOfCode,
  FILTER_OPTION_PAGE_SIZE,
  type NetworkFilterField,
  REPORT_CARD_TREND_POINTS,
  SIGNAL_TYPES,
  signalBit,
  type TClientConnected,
  type TConnector,
  type TNetworkRow,
} from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { executePrepared } from '../../db/prepared.ts';
import {
  edgeDetailShown,
  isConnectorClient,
  membersCte,
  proximityBandSql,
  type RowsViewer,
  rowsSeenBy,
  rowsViewer,
  visibleEdge,
} from '../../graph/graph.sql.ts';
import { type EdgeEvidenceRow, type ProximityModel, proximitySql } from '../../graph/proximity.ts';
import { RANK_BUCKET_SHIFT } from '../../graph/recompute.ts';
import { buildSignals, type SignalEdge, signalMaskSql, WEBSITE_SIGNAL_DAYS } from '../../graph/signals.ts';
import type { CompiledFilters } from './network-filters.ts';

// Reads of the network read model. Every statement runs inside `inWorkspace`, so row-level security
// scopes it whatever its conditions say; the conditions repeat the workspace for the indexes' sake.

/**
 * The table's order, best proximity first. Spelled `nulls last` because that is how its index
 * (network_rows_order_idx, drizzle's `.desc()`) sorts: a plain `desc` means nulls first, which the index
 * cannot serve, and every page became a sort of the whole workspace.
 */
export const NETWORK_ORDER = sql`r.proximity desc nulls last, r.prospect_id`;
const REVERSED_ORDER = sql`r.proximity asc nulls first, r.prospect_id desc`;

export async function countRows(tx: Tx, workspaceId: string, filters: CompiledFilters) {
  if (filters.unfiltered()) {
    // The total kept with the summaries: one row, where even the cube is thousands.
    const total = await tx.execute<{ rows: number }>(
      sql`select rows from network_reach where workspace_id = ${workspaceId} and kind = 'total' and key = ${workspaceId}`,
    );
    if (total.rows[0]) return total.rows[0].rows;
  }
  const { from, count } = filters.counted();
  const result = await tx.execute<{ count: number }>(
    sql`select ${count} as count from ${from} where ${filters.where()}`,
  );
  return result.rows[0]?.count ?? 0;
}

/** Below this offset, reading from the index's start is already quick. */
const RANK_JUMP_FROM = 2000;

/**
 * The ids of one page, best proximity first. A deep page, under no filter or proximity alone, starts
 * where network_rank says its first row is: the rows before it are counted by the summary, not read.
 * Any other deep page past the middle is read from the far end of the index, so the deepest page costs
 * what the middle costs.
 */
export async function pageIds(tx: Tx, filters: CompiledFilters, total: number, page: number, pageSize: number) {
  const offset = (page - 1) * pageSize;
  if (offset >= total) return [];
  if (offset >= RANK_JUMP_FROM && filters.rankable()) {
    const jumped = await pageIdsFromRank(tx, filters, offset, pageSize);
    if (jumped) return jumped;
  }
  const fromEnd = offset > total / 2;
  const result = fromEnd
    ? await tx.execute<{ prospect_id: string }>(sql`
        select r.prospect_id from ${filters.rows} where ${filters.where()} order by ${REVERSED_ORDER}
         limit ${Math.min(pageSize, total - offset)} offset ${Math.max(0, total - offset - pageSize)}`)
    : await tx.execute<{ prospect_id: string }>(sql`
        select r.prospect_id from ${filters.rows} where ${filters.where()} order by ${NETWORK_ORDER}
         limit ${pageSize} offset ${offset}`);
  const ids = result.rows.map((row) => row.prospect_id);
  return fromEnd ? ids.reverse() : ids;
}

/** The lowest id of a network_rank bucket (graph/recompute.ts rankBucket). */
const bucketStart = (bucket: number) =>
  `${(bucket << RANK_BUCKET_SHIFT).toString(16).padStart(2, '0')}000000-0000-0000-0000-000000000000`;

/**
 * A page read from the rank bucket holding its first row: the rows of that proximity from the bucket's
 * first id on, then, if the page goes on, the next proximities. Null when the summary has no such row.
 */
async function pageIdsFromRank(tx: Tx, filters: CompiledFilters, offset: number, pageSize: number) {
  const found = await tx.execute<{ proximity: number; bucket: number; before: number }>(sql`
    with walked as (
      select r.proximity, r.bucket,
             (sum(r.rows) over (order by r.proximity desc, r.bucket rows unbounded preceding) - r.rows)::int as before
        from network_rank r where ${filters.where()}
    )
    select proximity, bucket, before from walked where before <= ${offset}
     order by proximity asc, bucket desc limit 1`);
  const start = found.rows[0];
  if (!start) return null;
  const first = await tx.execute<{ prospect_id: string }>(sql`
    select r.prospect_id from network_rows r
     where ${filters.where()} and r.proximity = ${start.proximity} and r.prospect_id >= ${bucketStart(start.bucket)}::uuid
     order by r.prospect_id limit ${pageSize} offset ${offset - start.before}`);
  const ids = first.rows.map((row) => row.prospect_id);
  if (ids.length < pageSize) {
    const rest = await tx.execute<{ prospect_id: string }>(sql`
      select r.prospect_id from network_rows r where ${filters.where()} and r.proximity < ${start.proximity}
       order by ${NETWORK_ORDER} limit ${pageSize - ids.length}`);
    ids.push(...rest.rows.map((row) => row.prospect_id));
  }
  return ids;
}

type EdgeRow = {
  prospect_id: string;
  connector_id: string;
  colleague: boolean;
  link: number;
  /** For an ally: the team's trust in them (0-1); null for a colleague. */
  trust: number | null;
  path: number;
  meetings: number;
  mails: number;
  shared_months: number;
  linkedin: boolean;
  /** The edge signals it qualifies for. */
  signal_mask: number;
  full_name: string;
  avatar: string | null;
  job_title: string | null;
  company_name: string | null;
  company_logo: string | null;
  tag: string | null;
  owner_id: string | null;
  owner_name: string | null;
  owner_avatar: string | null;
  member_user_id: string | null;
};

/** The connection sources of an edge, in the spec's order. */
export function connectionSources(edge: Pick<EdgeRow, 'meetings' | 'mails' | 'shared_months' | 'linkedin'>) {
  const present: Record<ConnectionSource, boolean> = {
    GOOGLE_MEETING: edge.meetings > 0,
    GOOGLE_MAIL: edge.mails > 0,
    SHARED_EXPERIENCE: edge.shared_months > 0,
    LINKEDIN_CONNECTION: edge.linkedin,
  };
  return CONNECTION_SOURCES.filter((source) => present[source]);
}

/**
 * Every edge of the given prospects with its connector, scored and with the path through allies, as
 * `viewerUserId` may see them: no teammate's private edge, no channel of a strength-only teammate's.
 */
export async function edgesOf(
  tx: Tx,
  workspaceId: string,
  prospectIds: string[],
  model: ProximityModel,
  viewerUserId: string | null,
) {
  if (prospectIds.length === 0) return [];
  const ws = workspaceId;
  const result = await executePrepared<EdgeRow>(
    tx,
    sql`
    with ${membersCte(ws)},
    -- Materialized: each edge's link and visibility computed once (inlined, the link's expression is
    -- computed again for the sort, and a generic plan ran three times as long).
    page_edges as materialized (
      select e.*, ${proximitySql(model, 'e')} as link, ${edgeDetailShown(viewerUserId)} as detail_shown
        from edges e where e.workspace_id = ${ws} and e.prospect_id = any(${sql.param(prospectIds)}::uuid[])
         and ${visibleEdge(viewerUserId)}
    ),
    -- Each connector's details once, however many of the page's prospects they reach (a page of 25
    -- holds about 330 edges from 150 connectors): joined per edge, the lookups were most of the statement.
    page_connectors as materialized (
      select c.connector_id, m.person_id is not null as colleague, m.user_id as member_user_id, t.trust,
             coalesce(u.first_name || ' ' || u.last_name, cp.full_name) as full_name,
             coalesce(u.avatar, cp.avatar_url) as avatar, cp.title as job_title,
             cc.name as company_name, cc.logo_url as company_logo, cl.tag,
             ou.id as owner_id, ou.first_name || ' ' || ou.last_name as owner_name, ou.avatar as owner_avatar
        from (select distinct connector_id from page_edges) c
        join people cp on cp.workspace_id = ${ws} and cp.id = c.connector_id
        left join members m on m.person_id = c.connector_id
        -- The trust the last roll-up computed, the one the rows were scored with (recompute.ts storeAllies),
        -- by key for each of the page's allies: joined, the planner hashed every ally of the workspace (the
        -- 50,000 of an import: 40 ms a page under load).
        left join lateral (
          select a.trust from allies a where a.workspace_id = ${ws} and a.person_id = c.connector_id and m.person_id is null
          offset 0
        ) t on true
        left join users u on u.workspace_id = ${ws} and u.id = m.user_id
        left join companies cc on cc.workspace_id = ${ws} and cc.id = cp.company_id
        left join clients cl on cl.workspace_id = ${ws} and cl.person_id = c.connector_id and ${isConnectorClient('cl')}
        left join users ou on ou.workspace_id = ${ws} and ou.id = cl.contact_owner_user_id
    )
    select e.prospect_id, e.connector_id, c.colleague, c.member_user_id, e.link,
           case when c.colleague then null else coalesce(c.trust, ${model.allyTrustFloor}::float8) end as trust,
           case when c.colleague then e.link
                else round(e.link * coalesce(c.trust, ${model.allyTrustFloor}::float8))::int end as path,
           s.meetings, s.mails, s.shared_months, s.linkedin, ${signalMaskSql('edge')} as signal_mask,
           c.full_name, c.avatar, c.job_title, c.company_name, c.company_logo, c.tag,
           c.owner_id, c.owner_name, c.owner_avatar
      from page_edges e
      join page_connectors c on c.connector_id = e.connector_id
      -- The edge as the signal rules read it (the roll-up's scored edges, recompute.ts).
      -- A strength-only teammate's edge has no channels here, so neither its sources nor its signals name any.
      cross join lateral (
        select c.colleague,
               case when e.detail_shown then e.meetings else 0 end as meetings,
               case when e.detail_shown then e.mails_sent + e.mails_received else 0 end as mails,
               case when e.detail_shown then e.shared_months else 0 end as shared_months,
               e.detail_shown and e.linkedin as linkedin
      ) s
     order by path desc, e.connector_id`,
  );
  return result.rows;
}

type ProspectRow = {
  id: string;
  name: string;
  avatar: string | null;
  linkedin_url: string | null;
  email: string | null;
  company_name: string | null;
  company_logo: string | null;
  company_size: string | null;
  job_title: string | null;
  engagement: number;
  proximity: number;
  signal_mask: number;
  page_views: number;
  last_visit_at: string | null;
  past_company_name: string | null;
  intro_requested_at: Date | null;
};

/** Everything the table shows for the given prospects, in the order of `ids`. */
export async function networkRows(
  tx: Tx,
  caller: { workspaceId: string; userId: string },
  ids: string[],
  model: ProximityModel,
): Promise<TNetworkRow[]> {
  if (ids.length === 0) return [];
  const ws = caller.workspaceId;
  const seen = rowsSeenBy(await rowsViewer(tx, caller));
  const [prospects, edges] = [
    await executePrepared<ProspectRow>(
      tx,
      sql`
      select r.prospect_id as id, p.full_name as name, p.avatar_url as avatar, p.linkedin_url, p.email,
             co.name as company_name, co.logo_url as company_logo, r.company_size, r.job_title,
             r.engagement, r.proximity, r.signal_mask,
             (select count(*)::int from website_events w
               where w.workspace_id = ${ws} and w.person_id = p.id
                 and w.occurred_at > now() - make_interval(days => ${WEBSITE_SIGNAL_DAYS})) as page_views,
             (select max(w.occurred_at)::text from website_events w
               where w.workspace_id = ${ws} and w.person_id = p.id) as last_visit_at,
             (select pc.name from clients c join companies pc on pc.workspace_id = c.workspace_id and pc.id = c.company_id_at_import
               where c.workspace_id = ${ws} and c.person_id = p.id and c.track_job_changes) as past_company_name,
             (select max(a.acted_at) from actions a
               where a.workspace_id = ${ws} and a.prospect_id = p.id and a.owner_user_id = ${caller.userId}
                 and a.type = 'ask-intro' and a.status in ('pending', 'completed') and a.superseded_by is null) as intro_requested_at
        from ${seen}
        join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
        left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
       -- The ids bound both sides: whichever the planner reads first (a workspace fresh in the
       -- statistics is estimated at one row), it never walks the workspace's people.
       where r.workspace_id = ${ws} and r.prospect_id = any(${sql.param(ids)}::uuid[])
         and p.id = any(${sql.param(ids)}::uuid[])`,
    ),
    await edgesOf(tx, ws, ids, model, caller.userId),
  ];
  const byProspect = new Map<string, EdgeRow[]>();
  for (const edge of edges) {
    byProspect.set(edge.prospect_id, [...(byProspect.get(edge.prospect_id) ?? []), edge]);
  }
  const rows = new Map(
    prospects.rows.map((prospect) => {
      const prospectEdges = byProspect.get(prospect.id) ?? [];
      const connectors: TConnector[] = prospectEdges
        .filter((edge) => edge.colleague)
        .map((edge) => ({
          id: edge.connector_id,
          fullName: edge.full_name,
          avatar: edge.avatar,
          jobTitle: edge.job_title,
          connectionSources: connectionSources(edge),
          proximity: edge.path,
          isCurrentUser: edge.member_user_id === caller.userId,
        }));
      const clientsConnected: TClientConnected[] = prospectEdges
        .filter((edge) => !edge.colleague)
        .map((edge) => ({
          id: edge.connector_id,
          name: edge.full_name,
          linkedinProfileImageUrl: edge.avatar,
          companyName: edge.company_name,
          companyLogo: edge.company_logo,
          jobTitle: edge.job_title,
          tag: edge.tag,
          contactOwner:
            edge.owner_id && edge.owner_name
              ? { id: edge.owner_id, fullName: edge.owner_name, avatar: edge.owner_avatar }
              : null,
          connectionSources: connectionSources(edge),
          proximity: edge.path,
        }));
      const signalEdges: SignalEdge[] = prospectEdges.map((edge) => ({
        connectorId: edge.connector_id,
        connectorName: edge.full_name,
        colleague: edge.colleague,
        proximity: edge.path,
        signalMask: edge.signal_mask,
        tag: edge.tag,
      }));
      const row: TNetworkRow = {
        id: prospect.id,
        name: prospect.name,
        avatar: prospect.avatar,
        linkedinUrl: prospect.linkedin_url,
        email: prospect.email,
        companyName: prospect.company_name,
        companyLogo: prospect.company_logo,
        companySize: prospect.company_size,
        jobTitle: prospect.job_title,
        engagement: engagementOfCode(prospect.engagement),
        connectors,
        clientsConnected,
        proximity: prospect.proximity,
        signals: buildSignals({
          prospectId: prospect.id,
          mask: prospect.signal_mask,
          edges: signalEdges,
          pageViews: prospect.page_views,
          lastVisitAt: prospect.last_visit_at ? new Date(prospect.last_visit_at).toISOString() : null,
          pastCompanyName: prospect.past_company_name,
          newCompanyName: prospect.company_name,
        }),
        introRequestedAt: prospect.intro_requested_at ? new Date(prospect.intro_requested_at).toISOString() : null,
      };
      return [prospect.id, row] as const;
    }),
  );
  return ids.flatMap((id) => rows.get(id) ?? []);
}

export type FacetCount = { key: string; count: number };

/** Counts per value of a plain column among the rows matching every other filter. */
/** A low-cardinality filter's option counts with no other filter on: kept with the summaries. */
async function facetCounts(tx: Tx, filters: CompiledFilters, field: NetworkFilterField) {
  const result = await tx.execute<FacetCount>(sql`
    select value as key, rows as count from network_facets where workspace_id = ${filters.workspaceId} and field = ${field}`);
  return result.rows;
}

export async function countBy(tx: Tx, filters: CompiledFilters, field: NetworkFilterField, column: string) {
  if (filters.unfiltered(field)) return facetCounts(tx, filters, field);
  const { from, count } = filters.counted(field);
  const result = await tx.execute<FacetCount>(sql`
    select ${sql.raw(column)} as key, ${count} as count from ${from}
     where ${filters.where(field)} and ${sql.raw(column)} is not null group by 1`);
  return result.rows;
}

export async function countByProximityBand(tx: Tx, filters: CompiledFilters) {
  if (filters.unfiltered('proximity')) return facetCounts(tx, filters, 'proximity');
  const { from, count } = filters.counted('proximity');
  const result = await tx.execute<FacetCount>(sql`
    select ${proximityBandSql(sql`r.proximity`, 'name')} as key,
           ${count} as count
      from ${from} where ${filters.where('proximity')} group by 1`);
  return result.rows;
}

export async function countByEngagement(tx: Tx, filters: CompiledFilters) {
  if (filters.unfiltered('engagement')) return facetCounts(tx, filters, 'engagement');
  const { from, count } = filters.counted('engagement');
  const result = await tx.execute<{ level: number; count: number }>(sql`
    select r.engagement as level, ${count} as count from ${from}
     where ${filters.where('engagement')} group by 1`);
  return result.rows.map((row) => ({ key: engagementOfCode(row.level), count: row.count }));
}

/** How many rows have each signal. */
export async function countBySignal(tx: Tx, filters: CompiledFilters): Promise<FacetCount[]> {
  if (filters.unfiltered('signal')) return facetCounts(tx, filters, 'signal');
  const { from, weight } = filters.counted('signal');
  const sums = SIGNAL_TYPES.map(
    (type) => sql`coalesce(sum(${weight}) filter (where (r.signal_mask & ${signalBit(type)}) <> 0), 0)::int`,
  );
  const result = await tx.execute<{ counts: number[] }>(sql`
    select array[${sql.join(sums, sql`, `)}] as counts from ${from} where ${filters.where('signal')}`);
  const counts = result.rows[0]?.counts ?? [];
  return SIGNAL_TYPES.map((type, index) => ({ key: type, count: counts[index] ?? 0 }));
}

/**
 * Connectors (colleagues and mapped allies) with the rows each reaches among the filtered ones, counted
 * here or given (by the in-memory network index): a page of them, most rows first, and a row more (to
 * tell whether there are more).
 */
export async function connectorOptions(
  tx: Tx,
  workspaceId: string,
  filters: CompiledFilters | FacetCount[],
  searchPattern: string | null,
) {
  const ws = workspaceId;
  // A Private member is a connector on their own rows (the memory copy, a list of counts, is never theirs).
  const ownRowsOf = Array.isArray(filters) || !filters.viewer.ownRows ? null : filters.viewer.userId;
  // A client is an ally (a connector) by the graph's rule, unless they are a member: a colleague then.
  // 'not in' is a hashed subplan; a 'not exists' under the OR below scanned every member for each row.
  const allyClient = sql`c.workspace_id = ${ws} and ${isConnectorClient('c')}
                         and c.person_id not in (select person_id from members)`;
  const result = await tx.execute<{
    key: string;
    name: string;
    avatar: string | null;
    company_name: string | null;
    tag: string | null;
    count: number;
  }>(sql`
    with ${membersCte(ws)},
    -- A private member is nobody's connector but their own (their rows are theirs alone: recompute.ts).
    colleagues as (
      select m.person_id as id, u.first_name || ' ' || u.last_name as name, u.avatar, 'internal' as tag
        from members m join users u on u.workspace_id = ${ws} and u.id = m.user_id
       where m.sharing <> 'private' or m.user_id = ${ownRowsOf}::uuid
    ),
    counts as (
      ${
        Array.isArray(filters)
          ? sql`select * from unnest(${sql.param(filters.map((entry) => entry.key))}::uuid[],
                                     ${sql.param(filters.map((entry) => entry.count))}::int[]) as c(id, count)`
          : filters.unfiltered('connector')
            ? sql`select key as id, rows as count from network_reach where workspace_id = ${ws} and kind = 'connector'`
            : sql`select u.id, count(*)::int as count
                    from ${filters.rows}, unnest(r.connector_ids) as u(id)
                   where ${filters.where('connector')}
                   group by u.id`
      }
    ),
    -- Those who reach a row, looked up by their ids (the thousands who know somebody, not every ally):
    -- their clients row by its index, one lookup each; joined, the planner hashed every client of the
    -- workspace (15 of 22 ms with 50,000 allies of whom 672 reach somebody, 2026-11-27).
    reaching as (
      select counts.id, coalesce(cl.name, p.full_name) as name, case when cl.id is null then p.avatar_url else cl.avatar end as avatar,
             coalesce(cl.tag, c.tag, 'ally') as tag, counts.count, p.company_id
        from counts
        join people p on p.workspace_id = ${ws} and p.id = counts.id
        left join colleagues cl on cl.id = counts.id
        left join lateral (select c.id, c.tag from clients c where c.person_id = counts.id and ${allyClient} offset 0) c on true
       where cl.id is not null or c.id is not null
    ),
    first_reaching as (
      select * from reaching
       where ${searchPattern === null ? sql`true` : sql`name ilike ${searchPattern}`}
       order by count desc, name, id limit ${FILTER_OPTION_PAGE_SIZE + 1}
    ),
    -- Then those who reach nobody under the filters, by name: only when the page is not full already, so
    -- that a team's tens of thousands of allies who know nobody yet are not read for every filter bar.
    first_idle as (
      select cp.id, cp.name, cp.avatar, cp.tag, 0 as count, p.company_id
        from (select id, name, avatar, tag from colleagues
              union all
              select c.person_id, p.full_name, p.avatar_url, coalesce(c.tag, 'ally')
                from clients c join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
               where ${allyClient}) cp
        join people p on p.workspace_id = ${ws} and p.id = cp.id
       where (select count(*) from first_reaching) <= ${FILTER_OPTION_PAGE_SIZE}
         and not exists (select 1 from counts where counts.id = cp.id)
         and ${searchPattern === null ? sql`true` : sql`cp.name ilike ${searchPattern}`}
       order by cp.name, cp.id limit ${FILTER_OPTION_PAGE_SIZE + 1}
    )
    select o.id as key, o.name, o.avatar, co.name as company_name, o.tag, o.count
      from (select * from first_reaching union all select * from first_idle) o
      left join companies co on co.workspace_id = ${ws} and co.id = o.company_id
     order by o.count desc, o.name, o.id
     limit ${FILTER_OPTION_PAGE_SIZE + 1}`);
  return result.rows;
}

/** One page of companies, most prospects first (ties by id, so pages never overlap). */
export async function companyOptions(
  tx: Tx,
  workspaceId: string,
  filters: CompiledFilters,
  page: number,
  searchPattern: string | null,
) {
  const limit = sql`limit ${FILTER_OPTION_PAGE_SIZE + 1} offset ${(page - 1) * FILTER_OPTION_PAGE_SIZE}`;
  const unfiltered = filters.unfiltered('companyName');
  const counts = unfiltered
    ? // In the order of network_reach_top_idx, paged right there when no name is searched: the first
      // page reads the index's first rows, not every company's.
      sql`select key as company_id, rows as count from network_reach
           where workspace_id = ${workspaceId} and kind = 'company'
           order by rows desc, key ${searchPattern === null ? limit : sql``}`
    : sql`select r.company_id, count(*)::int as count from ${filters.rows}
           where ${filters.where('companyName')} and r.company_id is not null
           group by r.company_id`;
  const result = await tx.execute<{ key: string; name: string; logo: string | null; count: number }>(sql`
    select co.id as key, co.name, co.logo_url as logo, counts.count
      from (${counts}) counts
      join companies co on co.workspace_id = ${workspaceId} and co.id = counts.company_id
     where ${searchPattern === null ? sql`true` : sql`co.name ilike ${searchPattern}`}
     order by counts.count desc, co.id
     ${unfiltered && searchPattern === null ? sql`` : limit}`);
  return result.rows;
}

/** Companies by id, in the order given: the options of the in-memory network index's company page. */
export async function companiesNamed(tx: Tx, workspaceId: string, counts: FacetCount[]) {
  const result = await tx.execute<{ key: string; name: string; logo: string | null; count: number }>(sql`
    select co.id as key, co.name, co.logo_url as logo, c.count
      from unnest(${sql.param(counts.map((entry) => entry.key))}::uuid[], ${sql.param(counts.map((entry) => entry.count))}::int[])
           with ordinality as c(id, count, position)
      join companies co on co.workspace_id = ${workspaceId} and co.id = c.id
     order by c.position`);
  return result.rows;
}

/** Prospects by id, in the order given, as the name facet shows them. */
export async function peopleNamed(tx: Tx, workspaceId: string, ids: string[]) {
  const result = await tx.execute<PersonOption>(sql`
    select r.prospect_id as key, r.full_name as name, p.avatar_url as avatar, co.name as company_name
      from unnest(${sql.param(ids)}::uuid[]) with ordinality as page(id, position)
      join network_rows r on r.workspace_id = ${workspaceId} and r.prospect_id = page.id
      join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
      left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
     order by page.position`);
  return result.rows;
}

type PersonOption = { key: string; name: string; avatar: string | null; company_name: string | null };

/** One page of prospects by name. */
export async function personOptions(tx: Tx, filters: CompiledFilters, page: number, searchPattern: string | null) {
  const result = await tx.execute<PersonOption>(sql`
    select r.prospect_id as key, r.full_name as name, p.avatar_url as avatar, co.name as company_name
      from ${filters.rows}
      join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
      left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
     where ${filters.where('personName')}
       and ${searchPattern === null ? sql`true` : sql`r.full_name ilike ${searchPattern}`}
     order by r.full_name, r.prospect_id
     limit ${FILTER_OPTION_PAGE_SIZE + 1} offset ${(page - 1) * FILTER_OPTION_PAGE_SIZE}`);
  return result.rows;
}

/** The growth from `before` to `now` in percent; 0 without a base (see ZReportCard's percentage). */
const growth = (now: number, before: number) => (before === 0 ? 0 : Math.round(((now - before) / before) * 1000) / 10);

/** How old the report cards' stored trends may be: they move by the day. */
const GROWTH_MAX_AGE = sql`interval '1 hour'`;
/** The days of a trend before today; today's point is the live amount. */
const TREND_DAYS = REPORT_CARD_TREND_POINTS - 1;

/**
 * The first point of a trend that counts something first seen at `since`: point k (0 to 30, oldest
 * first) counts what was first seen before now - (30 - k) days, so this is how many of those 30
 * instants are at or before `since` (0 for anything older than 30 days; 30 only today's live count
 * holds). width_bucket finds it by a binary search of timestamps: no arithmetic per row.
 */
const firstPoint = (since: SQL) =>
  sql`width_bucket(${since}, array(select now() - (${TREND_DAYS} - p) * interval '1 day'
                                     from generate_series(0, ${TREND_DAYS - 1}) p order by p))`;

/**
 * The cumulative amounts of points 0 to 29 from per-first-point counts `days` (k, n): one join and a
 * running sum (a subquery per point would read the rows once per day).
 */
const cumulated = (days: SQL) =>
  sql`array(select (sum(coalesce(d.n, 0)) over (order by g.p))::int
               from generate_series(0, ${TREND_DAYS - 1}) g(p) left join ${days} d on d.k = g.p order by g.p)`;

const noDays = () => Array.from({ length: TREND_DAYS }, () => 0);

type StoredTrends = { prospects_trend: number[]; companies_trend: number[]; connectors_trend: number[] };

/** The advisory lock class of a workspace's growth trends: one transaction at a time reads every row for them. */
export const GROWTH_LOCK_CLASS = 7262014;

/**
 * The prospects, companies (by their first prospect) and connectors (by when they joined: a member's
 * account, an ally's clients row) on each of the last 30 days, oldest first, without today: from
 * network_growth while fresh; otherwise read from every row once (the company index alone holds what
 * it needs) and kept for the next hour. The graph job calls it after each
 * recompute, so page views rarely pay for the read. When they do, one reads (seconds at 1M prospects)
 * and the others show the stored trend meanwhile: every page view that found it stale used to read at
 * once (five of 3.9 s each on two cores in the scale bench, 2026-11-26).
 */
export async function growthTrends(tx: Tx, workspaceId: string): Promise<StoredTrends> {
  const ws = workspaceId;
  const stored = async () =>
    (
      await tx.execute<StoredTrends & { fresh: boolean }>(sql`
        select prospects_trend, companies_trend, connectors_trend, computed_at > now() - ${GROWTH_MAX_AGE} as fresh
          from network_growth where workspace_id = ${ws}`)
    ).rows[0];
  const kept = await stored();
  if (kept?.fresh) return kept;
  if (kept) {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${GROWTH_LOCK_CLASS}, hashtext(${ws})) as locked`,
    );
    if (!rows[0]?.locked) return kept;
  } else {
    // Nothing to show meanwhile: wait for whoever is reading, then take what they wrote.
    await tx.execute(sql`select pg_advisory_xact_lock(${GROWTH_LOCK_CLASS}, hashtext(${ws}))`);
  }
  const now = await stored();
  if (now?.fresh) return now;
  const computed = await tx.execute<StoredTrends>(sql`
    with ${membersCte(ws)},
    prospect_days as materialized (
      select ${firstPoint(sql`r.first_seen_at`)} as k, count(*) as n from network_rows r
       where r.workspace_id = ${ws} group by 1
    ),
    company_days as materialized (
      select ${firstPoint(sql`c.since`)} as k, count(*) as n
        from (select min(r.first_seen_at) as since from network_rows r
               where r.workspace_id = ${ws} and r.company_id is not null group by r.company_id) c
       group by 1
    ),
    -- The allies as the graph last rolled them up (the allies table), as the live amount counts them.
    connector_days as materialized (
      select ${firstPoint(sql`c.since`)} as k, count(*) as n
        from (select u.created_at as since from members m join users u on u.workspace_id = ${ws} and u.id = m.user_id
              union all
              select a.since from allies a where a.workspace_id = ${ws}) c
       group by 1
    )
    insert into network_growth as g (workspace_id, prospects_trend, companies_trend, connectors_trend, computed_at)
    select ${ws}::uuid, ${cumulated(sql`prospect_days`)}, ${cumulated(sql`company_days`)},
           ${cumulated(sql`connector_days`)}, now()
    on conflict (workspace_id) do update set prospects_trend = excluded.prospects_trend,
           companies_trend = excluded.companies_trend, connectors_trend = excluded.connectors_trend,
           computed_at = excluded.computed_at
    returning prospects_trend, companies_trend, connectors_trend`);
  return computed.rows[0] ?? { prospects_trend: noDays(), companies_trend: noDays(), connectors_trend: noDays() };
}

/**
 * Report cards: prospects, connectors and companies now, each with its last 30 days (one point a
 * day, today's the amount) and its growth from the first point to the last.
 */
export async function reportCards(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  const now = await tx.execute<{ prospects: number; connectors: number; companies: number; updating: boolean }>(
    sql`
    with ${membersCte(ws)}
    select coalesce((select rows from network_reach where workspace_id = ${ws} and kind = 'total'),
                    (select count(*)::int from network_rows r where r.workspace_id = ${ws})) as prospects,
           -- The members, and the allies as the graph last rolled them up, like the prospects and companies
           -- ('updating' says when it is behind). Applying the ally rule here read every client and a person
           -- per tracked one (80 ms a view with an import's 50,000 clients under load, 2026-11-27).
           (select count(*) from members)::int + (select count(*) from allies where workspace_id = ${ws})::int as connectors,
           -- Counted by the graph job; a network built before it kept that count is counted here.
           coalesce((select rows from network_reach where workspace_id = ${ws} and kind = 'companies'),
                    (select count(*)::int from network_reach where workspace_id = ${ws} and kind = 'company')) as companies,
           exists (select 1 from graph_dirty where workspace_id = ${ws}) as updating`,
  );
  const row = now.rows[0];
  const trends = await growthTrends(tx, ws);
  const card = (amount: number, days: number[]) => {
    const trend = [...days, amount];
    return { amount, percentage: growth(amount, trend[0] ?? 0), trend };
  };
  return {
    networkRelationships: card(row?.prospects ?? 0, trends.prospects_trend),
    networkConnections: card(row?.connectors ?? 0, trends.connectors_trend),
    networkCompanies: card(row?.companies ?? 0, trends.companies_trend),
    updating: row?.updating ?? false,
  };
}

/** A prospect's proximity as `viewer` sees it, or null when the workspace has no such prospect. */
export async function prospectProximity(tx: Tx, viewer: RowsViewer, prospectId: string) {
  const row = await tx.execute<{ proximity: number }>(
    sql`select r.proximity from ${rowsSeenBy(viewer)} where r.workspace_id = ${viewer.workspaceId} and r.prospect_id = ${prospectId}`,
  );
  return row.rows[0]?.proximity ?? null;
}

/** A connector's edge to a prospect with its evidence, who the connector is, and the database's clock. */
export type ConnectorEdge = EdgeEvidenceRow & {
  connector_id: string;
  name: string;
  colleague: boolean;
  owner_name: string | null;
  shared_company: string | null;
  now: Date;
  /** False for a strength-only teammate's edge: its evidence is used for the score, never shown. */
  detail_shown: boolean;
  /** The viewer's own edge: their picture draws the path from them directly. */
  is_viewer: boolean;
};

/** Each connector's edge to a prospect (`ConnectorEdge`) that `viewerUserId` may see (`visibleEdge`). */
export async function connectorEdges(tx: Tx, workspaceId: string, prospectId: string, viewerUserId: string) {
  const ws = workspaceId;
  const edges = await tx.execute<ConnectorEdge>(sql`
    with ${membersCte(ws)}
    select e.*, now() as now, ${edgeDetailShown(viewerUserId)} as detail_shown,
           coalesce(m.user_id = ${viewerUserId}, false) as is_viewer,
           coalesce(u.first_name || ' ' || u.last_name, p.full_name) as name,
           m.person_id is not null as colleague, ou.first_name || ' ' || ou.last_name as owner_name,
           sc.name as shared_company
      from edges e
      join people p on p.workspace_id = e.workspace_id and p.id = e.connector_id
      left join members m on m.person_id = e.connector_id
      left join users u on u.workspace_id = e.workspace_id and u.id = m.user_id
      left join clients c on c.workspace_id = e.workspace_id and c.person_id = e.connector_id and ${isConnectorClient('c')}
      left join users ou on ou.workspace_id = e.workspace_id and ou.id = c.contact_owner_user_id
      left join companies sc on sc.workspace_id = e.workspace_id and sc.id = e.shared_company_id
     where e.workspace_id = ${ws} and e.prospect_id = ${prospectId} and ${visibleEdge(viewerUserId)}`);
  return edges.rows;
}

type CoverageRow = {
  company_id: string;
  company_name: string;
  company_logo: string | null;
  prospects: number;
  warm: number;
  has_path: boolean;
  best_connector_id: string | null;
  best_connector_name: string | null;
  best_colleague: boolean | null;
  best_proximity: number | null;
  best_prospect_name: string | null;
};

const COVERAGE_ORDER: Record<AccountCoverageSort, SQL> = {
  prospects: sql`prospects desc, lower(company_name), company_id`,
  warm: sql`warm desc, prospects desc, lower(company_name), company_id`,
  name: sql`lower(company_name), company_name, company_id`,
};

/**
 * One page of the workspace's target accounts with their coverage, in one statement. Counted over the
 * network rows under `rows` (the table's conditions for the caller, no filter chosen); `warm` is the
 * table's conditions under the warm proximity filter, so each count is the table's total for the
 * same company and filters. Only the page's accounts look for their best connector: the first
 * connector of the closest reachable prospect (`connector_ids` is ordered closest first, recompute.ts).
 */
export async function accountCoverage(
  tx: Tx,
  rows: CompiledFilters,
  warm: CompiledFilters,
  options: { sort: AccountCoverageSort; noPath: boolean; page: number; pageSize: number },
) {
  const ws = rows.workspaceId;
  const result = await tx.execute<{ total: number; rows: CoverageRow[] }>(sql`
    with ${membersCte(ws)},
    targets as (
      select a.company_id, co.name as company_name, co.logo_url as company_logo
        from accounts a join companies co on co.workspace_id = a.workspace_id and co.id = a.company_id
       where a.workspace_id = ${ws}
    ),
    counts as (
      -- One pass over the target companies' rows (network_rows_company_idx, from the index alone), grouped.
      select r.company_id, count(*)::int as prospects, (count(*) filter (where ${warm.where()}))::int as warm,
             bool_or(cardinality(r.connector_ids) > 0) as has_path
        from ${rows.rows}
       where ${rows.where()} and r.company_id in (select company_id from targets)
       group by r.company_id
    ),
    covered as materialized (
      select t.company_id, t.company_name, t.company_logo, coalesce(c.prospects, 0) as prospects,
             coalesce(c.warm, 0) as warm, coalesce(c.has_path, false) as has_path
        from targets t left join counts c on c.company_id = t.company_id
       where ${options.noPath ? sql`not coalesce(c.has_path, false)` : sql`true`}
    ),
    page as (
      select * from covered order by ${COVERAGE_ORDER[options.sort]}
       limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}
    ),
    described as (
      select p.*, best.connector_id as best_connector_id, best.full_name as best_prospect_name,
             best.proximity as best_proximity, m.person_id is not null as best_colleague,
             trim(coalesce(u.first_name || ' ' || u.last_name, cp.full_name)) as best_connector_name
        from page p
        left join lateral (
          -- A plain desc (proximity is never null, so the same order): the order index cannot serve it,
          -- so the company's rows are read by network_rows_company_idx and sorted, never the whole
          -- workspace walked from its closest row until one of this company's turns up.
          select r.full_name, r.proximity, r.connector_ids[1] as connector_id from ${rows.rows}
           where ${rows.where()} and r.company_id = p.company_id and cardinality(r.connector_ids) > 0
           order by r.proximity desc, r.prospect_id limit 1
        ) best on p.has_path
        left join members m on m.person_id = best.connector_id
        left join users u on u.workspace_id = ${ws} and u.id = m.user_id
        left join people cp on cp.workspace_id = ${ws} and cp.id = best.connector_id
    )
    select (select count(*)::int from covered) as total,
           coalesce((select json_agg(d order by ${COVERAGE_ORDER[options.sort]}) from described d), '[]'::json) as rows`);
  return result.rows[0] ?? { total: 0, rows: [] };
}
