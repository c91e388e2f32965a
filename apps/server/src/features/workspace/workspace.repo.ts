import type { TWorkspace } from '@warmpath/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { workspaceDomains, workspaces } from '../../db/schema/index.ts';

export async function findWorkspace(tx: Tx, workspaceId: string): Promise<TWorkspace | null> {
  const [row] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    allowDomainJoin: row.allowDomainJoin,
    selectedHubspotExclusionLists: row.hubspotExclusionLists,
    activeCrmClientExclusionLists: row.hubspotCustomerLists,
    timeZone: row.timeZone,
  };
}

/** Whether PostgreSQL knows the zone: the daily run computes the workspace's day with it. */
export async function isKnownTimeZone(tx: Tx, name: string) {
  const result = await tx.execute(sql`select 1 from pg_timezone_names where name = ${name}`);
  return result.rows.length > 0;
}

/**
 * Replaces the workspace's name, join flag, domains and (when given) time zone, keeping the global
 * domain index in step.
 */
export async function updateWorkspace(
  tx: Tx,
  workspaceId: string,
  update: { name: string; domains: string[]; allowDomainJoin: boolean; timeZone?: string | undefined },
) {
  await tx
    .update(workspaces)
    .set({
      name: update.name,
      domains: update.domains,
      allowDomainJoin: update.allowDomainJoin,
      ...(update.timeZone === undefined ? {} : { timeZone: update.timeZone }),
    })
    .where(eq(workspaces.id, workspaceId));
  const current = await tx
    .select({ domain: workspaceDomains.domain })
    .from(workspaceDomains)
    .where(eq(workspaceDomains.workspaceId, workspaceId));
  const removed = current.map((row) => row.domain).filter((domain) => !update.domains.includes(domain));
  if (removed.length > 0) {
    await tx
      .delete(workspaceDomains)
      .where(and(eq(workspaceDomains.workspaceId, workspaceId), inArray(workspaceDomains.domain, removed)));
  }
  await tx
    .insert(workspaceDomains)
    .values(update.domains.map((domain) => ({ domain, workspaceId })))
    .onConflictDoNothing();
}
