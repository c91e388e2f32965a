import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { COMPANY_NAME_SOURCES, type CompanyNameSource } from '../db/schema/index.ts';
import { markDirty } from './dirty.ts';

// A company first seen as a mail domain is named after the domain's first label ('Kccollec'); this is
// where it gets the best name the evidence offers, and where a better source renames it later.

const rank = (source: SQL) => sql`array_position(${sql.param([...COMPANY_NAME_SOURCES])}::text[], ${source})`;

/**
 * Whether a name from `offered` replaces one from `current`: a source at least as trusted (the latest
 * word of an equal source wins). For `on conflict ... do update ... where` clauses of company inserts.
 */
export const nameReplaces = (offered: SQL, current: SQL) => sql`${rank(offered)} >= ${rank(current)}`;

/**
 * Names offered for companies: `offers` selects (company_id, name, source), one row per company. A
 * company takes its offer when `nameReplaces` says so. Network rows hold the company's id, not its name:
 * nothing needs rolling up again.
 */
export async function offerCompanyNames(tx: Tx, workspaceId: string, offers: SQL) {
  const renamed = await tx.execute(sql`
    update companies c set name = o.name, name_source = o.source
      from (${offers}) as o(company_id, name, source)
     where c.workspace_id = ${workspaceId} and c.id = o.company_id and btrim(o.name) <> ''
       and c.name is distinct from o.name and ${nameReplaces(sql`o.source`, sql`c.name_source`)}`);
  if ((renamed.rowCount ?? 0) > 0) await mergeNamelessCompanies(tx, workspaceId);
  return renamed.rowCount ?? 0;
}

/**
 * A company known by name only (a LinkedIn export's Company column) is the company of a domain that
 * now bears the same name (`company_key`): everything about it moves there, and it goes. The oldest
 * such domain company wins, as `companyNamed` in the LinkedIn import picks. Called whenever a domain
 * company is created or renamed with a name. Returns how many were merged.
 */
export async function mergeNamelessCompanies(tx: Tx, workspaceId: string) {
  const ws = workspaceId;
  await tx.execute(sql`
    create temp table company_merges on commit drop as
    select distinct on (nameless.id) nameless.id as from_id, named.id as to_id
      from companies nameless
      join companies named on named.workspace_id = nameless.workspace_id and named.domain is not null
                          and named.name_key = nameless.name_key
     where nameless.workspace_id = ${ws} and nameless.domain is null
     order by nameless.id, named.created_at, named.id`);
  const merges = await tx.execute<{ n: number }>(sql`select count(*)::int as n from company_merges`);
  const merged = merges.rows[0]?.n ?? 0;
  if (merged > 0) {
    const moved = (table: string, column: string) =>
      tx.execute(sql`
        update ${sql.identifier(table)} t set ${sql.identifier(column)} = m.to_id
          from company_merges m
         where t.workspace_id = ${ws} and ${sql.identifier('t')}.${sql.identifier(column)} = m.from_id`);
    // Its people and their colleagues-in-time are rolled up again: their company, and shared experience.
    await markDirty(
      tx,
      ws,
      sql`select p.id from people p join company_merges m on p.company_id = m.from_id where p.workspace_id = ${ws}
          union
          select e.person_id from employments e join company_merges m on e.company_id in (m.from_id, m.to_id)
           where e.workspace_id = ${ws}`,
    );
    await moved('people', 'company_id');
    await moved('employments', 'company_id');
    await moved('job_changes', 'past_company_id');
    await moved('job_changes', 'new_company_id');
    await moved('clients', 'company_id_at_import');
    await moved('edges', 'shared_company_id');
    await moved('network_rows', 'company_id');
    await tx.execute(sql`
      update accounts a set company_id = m.to_id from company_merges m
       where a.workspace_id = ${ws} and a.company_id = m.from_id
         and not exists (select 1 from accounts other where other.workspace_id = ${ws} and other.company_id = m.to_id)`);
    await tx.execute(sql`
      delete from accounts a using company_merges m where a.workspace_id = ${ws} and a.company_id = m.from_id`);
    await tx.execute(sql`
      delete from companies c using company_merges m where c.workspace_id = ${ws} and c.id = m.from_id`);
  }
  await tx.execute(sql`drop table company_merges`);
  return merged;
}

/**
 * Per company of `companyIds`, the name most of its people are given by `votesOf(personIds)` (person_id,
 * name), where `personIds` is an array of the people at those companies: ties go to the alphabetically
 * first, so the same evidence always names a company the same way.
 *
 * Each set is an array computed once and read through an index (`= any`), so the work is bounded by the
 * companies named, whatever the planner believes. A workspace the statistics have not seen yet (a first
 * sync into shared tables) is estimated at one row, and the joins it then planned scanned the whole
 * workspace once per person: 11 s for a sandbox mailbox's contacts page, over 120 s on a busy machine.
 */
const majorityName = (
  workspaceId: string,
  companyIds: SQL,
  votesOf: (personIds: SQL) => SQL,
  source: CompanyNameSource,
) => {
  const companies = sql`array(select distinct ids.company_id from (${companyIds}) as ids(company_id))`;
  const personIds = sql`array(select p.id from people p
                               where p.workspace_id = ${workspaceId} and p.company_id = any(${companies}))`;
  return sql`
  select distinct on (company_id) company_id, name, ${source}::text as source
    from (select p.company_id, btrim(v.name) as name, count(*) as voters
            from (${votesOf(personIds)}) as v(person_id, name)
            join people p on p.workspace_id = ${workspaceId} and p.id = v.person_id
           where p.company_id = any(${companies}) and btrim(v.name) <> ''
           group by 1, 2) tally
   order by company_id, voters desc, name`;
};

/**
 * Companies of `companyIds` named after the organisation the workspace's address books give their
 * people (Google contacts), when no better source named them.
 */
export const nameCompaniesFromContacts = (tx: Tx, workspaceId: string, companyIds: SQL) =>
  offerCompanyNames(
    tx,
    workspaceId,
    majorityName(
      workspaceId,
      companyIds,
      (personIds) => sql`select person_id, organization from address_book_entries
                          where workspace_id = ${workspaceId} and person_id = any(${personIds})
                            and organization is not null`,
      'contacts',
    ),
  );

/**
 * Whether `name` can be the name of the company at `domain`: one of the two, squashed, starts the other
 * ('KC Collective' and kccollec.com), or the name's initials are the domain's label (International
 * Business Machines and ibm.com).
 */
const plausibleName = (domain: SQL, name: SQL) => sql`(
  with k as (select replace(company_key(${name}), ' ', '') as squashed,
                    array_to_string(array(select left(word, 1) from unnest(string_to_array(company_key(${name}), ' ')) as word), '') as initials,
                    domain_label(${domain}) as label)
  select k.squashed like k.label || '%' or (length(k.squashed) >= 3 and k.label like k.squashed || '%')
         or k.initials = k.label from k)`;

/**
 * Companies of `companyIds` named after the Company column of their people's LinkedIn connections (a
 * person known by their work address, whose company is their address's domain). The column says where
 * they work now, which the address may no longer: only a name that fits the domain counts.
 */
export const nameCompaniesFromLinkedin = (tx: Tx, workspaceId: string, companyIds: SQL) =>
  offerCompanyNames(
    tx,
    workspaceId,
    majorityName(
      workspaceId,
      companyIds,
      (personIds) => sql`select lc.person_id, lc.company_name from linkedin_connections lc
            join people p on p.workspace_id = lc.workspace_id and p.id = lc.person_id
            join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
           where lc.workspace_id = ${workspaceId} and lc.person_id = any(${personIds}) and lc.company_name is not null
             and c.domain = split_part(p.email, '@', 2) and ${plausibleName(sql`c.domain`, sql`lc.company_name`)}`,
      'linkedin',
    ),
  );
