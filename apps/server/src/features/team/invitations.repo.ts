import type { Role } from '@warmpath/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { inviteIndex, invites, users, workspaces } from '../../db/schema/index.ts';
import { containsPattern } from '../../lib/like-pattern.ts';

export const INVITE_TTL_DAYS = 14;

export async function findWorkspaceOfInvite(db: Db, inviteId: string) {
  const [row] = await db.select().from(inviteIndex).where(eq(inviteIndex.inviteId, inviteId));
  return row?.workspaceId ?? null;
}

export async function findInvite(tx: Tx, workspaceId: string, inviteId: string) {
  const [row] = await tx
    .select()
    .from(invites)
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, inviteId)));
  return row ?? null;
}

/** A pending invitation for this address, renewed (new role, new expiry) if one is already out. */
export async function upsertPendingInvite(
  tx: Tx,
  invite: { workspaceId: string; email: string; role: Role; invitedByUserId: string },
) {
  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 24 * 60 * 60 * 1000);
  const [existing] = await tx
    .select({ id: invites.id })
    .from(invites)
    .where(
      and(eq(invites.workspaceId, invite.workspaceId), eq(invites.email, invite.email), eq(invites.status, 'pending')),
    )
    .for('update');
  if (existing) {
    await tx
      .update(invites)
      .set({ role: invite.role, invitedByUserId: invite.invitedByUserId, expiresAt })
      .where(and(eq(invites.workspaceId, invite.workspaceId), eq(invites.id, existing.id)));
    return existing.id;
  }
  const [created] = await tx
    .insert(invites)
    .values({ ...invite, expiresAt })
    .returning({ id: invites.id });
  if (!created) throw new Error('insert returned no row');
  await tx.insert(inviteIndex).values({ inviteId: created.id, workspaceId: invite.workspaceId });
  return created.id;
}

export async function findPendingInvites(tx: Tx, workspaceId: string, searchTerm?: string) {
  const pattern = containsPattern(searchTerm);
  return tx
    .select({ id: invites.id, email: invites.email, role: invites.role })
    .from(invites)
    .where(
      and(
        eq(invites.workspaceId, workspaceId),
        eq(invites.status, 'pending'),
        sql`${invites.expiresAt} > now()`,
        pattern ? sql`${invites.email} ilike ${pattern}` : undefined,
      ),
    )
    .orderBy(asc(invites.email));
}

export async function setInvite(
  tx: Tx,
  workspaceId: string,
  inviteId: string,
  change: Partial<Pick<typeof invites.$inferInsert, 'role' | 'status' | 'acceptedUserId'>>,
) {
  const updated = await tx
    .update(invites)
    .set(change)
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, inviteId), eq(invites.status, 'pending')))
    .returning({ id: invites.id });
  return updated.length > 0;
}

/** The workspace and a few of its members, as the invitation page shows them. */
export async function findInvitationContext(tx: Tx, workspaceId: string) {
  const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  const members = await tx
    .select({ firstName: users.firstName, lastName: users.lastName, avatar: users.avatar })
    .from(users)
    .where(eq(users.workspaceId, workspaceId))
    .orderBy(asc(users.createdAt))
    .limit(8);
  return { workspace: workspace ?? null, members };
}

/** Which of these addresses already belong to users of the workspace. */
export async function emailsOfUsers(tx: Tx, workspaceId: string, emails: string[]) {
  const rows = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.workspaceId, workspaceId), inArray(users.email, emails)));
  return rows.map((row) => row.email);
}
