import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { integrations } from '../../db/schema/index.ts';

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
