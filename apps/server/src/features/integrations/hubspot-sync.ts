import { COMPANY_DOMAIN_PATTERN, stripCompanyDomain } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { mergeNamelessCompanies, nameReplaces } from '../../graph/company-names.ts';
import { markDirty } from '../../graph/dirty.ts';
import { type HubspotAccountDeps, hubspotAccount } from '../../integrations/hubspot/hubspot-account.ts';
import { BATCH_READ, HubspotCallError, type HubspotCompany } from '../../integrations/hubspot/hubspot-client.ts';
import { findChosenLists, findRecentListCompanies } from './hubspot.repo.ts';

/** A company read from HubSpot longer ago than this is read again at the next sync. */
const REREAD_AFTER_HOURS = 24;
/** Throttled answers a sync waits out before it fails (and its job is retried later). */
const MAX_THROTTLED = 10;

export type ListsSyncProgress = (progress: { phase: string; processed: number; total: number | null }) => Promise<void>;
export type ListsSyncCounts = { lists: number; companies: number; added: number; removed: number; calls: number };

/**
 * Brings the chosen HubSpot lists' companies into `crm_list_companies`: every list's members (250 a
 * page), their names and domains (100 a call), then one transaction that replaces what was kept, adds
 * our companies for new domains, and marks the people of every company that came in or left, so the
 * graph's next roll-up takes them out of (or back into) the network and the recommendations.
 */
export async function syncHubspotLists(
  deps: HubspotAccountDeps,
  workspaceId: string,
  progress: ListsSyncProgress,
): Promise<ListsSyncCounts> {
  const account = await hubspotAccount(deps, workspaceId);
  const lists = await deps.database.inWorkspace(workspaceId, (tx) => findChosenLists(tx, workspaceId));
  let calls = 0;
  // A throttled read is waited out (HubSpot's Retry-After) and made again: a sync is a background job,
  // and giving up 200 calls into a 20,000-company list would only start it over.
  const read = async <T>(work: (token: string) => Promise<T>): Promise<T> => {
    for (let throttled = 0; ; throttled++) {
      try {
        calls++;
        return await account.call(work);
      } catch (error) {
        const failure = error instanceof HubspotCallError ? error.failure : null;
        if (failure?.kind !== 'rate_limited' || throttled >= MAX_THROTTLED) throw error;
        await new Promise((resolve) => setTimeout(resolve, failure.retryAfterSeconds * 1000));
      }
    }
  };
  const members = new Map<string, string[]>();
  for (const [index, listId] of lists.entries()) {
    const ids: string[] = [];
    let after: string | null | undefined;
    do {
      const page = await read((token) => deps.hubspot.listMembers(token, listId, after ?? undefined));
      ids.push(...page.ids);
      after = page.after;
      await progress({ phase: `Reading list ${index + 1} of ${lists.length}`, processed: ids.length, total: null });
    } while (after);
    members.set(listId, ids);
  }

  const distinct = [...new Set([...members.values()].flat())];
  // Companies read in the last day are taken as kept; the others (new members, and once a day every
  // company, for renames and new domains) are read again. A refresh of an unchanged 20,000-company
  // list then costs its 80 membership pages, not 280 calls.
  const known = await deps.database.inWorkspace(workspaceId, (tx) =>
    findRecentListCompanies(tx, workspaceId, REREAD_AFTER_HOURS),
  );
  const companies = new Map<string, HubspotCompany & { syncedAt: Date }>();
  for (const id of distinct) {
    const kept = known.get(id);
    if (kept) companies.set(id, { id, ...kept });
  }
  const toRead = distinct.filter((id) => !companies.has(id));
  for (let start = 0; start < toRead.length; start += BATCH_READ) {
    const batch = toRead.slice(start, start + BATCH_READ);
    const readAt = new Date();
    for (const company of await read((token) => deps.hubspot.readCompanies(token, batch))) {
      companies.set(company.id, { ...company, domain: companyDomain(company.domain), syncedAt: readAt });
    }
    await progress({ phase: 'Reading companies', processed: start + batch.length, total: toRead.length });
  }

  await progress({ phase: 'Saving', processed: distinct.length, total: distinct.length });
  const rows = [...members.entries()].flatMap(([listId, ids]) =>
    ids.flatMap((id) => {
      const company = companies.get(id);
      // A company deleted in HubSpot since it joined the list is no longer anybody's customer.
      if (!company) return [];
      return [
        {
          listId,
          hubspotId: id,
          name: company.name || company.domain || id,
          domain: company.domain,
          syncedAt: company.syncedAt,
        },
      ];
    }),
  );
  const changed = await deps.database.inWorkspace(workspaceId, (tx) => replaceListCompanies(tx, workspaceId, rows));
  return { lists: lists.length, companies: rows.length, ...changed, calls };
}

type ListRow = { listId: string; hubspotId: string; name: string; domain: string | null; syncedAt: Date };

/** Replaces the kept lists' companies with `rows`; answers how many entries came and went. */
async function replaceListCompanies(tx: Tx, ws: string, rows: ListRow[]) {
  await tx.execute(sql`
    create temp table hubspot_rows (list_id text, hubspot_id text, name text, domain text, synced_at timestamptz)
      on commit drop`);
  for (let start = 0; start < rows.length; start += 5000) {
    const slice = rows.slice(start, start + 5000);
    await tx.execute(sql`
      insert into hubspot_rows
      select * from unnest(${sql.param(slice.map((row) => row.listId))}::text[],
                           ${sql.param(slice.map((row) => row.hubspotId))}::text[],
                           ${sql.param(slice.map((row) => row.name))}::text[],
                           ${sql.param(slice.map((row) => row.domain))}::text[],
                           ${sql.param(slice.map((row) => row.syncedAt.toISOString()))}::timestamptz[])`);
  }
  await tx.execute(sql`analyze hubspot_rows`);
  // The companies the exclusion is about, before the change: their people's rows change with it.
  await tx.execute(sql`
    create temp table hubspot_before on commit drop as
    select distinct company_id from crm_list_companies where workspace_id = ${ws} and company_id is not null`);
  await tx.execute(sql`
    insert into companies (workspace_id, domain, name, name_source)
    select distinct on (domain) ${ws}::uuid, domain, name, 'list' from hubspot_rows where domain is not null
     order by domain, name
    on conflict (workspace_id, domain) do update set name = excluded.name, name_source = excluded.name_source
     where companies.name <> excluded.name
       and ${nameReplaces(sql`excluded.name_source`, sql`companies.name_source`)}`);
  await mergeNamelessCompanies(tx, ws);
  const removed = await tx.execute<{ n: number }>(sql`
    with gone as (
      delete from crm_list_companies lc
       where lc.workspace_id = ${ws}
         and not exists (select 1 from hubspot_rows h where h.list_id = lc.list_id and h.hubspot_id = lc.hubspot_id)
      returning 1)
    select count(*)::int as n from gone`);
  const added = await tx.execute<{ n: number }>(sql`
    with upserted as (
      insert into crm_list_companies as lc (workspace_id, list_id, hubspot_id, company_id, name, domain, synced_at)
      select ${ws}::uuid, h.list_id, h.hubspot_id, co.id, h.name, h.domain, h.synced_at
        from hubspot_rows h
        left join companies co on co.workspace_id = ${ws} and co.domain = h.domain
      on conflict (workspace_id, list_id, hubspot_id) do update
         set company_id = excluded.company_id, name = excluded.name, domain = excluded.domain, synced_at = excluded.synced_at
      returning (xmax = 0) as inserted)
    select count(*) filter (where inserted)::int as n from upserted`);
  // People at a company that came in or went out: the graph's next roll-up takes them out or back.
  const affected = sql`
    select p.id from people p
     where p.workspace_id = ${ws}
       and p.company_id in (
         (select company_id from hubspot_before
           except select company_id from crm_list_companies where workspace_id = ${ws} and company_id is not null)
         union
         (select company_id from crm_list_companies where workspace_id = ${ws} and company_id is not null
           except select company_id from hubspot_before))`;
  await markDirty(tx, ws, affected);
  return { added: added.rows[0]?.n ?? 0, removed: removed.rows[0]?.n ?? 0 };
}

/** HubSpot's domain property as our companies keep domains (`https://www.acme.com/` is acme.com); null when it is none. */
export function companyDomain(value: string | null): string | null {
  if (!value) return null;
  const domain = stripCompanyDomain(value).replace(/^www\./, '');
  return COMPANY_DOMAIN_PATTERN.test(domain) ? domain : null;
}
