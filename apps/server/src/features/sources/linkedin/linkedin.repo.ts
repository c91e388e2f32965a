import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { markDirty } from '../../../graph/dirty.ts';
import type { LinkedinConnection } from './connections-csv.ts';

/**
 * Merges a member's connections in three set-based statements. A person already known by e-mail
 * (from Google, say) gains the profile URL; everyone else is matched or created by profile URL; the
 * member's connection rows are upserted. Re-uploading a newer export adds and updates, never duplicates.
 */
export async function mergeConnections(tx: Tx, workspaceId: string, userId: string, rows: LinkedinConnection[]) {
  if (rows.length === 0) return { people: 0, connections: 0 };
  // Each column travels as one array parameter (sql.param), not as a list of parameters.
  const column = <T>(pick: (row: LinkedinConnection) => T) => sql.param(rows.map(pick));
  const input = sql`
    select * from unnest(
      ${column((row) => `${row.firstName} ${row.lastName}`.trim())}::text[],
      ${column((row) => row.profileUrl)}::text[],
      ${column((row) => row.email)}::text[],
      ${column((row) => row.position)}::text[],
      ${column((row) => row.company)}::text[],
      ${column((row) => row.connectedOn?.toISOString() ?? null)}::timestamptz[]
    ) as input(full_name, linkedin_url, email, position, company, connected_on)`;

  await tx.execute(sql`
    update people p set linkedin_url = input.linkedin_url, updated_at = now()
      from (${input}) input
     where p.workspace_id = ${workspaceId} and input.email is not null and p.email = input.email
       and p.linkedin_url is null
       and not exists (select 1 from people other
                        where other.workspace_id = ${workspaceId} and other.linkedin_url = input.linkedin_url)`);

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

  const connections = await tx.execute(sql`
    insert into linkedin_connections (workspace_id, user_id, person_id, connected_on, company_name, position)
    select distinct on (p.id) ${workspaceId}::uuid, ${userId}::uuid, p.id, input.connected_on, input.company, input.position
      from (${input}) input
      join people p on p.workspace_id = ${workspaceId} and p.linkedin_url = input.linkedin_url
    on conflict (workspace_id, user_id, person_id) do update
       set connected_on = excluded.connected_on, company_name = excluded.company_name, position = excluded.position`);

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
