import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { integrations } from '../../../db/schema/index.ts';

/** What we keep about a member's Google connection besides the sealed tokens. */
export type GoogleSettings = {
  email: string | null;
  /** Set when Google refused our refresh token: the member must connect again. */
  reconnectRequired: boolean;
};

export async function saveGoogleConnection(
  tx: Tx,
  workspaceId: string,
  userId: string,
  connection: { sealedTokens: string; settings: GoogleSettings },
) {
  const values = { sealedTokens: connection.sealedTokens, settings: JSON.stringify(connection.settings) };
  await tx
    .insert(integrations)
    .values({ workspaceId, userId, kind: 'google', ...values })
    .onConflictDoUpdate({ target: [integrations.workspaceId, integrations.kind, integrations.userId], set: values });
}

export async function findGoogleConnection(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ sealedTokens: integrations.sealedTokens, settings: integrations.settings })
    .from(integrations)
    .where(
      and(eq(integrations.workspaceId, workspaceId), eq(integrations.userId, userId), eq(integrations.kind, 'google')),
    );
  if (!row?.sealedTokens) return null;
  return { sealedTokens: row.sealedTokens, settings: JSON.parse(row.settings ?? '{}') as GoogleSettings };
}

/**
 * People at the workspace's domains whom this member knows from Google (address book or mail and
 * meetings), who are neither users nor invited yet: the invite modal's suggestions.
 */
export async function findSuggestedTeammates(tx: Tx, workspaceId: string, userId: string, limit = 200) {
  // The colleagues first (tens), then, per colleague, whether this member knows them: each `offset 0`
  // keeps its check per row on an index. Planned freely while a first sync was still writing, the
  // checks ran over the whole workspace's mail for every person, 2 to 4 s for the onboarding's modal.
  const rows = await tx.execute<{ name: string; email: string }>(sql`
    with colleagues as materialized (
      select p.id, p.full_name, p.email
        from people p
        join workspaces w on w.id = p.workspace_id
       where p.workspace_id = ${workspaceId} and p.email is not null
         and split_part(p.email, '@', 2) = any(w.domains)
         and not exists (select 1 from users u where u.workspace_id = p.workspace_id and u.email = p.email)
         and not exists (select 1 from invites v where v.workspace_id = p.workspace_id and v.email = p.email
                            and v.status = 'pending' and v.expires_at > now())
    )
    select c.full_name as name, c.email
      from colleagues c
     where exists (select 1 from address_book_entries a
                    where a.workspace_id = ${workspaceId} and a.user_id = ${userId} and a.person_id = c.id)
        or exists (select 1 from interaction_participants ip
                    where ip.workspace_id = ${workspaceId} and ip.person_id = c.id
                      and exists (select 1 from interactions i
                                   where i.workspace_id = ip.workspace_id and i.id = ip.interaction_id
                                     and i.source_user_id = ${userId} offset 0)
                   offset 0)
     order by c.full_name, c.email
     limit ${limit}`);
  return rows.rows;
}
