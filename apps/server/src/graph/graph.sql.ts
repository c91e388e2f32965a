import { PROXIMITY_BANDS } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { MAX_PARTICIPANTS } from './proximity.ts';

// SQL fragments the graph's statements share: who the members and connectors are, and who is an
// outsider (a possible prospect). One place for each rule.

/**
 * Each member's own person record (users.person_id, kept by triggers: the person with the member's
 * e-mail), with the member's user id and sharing level (`sharing`: 'all', 'strength' or 'private', see
 * users.sharing_level). Read from the members' rows alone: looking each member up on people's e-mail
 * index cost a page of the network 1.5 ms for 250 members, in every statement that asked.
 */
export const membersCte = (workspaceId: string) => sql`
  members as (
    select u.person_id, u.id as user_id, u.sharing_level as sharing
      from users u
     where u.workspace_id = ${workspaceId} and u.person_id is not null
  )`;

/**
 * Whether the tracked client `c` (a clients row) whose person is `p` works elsewhere now: their current
 * company is not the one the team recorded them at. The PAST_CLIENT signal's rule (recompute.ts) and,
 * through `isConnectorClient`, what makes a past client a path into their new company.
 */
export const clientMoved = (client: string, person: string) => {
  const [c, p] = [sql.raw(client), sql.raw(person)];
  return sql`(${c}.track_job_changes and ${c}.company_id_at_import is not null
              and ${p}.company_id is not null and ${p}.company_id <> ${c}.company_id_at_import)`;
};

/**
 * Whether the clients row `client` is a connector (an ally): the team maps their network
 * (map_network), or they are a past client now at another company (`clientMoved`), whose new
 * colleagues they can introduce us to. The one rule every reader of 'who is an ally' uses; map_network
 * alone keeps meaning what was stored: whom the team chose to map (imports, the Allies list, share
 * links). Clients are few: the person is looked up by primary key once per clients row the rule is
 * asked about, so ask it of the clients table or of a page's rows, never of every edge of a workspace.
 */
export const isConnectorClient = (client: string) => {
  const c = sql.raw(client);
  return sql`(${c}.map_network
    or ${c}.track_job_changes and exists (
         select 1 from people client_person where client_person.workspace_id = ${c}.workspace_id
                                          and client_person.id = ${c}.person_id
            and ${clientMoved(client, 'client_person')}))`;
};

/**
 * Connectors: members (colleagues) and client allies (`isConnectorClient`). Needs `members`. Every
 * member's edges are built, a private one's too (their evidence still helps them); what others may see of them is
 * decided where edges are read (`visibleEdge`) and rolled up (recompute.ts, `connector_factor`).
 */
export const connectorsCte = (workspaceId: string) => sql`
  connectors as (
    select person_id, true as colleague from members
    union
    select c.person_id, false from clients c
     where c.workspace_id = ${workspaceId} and ${isConnectorClient('c')}
       and not exists (select 1 from members m where m.person_id = c.person_id)
  )`;

/**
 * A person outside the team: not a member, and not at one of the workspace's own domains (a colleague
 * who has not signed up yet is still a colleague). Needs `members`.
 */
export const isOutsider = (workspaceId: string, person: string) => sql`
  not exists (select 1 from members m where m.person_id = ${sql.raw(person)}.id)
  and (${sql.raw(person)}.email is null
       or split_part(${sql.raw(person)}.email, '@', 2) <> all(
            coalesce((select w.domains from workspaces w where w.id = ${workspaceId}), '{}'::text[])))`;

/**
 * Whether a company is one the team already sells to or excludes: a CRM customer (CSV, `crm_clients`)
 * or a company of a chosen HubSpot list (`crm_list_companies`). Its people are never prospects.
 */
export const isCrmCompany = (workspaceId: string | SQL, companyId: string) => sql`(
  exists (select 1 from crm_clients cc where cc.workspace_id = ${workspaceId} and cc.company_id = ${sql.raw(companyId)})
  or exists (select 1 from crm_list_companies lc
              where lc.workspace_id = ${workspaceId} and lc.company_id = ${sql.raw(companyId)}))`;

/** Which people a statement works on: a list of ids, or everyone. */
export type Scope = { personIds: readonly string[] } | 'all';
export const inScope = (scope: Scope, column: string): SQL =>
  scope === 'all' ? sql`true` : sql`${sql.raw(column)} = any(${sql.param([...scope.personIds])}::uuid[])`;

export const maxParticipants = sql.raw(String(MAX_PARTICIPANTS));

/** A proximity's band (PROXIMITY_BANDS), as `name` or as its lower bound (`floor`, the cube's cell). */
export const proximityBandSql = (proximity: SQL, as: 'name' | 'floor') =>
  sql`case ${sql.join(
    [...PROXIMITY_BANDS]
      .reverse()
      .map(
        (band) =>
          sql`when ${proximity} >= ${sql.raw(String(band.min))} then ${sql.raw(as === 'name' ? `'${band.name}'` : String(band.min))}`,
      ),
    sql` `,
  )} end`;

/**
 * The privacy rule of issue 22, in one place for every reader of edges (needs `members`): whether the
 * edge `e` of a connector may be shown to `viewerUserId` at all. A private member's edges are theirs
 * alone; with no viewer (workflows, webhooks, events: everyone may read them) nobody's private edge is.
 */
export const visibleEdge = (viewerUserId: string | null, edge = 'e') => sql`
  ${sql.raw(edge)}.connector_id not in (${membersSharing('private', viewerUserId)})`;

/**
 * Whether `viewerUserId` may see the channels, counts and dates of the edge `e` (needs `members`):
 * not when its connector is a teammate who shares strength only.
 */
export const edgeDetailShown = (viewerUserId: string | null, edge = 'e') => sql`
  ${sql.raw(edge)}.connector_id not in (${membersSharing('strength', viewerUserId)})`;

/**
 * The person ids of the members other than `viewerUserId` who share at `level`, for a 'not in': a
 * hashed subplan, built once per statement. A correlated 'not exists' scanned every member for each
 * edge (275 members and 400 edges: 22 ms of a table page's 60). Members' person ids are never null.
 */
const membersSharing = (level: 'private' | 'strength', viewerUserId: string | null) => sql`
  select person_id from members where sharing = ${level} and user_id is distinct from ${viewerUserId}::uuid`;

/** A network row's columns as the roll-up writes them (first_seen_at aside: it stays from the first time). */
export const ROW_COLUMNS = [
  'prospect_id',
  'full_name',
  'company_id',
  'company_size',
  'industry',
  'country',
  'company_type',
  'department',
  'seniority',
  'job_title',
  'proximity',
  'engagement',
  'connector_ids',
  'has_external_connector',
  'signal_mask',
];

/** Whose network rows a reader reads: a member's (with whether they are Private), or nobody's (the team's). */
export type RowsViewer = { workspaceId: string; userId: string; ownRows: boolean };

/** Each transaction's viewers, by user: a network page asks two or three times (its copy, its filters, its rows). */
const viewersOf = new WeakMap<Tx, Map<string, Promise<RowsViewer>>>();

/**
 * The caller as a reader of network rows: a Private member reads their own rows where they have them
 * (own_network_rows), everyone else the team's. Read once per transaction: a sharing level changed
 * meanwhile is seen by the caller's next request.
 */
export function rowsViewer(tx: Tx, caller: { workspaceId: string; userId: string }): Promise<RowsViewer> {
  const known = viewersOf.get(tx) ?? new Map<string, Promise<RowsViewer>>();
  viewersOf.set(tx, known);
  const key = `${caller.workspaceId}:${caller.userId}`;
  const cached = known.get(key);
  if (cached) return cached;
  const viewer = tx
    .execute<{ private: boolean }>(sql`
      select sharing_level = 'private' as private from users where workspace_id = ${caller.workspaceId} and id = ${caller.userId}`)
    .then((found) => ({
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      ownRows: found.rows[0]?.private ?? false,
    }));
  known.set(key, viewer);
  return viewer;
}

/**
 * The network rows as `viewer` sees them, aliased `r`. A Private member's evidence is left out of the
 * team's rows (recompute.ts) but still helps them: for the prospects it reaches, their own rows stand in
 * for the team's, and a prospect only they know is there at all (issue 22). Everyone else reads the
 * team's table as it is, with its indexes and summaries.
 */
export function rowsSeenBy(viewer: RowsViewer): SQL {
  if (!viewer.ownRows) return sql`network_rows r`;
  const ws = viewer.workspaceId;
  const columns = sql.join(
    ['workspace_id', ...ROW_COLUMNS, 'first_seen_at'].map((column) => sql`n.${sql.identifier(column)}`),
    sql`, `,
  );
  return sql`(
    select ${columns} from network_rows n
     where n.workspace_id = ${ws}
       and not exists (select 1 from own_network_rows o
                        where o.workspace_id = ${ws} and o.user_id = ${viewer.userId} and o.prospect_id = n.prospect_id)
    union all
    select ${columns} from own_network_rows n where n.workspace_id = ${ws} and n.user_id = ${viewer.userId}
  ) r`;
}
