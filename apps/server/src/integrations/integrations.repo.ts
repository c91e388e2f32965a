import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { integrations } from '../db/schema/index.ts';

/** The workspace-wide integrations (one of each kind per workspace); Google is per member, elsewhere. */
export type WorkspaceIntegrationKind = 'slack' | 'webhook' | 'hubspot';

const workspaceWide = (workspaceId: string, kind: WorkspaceIntegrationKind) =>
  and(eq(integrations.workspaceId, workspaceId), eq(integrations.kind, kind), isNull(integrations.userId));

export async function findWorkspaceIntegration(tx: Tx, workspaceId: string, kind: WorkspaceIntegrationKind) {
  const [row] = await tx
    .select({ settings: integrations.settings, sealedTokens: integrations.sealedTokens })
    .from(integrations)
    .where(workspaceWide(workspaceId, kind));
  return row ?? null;
}

/** Creates or replaces; `sealedTokens` left undefined keeps what is stored. */
export async function saveWorkspaceIntegration(
  tx: Tx,
  workspaceId: string,
  kind: WorkspaceIntegrationKind,
  values: { settings: string; sealedTokens?: string },
) {
  await tx
    .insert(integrations)
    .values({ workspaceId, kind, userId: null, ...values })
    .onConflictDoUpdate({ target: [integrations.workspaceId, integrations.kind, integrations.userId], set: values });
}

export async function deleteWorkspaceIntegration(tx: Tx, workspaceId: string, kind: WorkspaceIntegrationKind) {
  const deleted = await tx
    .delete(integrations)
    .where(workspaceWide(workspaceId, kind))
    .returning({ id: integrations.id });
  return deleted.length > 0;
}
