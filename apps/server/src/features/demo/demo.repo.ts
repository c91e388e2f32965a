import { eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { demoWorkspaces, users, workspaces } from '../../db/schema/index.ts';

export type DemoWorkspace = { workspaceId: string; userId: string };

/** The demo workspace the identity opened, if any (global table: read before any workspace context). */
export async function findDemo(database: Database, subject: string): Promise<DemoWorkspace | null> {
  const [row] = await database.db
    .select({ workspaceId: demoWorkspaces.workspaceId, userId: demoWorkspaces.userId })
    .from(demoWorkspaces)
    .where(eq(demoWorkspaces.idpSubject, subject));
  return row ?? null;
}

/** Records a seeded demo as the identity's; false when another request recorded one first. */
export async function saveDemo(database: Database, subject: string, demo: DemoWorkspace) {
  const inserted = await database.db
    .insert(demoWorkspaces)
    .values({ idpSubject: subject, ...demo })
    .onConflictDoNothing()
    .returning({ subject: demoWorkspaces.idpSubject });
  return inserted.length > 0;
}

/** The names a demo's admin and workspace are given: the member's own, the workspace's marked as a demo. */
export async function findDemoOwner(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, workspace: workspaces.name })
    .from(users)
    .innerJoin(workspaces, eq(workspaces.id, users.workspaceId))
    .where(sql`${users.workspaceId} = ${workspaceId} and ${users.id} = ${userId}`);
  return row ?? null;
}

/** Deletes a workspace and, by its foreign keys, everything in it (the demo's row included). */
export async function deleteWorkspace(tx: Tx, workspaceId: string) {
  await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
}
