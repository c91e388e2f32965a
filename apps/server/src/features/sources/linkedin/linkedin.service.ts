import type { Readable } from 'node:stream';
import type { TLinkedinImportResult } from '@warmpath/shared';
import type { Database } from '../../../db/client.ts';
import type { JobQueue } from '../../../jobs/queue.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { Member } from '../../../plugins/auth.ts';
import { parseConnectionsCsv } from './connections-csv.ts';
import { mergeConnections, mergePositions } from './linkedin.repo.ts';
import { parsePositionsCsv } from './positions-csv.ts';

export type LinkedinDeps = { database: Database; jobs: Pick<JobQueue, 'enqueueGraphRecompute'> };

/** Imports a member's LinkedIn `Connections.csv`; bad rows are reported by line, the rest imported. */
export async function importConnections(
  deps: LinkedinDeps,
  member: Member,
  file: Readable,
): Promise<TLinkedinImportResult> {
  let parsed: Awaited<ReturnType<typeof parseConnectionsCsv>>;
  try {
    parsed = await parseConnectionsCsv(file);
  } catch (error) {
    throw new AppError('FILE_UNREADABLE', error instanceof Error ? error.message : 'The file could not be read');
  }
  const merged = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    mergeConnections(tx, member.workspaceId, member.userId, parsed.connections),
  );
  await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return { imported: merged.connections, rejected: parsed.rejected };
}

/** Imports the member's own history from LinkedIn's `Positions.csv`, replacing the previous upload's. */
export async function importPositions(
  deps: LinkedinDeps,
  member: Member,
  file: Readable,
): Promise<TLinkedinImportResult> {
  let parsed: Awaited<ReturnType<typeof parsePositionsCsv>>;
  try {
    parsed = await parsePositionsCsv(file);
  } catch (error) {
    throw new AppError('FILE_UNREADABLE', error instanceof Error ? error.message : 'The file could not be read');
  }
  const imported = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    mergePositions(tx, member.workspaceId, member.userId, parsed.positions),
  );
  await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return { imported, rejected: parsed.rejected };
}
