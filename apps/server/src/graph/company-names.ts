import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { COMPANY_NAME_SOURCES, type CompanyNameSource } from '../db/schema/index.ts';

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
  return renamed.rowCount ?? 0;
}

/**
 * Per company of `companyIds`, the name most of its people are given by `votes` (person_id, name):
 * ties go to the alphabetically first, so the same evidence always names a company the same way.
 */
const majorityName = (workspaceId: string, companyIds: SQL, votes: SQL, source: CompanyNameSource) => sql`
  select distinct on (company_id) company_id, name, ${source}::text as source
    from (select p.company_id, btrim(v.name) as name, count(*) as voters
            from (${votes}) as v(person_id, name)
            join people p on p.workspace_id = ${workspaceId} and p.id = v.person_id
           where p.company_id in (${companyIds}) and btrim(v.name) <> ''
           group by 1, 2) tally
   order by company_id, voters desc, name`;

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
      sql`select person_id, organization from address_book_entries
           where workspace_id = ${workspaceId} and organization is not null`,
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
                    replace(split_part(${domain}, '.', 1), '-', '') as label)
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
      sql`select lc.person_id, lc.company_name from linkedin_connections lc
            join people p on p.workspace_id = lc.workspace_id and p.id = lc.person_id
            join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
           where lc.workspace_id = ${workspaceId} and lc.company_name is not null
             and c.domain = split_part(p.email, '@', 2) and ${plausibleName(sql`c.domain`, sql`lc.company_name`)}`,
      'linkedin',
    ),
  );
