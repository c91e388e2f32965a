import type { TPersona, TTargetingScheme } from '@warmpath/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { personas, targetingSchemes } from '../../db/schema/index.ts';

export async function findTargetingScheme(tx: Tx, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ scheme: targetingSchemes.scheme })
    .from(targetingSchemes)
    .where(and(eq(targetingSchemes.workspaceId, workspaceId), eq(targetingSchemes.userId, userId)));
  return row?.scheme ?? null;
}

export async function saveTargetingScheme(tx: Tx, workspaceId: string, userId: string, scheme: TTargetingScheme) {
  await tx
    .insert(targetingSchemes)
    .values({ workspaceId, userId, scheme })
    .onConflictDoUpdate({
      target: [targetingSchemes.workspaceId, targetingSchemes.userId],
      set: { scheme, updatedAt: new Date() },
    });
}

const personaColumns = {
  id: personas.id,
  name: personas.name,
  jobDepartments: personas.jobDepartments,
  seniorities: personas.seniorities,
  customJobTitles: personas.customJobTitles,
};

export async function findPersonas(tx: Tx, workspaceId: string, userId: string): Promise<TPersona[]> {
  return tx
    .select(personaColumns)
    .from(personas)
    .where(and(eq(personas.workspaceId, workspaceId), eq(personas.userId, userId)))
    .orderBy(desc(personas.createdAt));
}

export async function insertPersona(
  tx: Tx,
  persona: Omit<TPersona, 'id'> & { workspaceId: string; userId: string },
): Promise<TPersona> {
  const [created] = await tx.insert(personas).values(persona).returning(personaColumns);
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Deletes one of the user's personas; false when there was none with that id. */
export async function deletePersona(tx: Tx, workspaceId: string, userId: string, personaId: string) {
  const deleted = await tx
    .delete(personas)
    .where(and(eq(personas.workspaceId, workspaceId), eq(personas.userId, userId), eq(personas.id, personaId)))
    .returning({ id: personas.id });
  return deleted.length > 0;
}
