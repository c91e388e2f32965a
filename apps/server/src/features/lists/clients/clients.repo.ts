import { engagementOfCode, type TClient, type TDeparture, type TJobChange } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { mergeNamelessCompanies, nameReplaces } from '../../../graph/company-names.ts';
import { engagementCodeSql } from '../../../graph/engagement.ts';
import { membersCte } from '../../../graph/graph.sql.ts';
import { type ProximityModel, proximitySql } from '../../../graph/proximity.ts';

// Clients and allies (spec section 3), with what their contact cards show.

export type ClientList = 'all' | 'allies' | 'tracked';

type ClientRow = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  full_name: string;
  email: string | null;
  linkedin_url: string | null;
  avatar_url: string | null;
  company_name: string | null;
  company_domain: string | null;
  company_logo: string | null;
  contact_owner_email: string | null;
  tag: string | null;
  source: TClient['source'];
  map_network: boolean;
  track_job_changes: boolean;
  engagement: number;
  proximity: number;
};

/** Names recorded before clients kept first and last names: split at the first space. */
function names(row: ClientRow) {
  if (row.first_name !== null && row.last_name !== null) return { firstName: row.first_name, lastName: row.last_name };
  const [first = '', ...rest] = row.full_name.split(' ');
  return { firstName: first, lastName: rest.join(' ') };
}

const toClient = (row: ClientRow): TClient => ({
  id: row.id,
  ...names(row),
  email: row.email,
  companyName: row.company_name,
  companyDomain: row.company_domain,
  linkedinUrl: row.linkedin_url,
  contactOwner: row.contact_owner_email,
  tag: row.tag,
  source: row.source,
  mapNetwork: row.map_network,
  trackJobChanges: row.track_job_changes,
  detailedClientData: {
    clientFullName: row.full_name,
    clientImage: row.avatar_url,
    clientCompanyName: row.company_name,
    clientCompanyImage: row.company_logo,
  },
  engagement: engagementOfCode(row.engagement),
  proximity: row.proximity,
});

const LIST_FILTER: Record<ClientList, SQL> = {
  all: sql`true`,
  allies: sql`cl.map_network`,
  tracked: sql`cl.track_job_changes`,
};

/**
 * The clients matching `where` (aliases cl, p, co), ordered and cut by `tail`. Engagement is the
 * person's as a prospect; proximity too, except for a mapped ally: its own best link to a member, the
 * trust its network is weighted by. The page is chosen first and the best link looked up for its rows
 * only: computed before the limit, it cost every client of the workspace on every page (issue 23).
 */
function selectClients(workspaceId: string, model: ProximityModel, where: SQL, tail: SQL) {
  return sql`
    with ${membersCte(workspaceId)},
    -- Computed once: inlined into the per-row lookup below, it looked every member up again for each row.
    -- A private member's links to an ally are theirs alone, like the team's trust in the ally (trustSql).
    member_people as materialized (select person_id from members where sharing <> 'private'),
    page as (
      select cl.id, cl.person_id, cl.map_network, cl.created_at, p.full_name, p.email, p.linkedin_url,
             p.avatar_url, co.name as company_name, co.domain as company_domain, co.logo_url as company_logo
        from ${CLIENTS_WITH_PEOPLE}
       where cl.workspace_id = ${workspaceId} and ${where}
       ${tail}
    )
    select cl.id, cl.first_name, cl.last_name, pg.full_name, pg.email, pg.linkedin_url, pg.avatar_url,
           pg.company_name, pg.company_domain, pg.company_logo,
           cl.contact_owner_email, cl.tag, cl.source, cl.map_network, cl.track_job_changes,
           coalesce(nr.engagement, ${engagementCodeSql('NEVER_MET')})::int as engagement,
           coalesce(case when cl.map_network then best.proximity else nr.proximity end, 0)::int as proximity
      from page pg
      join clients cl on cl.workspace_id = ${workspaceId} and cl.id = pg.id
      left join network_rows nr on nr.workspace_id = ${workspaceId} and nr.prospect_id = pg.person_id
      left join lateral (
        select max(${proximitySql(model, 'e')}) as proximity
          from edges e join member_people m on m.person_id = e.connector_id
         where pg.map_network and e.workspace_id = ${workspaceId} and e.prospect_id = pg.person_id
      ) best on true
     order by ${newestFirst('pg')}`;
}

/**
 * The lists' order, newest first, as the clients' indexes hold it: an order written `desc` alone (nulls
 * first) matched none of them, and each page sorted every client of the list (0.39 s for 52,000).
 */
const newestFirst = (alias: 'cl' | 'pg') =>
  sql`${sql.identifier(alias)}.created_at desc nulls last, ${sql.identifier(alias)}.id`;

/** The clients with their people and companies (aliases cl, p, co), as the lists' searches read them. */
const CLIENTS_WITH_PEOPLE = sql`clients cl
        join people p on p.workspace_id = cl.workspace_id and p.id = cl.person_id
        left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id`;

function searchFilter(pattern: string | null): SQL {
  if (pattern === null) return sql`true`;
  return sql`(p.full_name ilike ${pattern} or p.email ilike ${pattern} or co.name ilike ${pattern}
              or cl.tag ilike ${pattern} or cl.contact_owner_email ilike ${pattern})`;
}

export async function listClients(
  tx: Tx,
  workspaceId: string,
  model: ProximityModel,
  options: { list: ClientList; pattern: string | null; page: number; pageSize: number },
) {
  const where = sql`${LIST_FILTER[options.list]} and ${searchFilter(options.pattern)}`;
  // Without a search, the clients alone: each has one person, and joined to them the planner hashed all of
  // a workspace's people to count its clients (0.9 s at 1.7M people, 2026-11-26).
  const total = await tx.execute<{ n: number }>(
    options.pattern === null
      ? sql`select count(*)::int as n from clients cl where cl.workspace_id = ${workspaceId} and ${where}`
      : sql`select count(*)::int as n from ${CLIENTS_WITH_PEOPLE} where cl.workspace_id = ${workspaceId} and ${where}`,
  );
  const rows = await tx.execute<ClientRow>(
    selectClients(
      workspaceId,
      model,
      where,
      sql`order by ${newestFirst('cl')} limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}`,
    ),
  );
  return { totalCount: total.rows[0]?.n ?? 0, rows: rows.rows.map(toClient) };
}

export async function findClient(tx: Tx, workspaceId: string, model: ProximityModel, id: string) {
  const rows = await tx.execute<ClientRow>(selectClients(workspaceId, model, sql`cl.id = ${id}`, sql``));
  const row = rows.rows[0];
  return row ? toClient(row) : null;
}

/** The client of the person known by this e-mail, else by this LinkedIn address (the import's matching order). */
export async function findClientIdOfPerson(tx: Tx, workspaceId: string, email: string, linkedinUrl: string) {
  const rows = await tx.execute<{ id: string }>(sql`
    select cl.id from people p
      join clients cl on cl.workspace_id = p.workspace_id and cl.person_id = p.id
     where p.workspace_id = ${workspaceId} and (p.email = ${email} or p.linkedin_url = ${linkedinUrl})
     order by p.email = ${email} desc nulls last
     limit 1`);
  return rows.rows[0]?.id ?? null;
}

/**
 * A client's person and whether they may be a connector: a mapped ally, or a tracked client, who is one
 * once at another company (`isConnectorClient`); an edit or a removal changes their neighbourhood's edges.
 */
export async function clientRecord(tx: Tx, workspaceId: string, id: string) {
  const rows = await tx.execute<{ person_id: string; may_connect: boolean }>(sql`
    select person_id, map_network or track_job_changes as may_connect
      from clients where workspace_id = ${workspaceId} and id = ${id}`);
  return rows.rows[0] ?? null;
}

/** An edit: the client's company (the person's current one), contact owner and tag; names, e-mail, LinkedIn and flags stay. */
export async function updateClientDetails(
  tx: Tx,
  workspaceId: string,
  id: string,
  details: { companyName: string; companyDomain: string; contactOwner: string | null; tag: string | null },
) {
  await tx.execute(sql`
    insert into companies (workspace_id, domain, name, name_source)
    values (${workspaceId}, ${details.companyDomain}, ${details.companyName}, 'list')
    on conflict (workspace_id, domain) do update set name = excluded.name, name_source = excluded.name_source
     where companies.name <> excluded.name
       and ${nameReplaces(sql`excluded.name_source`, sql`companies.name_source`)}`);
  await mergeNamelessCompanies(tx, workspaceId);
  const changed = await tx.execute(sql`
    with target as (
      select cl.person_id, co.id as company_id,
             (select u.id from users u where u.workspace_id = ${workspaceId} and lower(u.email) = ${details.contactOwner}
               order by u.created_at limit 1) as owner_user_id
        from clients cl
        join companies co on co.workspace_id = cl.workspace_id and co.domain = ${details.companyDomain}
       where cl.workspace_id = ${workspaceId} and cl.id = ${id}
    ),
    person as (
      update people p set company_id = t.company_id, updated_at = now()
        from target t
       where p.workspace_id = ${workspaceId} and p.id = t.person_id and p.company_id is distinct from t.company_id
      returning p.id
    )
    update clients cl set tag = ${details.tag}, contact_owner_email = ${details.contactOwner},
           contact_owner_user_id = t.owner_user_id
      from target t
     where cl.workspace_id = ${workspaceId} and cl.id = ${id}
       and ((cl.tag, cl.contact_owner_email, cl.contact_owner_user_id)
              is distinct from (${details.tag}::text, ${details.contactOwner}::text, t.owner_user_id)
            or exists (select 1 from person))
    returning cl.id`);
  return (changed.rowCount ?? 0) > 0;
}

export async function deleteClient(tx: Tx, workspaceId: string, id: string) {
  await tx.execute(sql`delete from clients where workspace_id = ${workspaceId} and id = ${id}`);
}

/** The tags the workspace's clients carry, for the tag input's suggestions. */
export async function clientTags(tx: Tx, workspaceId: string, pattern: string | null) {
  const rows = await tx.execute<{ tag: string }>(sql`
    select distinct tag from clients
     where workspace_id = ${workspaceId} and tag is not null and tag <> ''
       and (${pattern}::text is null or tag ilike ${pattern})
     order by tag limit 100`);
  return rows.rows.map((row) => row.tag);
}

/**
 * The job changes seen in the workspace, newest first, with whether each person is a tracked client:
 * the moves to a known company, and the departures for an unknown one (at most `limit` of each).
 */
export async function findJobChanges(tx: Tx, workspaceId: string, options: { recentDays?: number; limit: number }) {
  const rows = await tx.execute<{
    id: string;
    kind: 'moved' | 'left';
    person_id: string;
    person_name: string;
    past_company_name: string | null;
    new_company_name: string | null;
    changed_on: string;
    address: string | null;
    source: TJobChange['source'];
    confidence: TJobChange['confidence'];
    tracked: boolean;
    status: TJobChange['status'];
  }>(sql`
    -- The newest of each kind, read in order from job_changes_kind_recent_idx, and only they are joined
    -- to their people. Numbered over all of a workspace's changes instead, 67,000 were sorted for each
    -- call (0.1 s alone, 0.6 s under load, 2026-11-27); joined first, the planner hashed all of a
    -- workspace's people (0.75 s at 1.7M people, 2026-11-26).
    select shown.id, shown.kind, shown.person_id, p.full_name as person_name, shown.past_company_name,
           shown.new_company_name, shown.changed_on::text as changed_on, shown.address,
           shown.source, shown.confidence, shown.status, shown.created_at,
           exists (select 1 from clients c where c.workspace_id = shown.workspace_id and c.person_id = shown.person_id
                     and c.track_job_changes) as tracked
      from (values ('moved'), ('left')) as kinds(kind)
      cross join lateral (
        select j.workspace_id, j.id, j.kind, j.person_id, j.past_company_name, j.new_company_name, j.changed_on,
               j.evidence->>'address' as address, j.source, j.confidence, j.status, j.created_at
          from job_changes j
         where j.workspace_id = ${workspaceId} and j.kind = kinds.kind and j.status <> 'dismissed'
           and (${options.recentDays ?? null}::int is null or j.changed_on > current_date - ${options.recentDays ?? 0}::int)
         order by j.changed_on desc nulls last, j.created_at desc nulls last
         limit ${options.limit}
      ) shown
      join people p on p.workspace_id = shown.workspace_id and p.id = shown.person_id
     order by shown.changed_on desc, shown.created_at desc`);
  const changes: TJobChange[] = [];
  const departures: TDeparture[] = [];
  for (const row of rows.rows) {
    const shared = {
      id: row.id,
      person: { id: row.person_id, name: row.person_name },
      pastCompanyName: row.past_company_name,
      source: row.source,
      confidence: row.confidence,
      tracked: row.tracked,
      status: row.status,
    };
    if (row.kind === 'left') departures.push({ ...shared, address: row.address ?? '', bouncedOn: row.changed_on });
    else changes.push({ ...shared, newCompanyName: row.new_company_name ?? '', changedOn: row.changed_on });
  }
  return { changes, departures };
}
