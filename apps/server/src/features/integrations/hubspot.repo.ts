import type { TCrmListCompaniesPage } from '@warmpath/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { crmListCompanies, jobRuns, workspaces } from '../../db/schema/index.ts';
import { markDirty } from '../../graph/dirty.ts';
import { containsPattern } from '../../lib/like-pattern.ts';

/** Every HubSpot list the workspace chose, customers and exclusions alike (both keep companies out). */
export async function findChosenLists(tx: Tx, workspaceId: string): Promise<string[]> {
  const [row] = await tx
    .select({ customers: workspaces.hubspotCustomerLists, exclusions: workspaces.hubspotExclusionLists })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return [...new Set([...(row?.customers ?? []), ...(row?.exclusions ?? [])])];
}

export async function setChosenLists(
  tx: Tx,
  workspaceId: string,
  lists: { customers?: string[] | undefined; exclusions?: string[] | undefined },
) {
  const change = {
    ...(lists.customers ? { hubspotCustomerLists: [...new Set(lists.customers)] } : {}),
    ...(lists.exclusions ? { hubspotExclusionLists: [...new Set(lists.exclusions)] } : {}),
  };
  if (Object.keys(change).length > 0) await tx.update(workspaces).set(change).where(eq(workspaces.id, workspaceId));
}

/** A page of the companies of `listIds`, one row per company however many of the lists hold it. */
export async function findListCompanies(
  tx: Tx,
  workspaceId: string,
  query: { listIds: string[]; page: number; pageSize: number; searchTerm?: string | undefined },
): Promise<TCrmListCompaniesPage> {
  const search = query.searchTerm
    ? sql`and (name ilike ${containsPattern(query.searchTerm)} or domain ilike ${containsPattern(query.searchTerm)})`
    : sql``;
  const matching = sql`
    select distinct on (hubspot_id) hubspot_id, name, domain from crm_list_companies
     where workspace_id = ${workspaceId} and list_id = any(${sql.param(query.listIds)}::text[]) ${search}
     order by hubspot_id`;
  const total = await tx.execute<{ n: number }>(sql`select count(*)::int as n from (${matching}) as m`);
  const rows = await tx.execute<{ hubspot_id: string; name: string; domain: string | null }>(sql`
      select * from (${matching}) as m order by lower(name), hubspot_id
       limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`);
  const totalCount = total.rows[0]?.n ?? 0;
  return {
    rows: rows.rows.map((row) => ({ id: row.hubspot_id, companyName: row.name, companyDomain: row.domain })),
    pagination: {
      page: query.page,
      pageSize: query.pageSize,
      totalPages: Math.ceil(totalCount / query.pageSize),
      totalCount,
    },
  };
}

/**
 * Forgets the lists' companies (the CRM was disconnected, or lists were dropped from the choice) and
 * marks their people, who may come back into the network.
 */
export async function forgetListCompanies(tx: Tx, workspaceId: string, keepLists: string[] = []) {
  const dropped = and(
    eq(crmListCompanies.workspaceId, workspaceId),
    sql`not (${crmListCompanies.listId} = any(${sql.param(keepLists)}::text[]))`,
  );
  await markDirty(
    tx,
    workspaceId,
    sql`select p.id from people p
         where p.workspace_id = ${workspaceId}
           and p.company_id in (select company_id from crm_list_companies where ${dropped})`,
  );
  await tx.delete(crmListCompanies).where(dropped);
}

/** Syncs still waiting to start end as failed, with the reason (the integration they would read is gone). */
export async function failWaitingSyncs(tx: Tx, workspaceId: string, reason: string) {
  await tx
    .update(jobRuns)
    .set({ status: 'failed', error: reason, finishedAt: new Date() })
    .where(and(eq(jobRuns.workspaceId, workspaceId), eq(jobRuns.kind, 'hubspot-sync'), eq(jobRuns.status, 'queued')));
}

/** The list companies read from HubSpot within the last `hours`, by HubSpot id (whichever list holds them). */
export async function findRecentListCompanies(tx: Tx, workspaceId: string, hours: number) {
  const rows = await tx.execute<{ hubspot_id: string; name: string; domain: string | null; synced_ms: number }>(sql`
    select distinct on (hubspot_id) hubspot_id, name, domain, (extract(epoch from synced_at) * 1000)::float8 as synced_ms
      from crm_list_companies
     where workspace_id = ${workspaceId} and synced_at > now() - make_interval(hours => ${hours})
     order by hubspot_id, synced_at desc`);
  return new Map(
    rows.rows.map((row) => [
      row.hubspot_id,
      { name: row.name, domain: row.domain, syncedAt: new Date(Number(row.synced_ms)) },
    ]),
  );
}
