import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { nameCompaniesFromLinkedin } from '../../../graph/company-names.ts';
import { markDirty } from '../../../graph/dirty.ts';
import { isErased } from '../../../graph/erased.ts';
import { confirmAgreeingJobChanges } from '../../../graph/job-changes.ts';
import type { LinkedinConnection } from './connections-csv.ts';
import type { LinkedinPosition } from './positions-csv.ts';

/**
 * Merges a member's connections in set-based statements. A person already known by e-mail (from
 * Google, say) gains the profile URL, and so does one known by name at the connection's company
 * (`matchByNameAtCompany`); everyone else is matched or created by profile URL; the member's connection
 * rows are upserted. Re-uploading a newer export adds and updates, never duplicates.
 */
export async function mergeConnections(tx: Tx, workspaceId: string, userId: string, rows: LinkedinConnection[]) {
  if (rows.length === 0) return { people: 0, connections: 0 };
  // Each column travels as one array parameter (sql.param), not as a list of parameters.
  const column = <T>(pick: (row: LinkedinConnection) => T) => sql.param(rows.map(pick));
  const input = sql`
    select input.*, company_key(input.company) as company_key from unnest(
      ${column((row) => `${row.firstName} ${row.lastName}`.trim())}::text[],
      ${column((row) => row.profileUrl)}::text[],
      ${column((row) => row.email)}::text[],
      ${column((row) => row.position)}::text[],
      ${column((row) => row.company)}::text[],
      ${column((row) => row.connectedOn?.toISOString() ?? null)}::timestamptz[]
    ) as input(full_name, linkedin_url, email, position, company, connected_on)
     -- An erased person is not created again from a later export.
     where not ${isErased(workspaceId, sql`input.linkedin_url`)} and not ${isErased(workspaceId, sql`input.email`)}
    offset 0`;

  await tx.execute(sql`
    update people p set linkedin_url = input.linkedin_url, updated_at = now()
      from (${input}) input
     where p.workspace_id = ${workspaceId} and input.email is not null and p.email = input.email
       and p.linkedin_url is null
       and not exists (select 1 from people other
                        where other.workspace_id = ${workspaceId} and other.linkedin_url = input.linkedin_url)`);

  await matchByNameAtCompany(tx, workspaceId, input);

  const people = await tx.execute(sql`
    insert into people (workspace_id, full_name, linkedin_url, email, title)
    select distinct on (input.linkedin_url) ${workspaceId}::uuid, input.full_name, input.linkedin_url,
           case when exists (select 1 from people e where e.workspace_id = ${workspaceId} and e.email = input.email)
                then null else input.email end,
           input.position
      from (${input}) input
    on conflict (workspace_id, linkedin_url) do update
       set full_name = excluded.full_name,
           title = coalesce(excluded.title, people.title),
           updated_at = now()`);

  await mergeCompanies(tx, workspaceId, userId, input);

  const connections = await tx.execute(sql`
    insert into linkedin_connections (workspace_id, user_id, person_id, connected_on, company_name, position)
    select distinct on (p.id) ${workspaceId}::uuid, ${userId}::uuid, p.id, input.connected_on, input.company, input.position
      from (${input}) input
      join people p on p.workspace_id = ${workspaceId} and p.linkedin_url = input.linkedin_url
    on conflict (workspace_id, user_id, person_id) do update
       set connected_on = excluded.connected_on, company_name = excluded.company_name, position = excluded.position`);

  // The Company column of people known by their work address names their address's company.
  await nameCompaniesFromLinkedin(
    tx,
    workspaceId,
    sql`select p.company_id from (${input}) input
          join people p on p.workspace_id = ${workspaceId} and p.linkedin_url = input.linkedin_url
         where p.company_id is not null and input.company is not null`,
  );
  await markDirty(
    tx,
    workspaceId,
    sql`select p.id from (${input}) input
          join people p on p.workspace_id = ${workspaceId} and p.linkedin_url = input.linkedin_url`,
  );
  await tx.execute(sql`
    update users set linkedin_connected_at = coalesce(linkedin_connected_at, now())
     where workspace_id = ${workspaceId} and id = ${userId}`);
  return { people: people.rowCount ?? 0, connections: connections.rowCount ?? 0 };
}

/**
 * Most connections come without an e-mail address (people hide it), yet the mail often knows them: the
 * same name at the connection's company, which is either named so (`company_key`) or the company of a
 * domain the name squashes to ('Acme Robotics' and acmerobotics.io). Such a person gains the profile
 * URL, so the connection adds to them instead of making a second person. Only a match that is alone
 * both ways counts, and a name of at least two words: two Anna Müllers at one company stay apart.
 */
async function matchByNameAtCompany(tx: Tx, ws: string, input: SQL) {
  await tx.execute(sql`
    with unseen as (
      select input.linkedin_url, person_name_key(input.full_name) as name_key, input.company_key
        from (${input}) input
       where input.company_key is not null and person_name_key(input.full_name) like '% %'
         and not exists (select 1 from people e where e.workspace_id = ${ws} and e.email = input.email)
         and not exists (select 1 from people o where o.workspace_id = ${ws} and o.linkedin_url = input.linkedin_url)
    ),
    at_company as (
      select u.linkedin_url, u.name_key, c.id as company_id
        from unseen u join companies c on c.workspace_id = ${ws} and c.name_key = u.company_key
      union
      select u.linkedin_url, u.name_key, c.id
        from unseen u join companies c on c.workspace_id = ${ws} and c.domain is not null
                                      and domain_label(c.domain) = replace(u.company_key, ' ', '')
    ),
    candidates as (
      select distinct a.linkedin_url, p.id as person_id
        from at_company a
        join people p on p.workspace_id = ${ws} and p.company_id = a.company_id and p.linkedin_url is null
       where person_name_key(p.full_name) = a.name_key
    ),
    counted as (
      select c.*, count(*) over (partition by c.linkedin_url) as per_url, count(*) over (partition by c.person_id) as per_person
        from candidates c
    )
    update people p set linkedin_url = m.linkedin_url, updated_at = now()
      from counted m
     where p.workspace_id = ${ws} and p.id = m.person_id and m.per_url = 1 and m.per_person = 1`);
}

/**
 * What the export's Company column says, before the connections are stored: each company is matched
 * by name (`company_key`: case, accents, legal forms) against the workspace's companies, preferring
 * one whose domain is known, or created by name; a connection without a current company gets that
 * one, as its current employment. A connection this member's previous export showed at another
 * company changed jobs: the old employment ends, the new one begins, and the change is recorded with
 * its source. Only an export compares with an export: a company guessed from a mail domain is never
 * taken for the old employer.
 */
async function mergeCompanies(tx: Tx, workspaceId: string, userId: string, input: SQL) {
  const ws = workspaceId;
  await createCompaniesByName(tx, ws, sql`select company from (${input}) input`);
  const seen = sql`
    select p.id as person_id, p.company_id as current_company_id, input.company, input.position,
           ${companyNamed(ws, sql`input.company_key`)} as company_id,
           lc.company_name as previous_company
      from (${input}) input
      join people p on p.workspace_id = ${ws} and p.linkedin_url = input.linkedin_url
      left join linkedin_connections lc on lc.workspace_id = ${ws} and lc.user_id = ${userId} and lc.person_id = p.id
     where input.company_key is not null`;
  await tx.execute(sql`
    insert into job_changes (workspace_id, person_id, past_company_id, past_company_name, new_company_id,
                             new_company_name, changed_on, source, confidence, status, evidence)
    select ${ws}::uuid, s.person_id, ${companyNamed(ws, sql`company_key(s.previous_company)`)},
           s.previous_company, s.company_id, s.company, current_date, 'linkedin', 'certain', 'confirmed',
           jsonb_build_object('reportedBy', ${userId}::uuid, 'previousCompany', s.previous_company)
      from (${seen}) s
     where company_key(s.previous_company) is distinct from company_key(s.company) and s.previous_company is not null
    on conflict do nothing`);
  // A change the mail made probable, which this export now shows too, is certain.
  await confirmAgreeingJobChanges(tx, ws);
  // Current employments: a connection at a company for the first time, or changed jobs since the last export.
  await tx.execute(sql`
    with moved as (
      select s.* from (${seen}) s
       where s.current_company_id is null
          or (s.previous_company is not null and company_key(s.previous_company) <> company_key(s.company)
              and s.current_company_id is distinct from s.company_id)
    ),
    ended as (
      update employments e set ended_on = current_date
        from moved m
       where e.workspace_id = ${ws} and e.person_id = m.person_id and e.ended_on is null
         and e.company_id is distinct from m.company_id
      returning e.id
    ),
    began as (
      insert into employments (workspace_id, person_id, company_id, title, source, seen_at)
      select ${ws}::uuid, m.person_id, m.company_id, m.position, 'linkedin', now() from moved m
       where not exists (select 1 from employments e where e.workspace_id = ${ws} and e.person_id = m.person_id
                          and e.company_id = m.company_id and e.ended_on is null)
      returning 1
    )
    update people p set company_id = m.company_id, title = coalesce(m.position, p.title), updated_at = now()
      from moved m
     where p.workspace_id = ${ws} and p.id = m.person_id`);
  // Still there: the title may have changed (seen_at stays when it was first seen).
  await tx.execute(sql`
    update employments e set title = coalesce(s.position, e.title)
      from (${seen}) s
     where e.workspace_id = ${ws} and e.person_id = s.person_id and e.company_id = s.company_id and e.ended_on is null`);
}

/**
 * The company a name's `company_key` means: the workspace's one with that key, one with a known domain
 * first. Give it a key computed once per row (a column of the input): an expression here would be
 * computed again for each company the plan reads.
 */
const companyNamed = (ws: string, key: SQL) => sql`
  (select c.id from companies c where c.workspace_id = ${ws} and c.name_key = ${key}
    order by c.domain is null, c.created_at limit 1)`;

/** Creates, by name and without a domain, the companies of `names` (a query of `company`) that no company is yet. */
async function createCompaniesByName(tx: Tx, ws: string, names: SQL) {
  await tx.execute(sql`
    insert into companies (workspace_id, name, name_source)
    select distinct on (company_key(n.company)) ${ws}::uuid, btrim(n.company), 'linkedin'
      from (${names}) n
     where company_key(n.company) is not null
       and not exists (select 1 from companies c where c.workspace_id = ${ws} and c.name_key = company_key(n.company))
    on conflict (workspace_id, company_key(name)) where domain is null do nothing`);
}

/**
 * A member's own history from LinkedIn's `Positions.csv`: it replaces what their previous upload said
 * (employments from LinkedIn of their own person). Everyone who worked at one of those companies is
 * rolled up again, since their shared experience with the member may have changed.
 */
export async function mergePositions(tx: Tx, workspaceId: string, userId: string, positions: LinkedinPosition[]) {
  const ws = workspaceId;
  const member = await tx.execute<{ id: string }>(sql`
    select u.person_id as id from users u where u.workspace_id = ${ws} and u.id = ${userId}`);
  const personId = member.rows[0]?.id;
  if (!personId) return 0;
  const column = <T>(pick: (row: LinkedinPosition) => T) => sql.param(positions.map(pick));
  const input = sql`
    select * from unnest(${column((row) => row.company)}::text[], ${column((row) => row.title)}::text[],
                         ${column((row) => row.startedOn)}::date[], ${column((row) => row.finishedOn)}::date[])
      as input(company, title, started_on, finished_on)`;
  await createCompaniesByName(tx, ws, sql`select company from (${input}) input`);
  const before = await tx.execute<{ company_id: string }>(sql`
    delete from employments where workspace_id = ${ws} and person_id = ${personId} and source = 'linkedin'
    returning company_id`);
  const inserted = await tx.execute<{ company_id: string }>(sql`
    insert into employments (workspace_id, person_id, company_id, title, started_on, ended_on, source, seen_at)
    select ${ws}::uuid, ${personId}::uuid, ${companyNamed(ws, sql`company_key(input.company)`)}, input.title, input.started_on,
           input.finished_on, 'linkedin', now()
      from (${input}) input
    returning company_id`);
  const companies = [...new Set([...before.rows, ...inserted.rows].map((row) => row.company_id))];
  await markDirty(
    tx,
    ws,
    sql`select distinct person_id from employments
         where workspace_id = ${ws} and company_id = any(${sql.param(companies)}::uuid[])`,
  );
  return inserted.rows.length;
}
