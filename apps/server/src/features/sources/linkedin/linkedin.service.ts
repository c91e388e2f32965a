import type { Readable } from 'node:stream';
import { LINKEDIN_UPLOAD, type TLinkedinImportResult } from '@warmpath/shared';
import pg from 'pg';
import type { Database } from '../../../db/client.ts';
import type { JobQueue } from '../../../jobs/queue.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { Member } from '../../../plugins/auth.ts';
import { recordAudit } from '../../audit/audit.repo.ts';
import { CsvFormatError } from '../../lists/imports/csv-reader.ts';
import { blocklistOf } from '../../privacy/blocklist.ts';
import { blocklistEntries } from '../../privacy/privacy.repo.ts';
import { connectionBatches } from './connections-csv.ts';
import { Rejections } from './export-rows.ts';
import { mergeConnections, mergePositions } from './linkedin.repo.ts';
import { parsePositionsCsv } from './positions-csv.ts';

const MERGED_TABLES = ['people', 'companies', 'linkedin_connections', 'employments', 'job_changes'];

export type LinkedinDeps = { database: Database; jobs: Pick<JobQueue, 'enqueueGraphRecompute'> };

/** An uploaded export as it streams in, and whether it went past the route's size limit. */
export type LinkedinUpload = { file: Readable; truncated: () => boolean };

/** Each export's name and size limit. */
export const LINKEDIN_FILES = {
  connections: { name: 'Connections.csv', maxBytes: LINKEDIN_UPLOAD.connectionsMaxBytes },
  positions: { name: 'Positions.csv', maxBytes: LINKEDIN_UPLOAD.positionsMaxBytes },
} as const;
type LinkedinFile = (typeof LINKEDIN_FILES)[keyof typeof LINKEDIN_FILES];

export const tooLargeError = ({ name, maxBytes }: LinkedinFile) =>
  new AppError(
    'TOO_LARGE',
    `The file is larger than ${maxBytes / (1024 * 1024)} MB, more than LinkedIn's ${name} holds: choose the ${name} of your LinkedIn data export`,
  );

/** PostgreSQL's error, or the ORM's around it. */
const fromDatabase = (error: unknown) =>
  error instanceof pg.DatabaseError || (error instanceof Error && error.cause instanceof pg.DatabaseError);

/**
 * Runs `read` over an upload, with its failures as the answers the card shows: past the size limit
 * 413, a file that is not the export 422, a client gone mid-file 'interrupted'. The database's own
 * failures pass on as they are (a 500, logged).
 */
export async function readUpload<T>(upload: LinkedinUpload, file: LinkedinFile, read: () => Promise<T>): Promise<T> {
  try {
    const result = await read();
    if (upload.truncated()) throw tooLargeError(file);
    return result;
  } catch (error) {
    // Whatever went wrong, the rest of the body is still arriving: let it drain so the client gets the answer.
    upload.file.resume();
    if (upload.truncated()) throw tooLargeError(file);
    if (error instanceof AppError || fromDatabase(error)) throw error;
    if (error instanceof CsvFormatError) throw new AppError('FILE_UNREADABLE', error.message);
    throw new AppError(
      'UPLOAD_INTERRUPTED',
      'The upload stopped before the whole file arrived; please upload it again',
    );
  }
}

/**
 * Imports a member's LinkedIn `Connections.csv` as it arrives: the valid rows merged a batch at a
 * time, the bad lines counted (the first ones listed with why). Each batch commits on its own, so no
 * transaction waits on the client's network, and a re-upload after a failure adds and updates, never
 * duplicates.
 */
export async function importConnections(
  deps: LinkedinDeps,
  member: Member,
  upload: LinkedinUpload,
): Promise<TLinkedinImportResult> {
  const ws = member.workspaceId;
  const rejected = new Rejections();
  let imported = 0;
  // The member's blocked addresses and domains are never kept from their export (issue 22).
  const blocklist = blocklistOf(await deps.database.inWorkspace(ws, (tx) => blocklistEntries(tx, ws, member.userId)));
  try {
    await readUpload(upload, LINKEDIN_FILES.connections, async () => {
      for await (const read of connectionBatches(upload.file, rejected)) {
        const batch = read.filter((row) => row.email === null || !blocklist.blocks(row.email));
        const merged = await deps.database.inWorkspace(ws, (tx) => mergeConnections(tx, ws, member.userId, batch));
        // The next batches' plans must not be made on statistics from before the workspace had any of
        // these rows (a refresh is best effort: the import goes on without it).
        if (imported === 0) await deps.database.analyze(MERGED_TABLES).catch(() => {});
        imported += merged.connections;
      }
    });
  } catch (error) {
    // What was merged before the failure is in the graph's next run all the same.
    if (imported > 0) await deps.jobs.enqueueGraphRecompute(ws).catch(() => {});
    throw error;
  }
  await deps.database.inWorkspace(ws, (tx) =>
    recordAudit(tx, ws, {
      actorUserId: member.userId,
      action: 'source.connected',
      subject: 'LinkedIn import',
      details: { connections: imported },
    }),
  );
  await deps.jobs.enqueueGraphRecompute(ws);
  return { imported, rejected: rejected.listed, rejectedCount: rejected.count };
}

/** Imports the member's own history from LinkedIn's `Positions.csv`, replacing the previous upload's. */
export async function importPositions(
  deps: LinkedinDeps,
  member: Member,
  upload: LinkedinUpload,
): Promise<TLinkedinImportResult> {
  const rejected = new Rejections();
  const positions = await readUpload(upload, LINKEDIN_FILES.positions, () => parsePositionsCsv(upload.file, rejected));
  const imported = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    mergePositions(tx, member.workspaceId, member.userId, positions),
  );
  await deps.jobs.enqueueGraphRecompute(member.workspaceId);
  return { imported, rejected: rejected.listed, rejectedCount: rejected.count };
}
