import { randomUUID } from 'node:crypto';
import type { TDemo } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { seedDemo } from '../../demo/seed-demo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { insertUser, insertWorkspace, setOnboarding } from '../users/users.repo.ts';
import { deleteWorkspace, findDemo, findDemoOwner, saveDemo } from './demo.repo.ts';

export type DemoDeps = { database: Database; log: (line: string) => void };

// A member's demo is a workspace of its own, made by the same seed as `cli seed-demo` (small: 300
// companies, 3,000 prospects, about 3 s), with the member as its admin under a separate user. It owns no
// domain (nobody joins it, it blocks no sign-up) and nothing in it reaches the member's real workspace.

export async function demoStatus(deps: DemoDeps, member: Member): Promise<TDemo> {
  return { status: (await findDemo(deps.database, member.subject)) ? 'ready' : 'none' };
}

/** Creates the member's demo workspace unless they have one; answers once it is ready. */
export async function openDemo(deps: DemoDeps, member: Member): Promise<TDemo> {
  if (await findDemo(deps.database, member.subject)) return { status: 'ready' };
  const owner = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findDemoOwner(tx, member.workspaceId, member.userId),
  );
  if (!owner) throw new AppError('NOT_FOUND', 'Open the demo from your own workspace');
  const workspaceId = randomUUID();
  const userId = await deps.database.inWorkspace(workspaceId, async (tx) => {
    await insertWorkspace(tx, {
      id: workspaceId,
      name: `${owner.workspace} (demo)`,
      domains: [],
      allowDomainJoin: false,
    });
    const id = await insertUser(tx, {
      workspaceId,
      // Never signs in by itself: the member's own identity acts here, with the demo header.
      idpSubject: `demo|${member.subject}`,
      firstName: owner.firstName,
      lastName: owner.lastName,
      email: owner.email,
      role: 'admin',
    });
    await setOnboarding(tx, workspaceId, id, { onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true });
    return id;
  });
  try {
    await seedDemo(deps.database, { workspaceId, seedUserId: userId, size: 'small', log: deps.log });
  } catch (error) {
    await deps.database.inWorkspace(workspaceId, (tx) => deleteWorkspace(tx, workspaceId));
    throw error;
  }
  // A second click raced this one and won: its demo stays, this one goes.
  if (!(await saveDemo(deps.database, member.subject, { workspaceId, userId }))) {
    await deps.database.inWorkspace(workspaceId, (tx) => deleteWorkspace(tx, workspaceId));
  }
  return { status: 'ready' };
}

/** Deletes the member's demo workspace and everything in it, from it or from their own. */
export async function removeDemo(deps: DemoDeps, member: Member): Promise<void> {
  const demo = await findDemo(deps.database, member.subject);
  if (!demo) throw new AppError('NOT_FOUND', 'No demo workspace');
  await deps.database.inWorkspace(demo.workspaceId, (tx) => deleteWorkspace(tx, demo.workspaceId));
}
