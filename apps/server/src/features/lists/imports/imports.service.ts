import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { CSV_UPLOAD, type ImportKind, type TImportStatus } from '@warmpath/shared';
import pg from 'pg';
import type { Database } from '../../../db/client.ts';
import type { EventRecorder } from '../../../events/record.ts';
import { eventUser } from '../../../events/subjects.ts';
import type { ImportMergeAttempt, ImportMergeJob, JobQueue } from '../../../jobs/queue.ts';
import type { Pacer } from '../../../jobs/requests-first.ts';
import { AppError } from '../../../lib/app-error.ts';
import { csvLine } from '../../../lib/csv-write.ts';
import type { Member } from '../../../plugins/auth.ts';
import { CsvFormatError, readCsv } from './csv-reader.ts';
import { type HeaderMap, KINDS, mapHeader, missingHeaderMessage, validateRow } from './import-kinds.ts';
import {
  completeImport,
  dropStagedRows,
  failImport,
  findImport,
  IMPORT_FINISHED_CHANNEL,
  type ImportProgress,
  importToMerge,
  inStagingTransaction,
  insertImport,
  lockForMerge,
  lockImport,
  notifyImportFinished,
  openStaging,
  rejectionsAfter,
  stageForMerge,
  takeStagedRows,
  updateProgress,
} from './imports.repo.ts';
import { MERGED_TABLES, type MergeCounts, mergeImport } from './merge.ts';

// The one streaming import pipeline behind every upload: request -> RFC 4180 reader -> the shared
// row schema -> COPY into a per-import staging table (temporary: never logged, gone with its
// connection) -> handed over to a worker (the rows kept in `import_staged_rows`, the merge's job
// queued) -> one set-based merge in one transaction, which also marks the import completed. Nothing
// of the file is kept in memory beyond one chunk, nor written to a file.

export type ImportDeps = {
  database: Database;
  jobs: Pick<JobQueue, 'enqueueGraphRecompute' | 'enqueueImportMerge' | 'wakeImportMerges'>;
  events: EventRecorder;
  /** Paces an import's staging and merge (jobs/requests-first.ts); at full speed when absent. */
  pacer?: () => Pacer;
};

export type ImportRequest = {
  id: string;
  kind: ImportKind;
  fileName: string;
  mapNetwork: boolean;
  trackJobChanges: boolean;
};

/** An import whose file was received and staged, waiting for its merge. */
export type ReceivedImport = {
  /** Hands the import over to its merge (a worker's job) and waits for the outcome. */
  merge: () => Promise<TImportStatus>;
  /** Gives up before the merge (the request turned out bad): nothing is imported. */
  abandon: (reason: string) => Promise<void>;
};

export const INTERRUPTED_ERROR =
  'The upload was interrupted before the whole file arrived; nothing of it was imported. Please upload it again.';
export const IMPORT_FAILED_ERROR = 'The import could not be completed; nothing of it was imported. Please try again.';
export const TOO_LARGE_ERROR = `File is larger than ${CSV_UPLOAD.maxBytes} bytes`;

const PROGRESS_EVERY_MS = 500;
/** From this many rows written, the merged tables' statistics are refreshed before the import answers. */
const STATISTICS_REFRESH_ROWS = 1000;
const COPY_BATCH_CHARS = 256 * 1024;

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };

/** COPY's text format: backslash, tab and line breaks escaped, null as \N; a NUL (which text cannot hold) shows as �. */
const copyValue = (value: string | null) => {
  if (value === null) return '\\N';
  return /[\\\t\n\r\0]/.test(value) ? value.replace(/[\\\t\n\r\0]/g, (char) => COPY_ESCAPES[char] ?? char) : value;
};

/** How many times a merge runs when other writers keep committing people of its file meanwhile. */
const MERGE_ATTEMPTS = 3;

/** The PostgreSQL error code of an error, or of the error it wraps (the ORM wraps the driver's). */
const postgresCode = (error: unknown): string | undefined => {
  if (error instanceof pg.DatabaseError) return error.code;
  return error instanceof Error ? postgresCode(error.cause) : undefined;
};

/**
 * Runs a merge, and again when it met a row that another writer committed after the merge matched
 * the file: a sync adding a person of the file while the people are added (for a 1 GB file, a window
 * of minutes). The merge rolled back whole, the staging table outlives it, and the next attempt
 * matches that person like any other known one.
 */
async function mergeAgainOnConflict<T>(merge: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await merge();
    } catch (error) {
      const uniqueViolation = postgresCode(error) === '23505';
      if (!uniqueViolation || attempt === MERGE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Receives an upload's file: records the import, streams its rows into staging, and returns the
 * handle to merge it. Every failure is recorded on the import (status 'failed', with why) before it
 * is thrown; the caller retries with a new import.
 */
export async function receiveImport(
  deps: ImportDeps,
  member: Member,
  request: ImportRequest,
  file: Readable,
  limits: { truncated: () => boolean },
): Promise<ReceivedImport> {
  const ws = member.workspaceId;
  const client = await deps.database.pool.connect();
  // A dropped connection fails the query in flight, which is handled there; the event adds nothing.
  client.on('error', () => {});
  let released = false;
  // The connection is closed rather than returned: its staging table and advisory lock go with it.
  const release = () => {
    if (released) return;
    released = true;
    client.release(true);
  };
  let progress: ImportProgress = { bytesReceived: 0, rowsProcessed: 0 };
  const fail = async (reason: string) => {
    release();
    await deps.database.inWorkspace(ws, (tx) => failImport(tx, ws, request.id, reason, progress));
  };

  try {
    // Held for the import's life: a server starting later knows a free lock means a dead import.
    const created =
      (await lockImport(client, request.id)) &&
      (await deps.database.inWorkspace(ws, (tx) => insertImport(tx, ws, { ...request, createdBy: member.userId })));
    if (!created)
      throw new AppError('ALREADY_EXISTS', 'This import id was already used; choose a new one to upload again');
  } catch (error) {
    release();
    throw error;
  }

  const progressWrites = progressWriter(deps.database, ws, request.id);
  const timer = setInterval(() => progressWrites.write(progress), PROGRESS_EVERY_MS);

  try {
    progress = await stageRows(
      client,
      request.kind,
      file,
      (current) => {
        progress = current;
      },
      deps.pacer?.(),
    );
    clearInterval(timer);
    if (limits.truncated()) throw new AppError('TOO_LARGE', TOO_LARGE_ERROR);
  } catch (error) {
    clearInterval(timer);
    await progressWrites.written();
    // Whatever went wrong, the rest of the file is still arriving: let it drain so the client gets the answer.
    file.resume();
    if (error instanceof pg.DatabaseError) {
      // The database failed us, not the file: the caller logs it.
      await fail(IMPORT_FAILED_ERROR);
      throw error;
    }
    const known = error instanceof AppError || error instanceof CsvFormatError;
    const reason = known ? error.message : INTERRUPTED_ERROR;
    await fail(reason);
    throw error instanceof AppError ? error : new AppError(known ? 'FILE_UNREADABLE' : 'UPLOAD_INTERRUPTED', reason);
  }
  await progressWrites.written();

  return {
    abandon: fail,
    merge: async () => {
      try {
        // The rows, the 'merging' mark and the merge's job commit together: handed over whole or not at all.
        await inStagingTransaction(client, ws, async (tx) => {
          await stageForMerge(tx, ws, request.id, request.kind, progress);
          await deps.jobs.enqueueImportMerge(tx, { workspaceId: ws, importId: request.id });
        });
      } catch (error) {
        await fail(IMPORT_FAILED_ERROR);
        throw error;
      }
      release();
      deps.jobs.wakeImportMerges();
      return mergedImport(deps.database, ws, request.id);
    },
  };
}

/**
 * An import's progress written one write after the other, from a connection of its own: the staging's
 * and the merge's own writes show only when they commit. A write that fails is skipped (the next one
 * says more).
 */
function progressWriter(database: Database, workspaceId: string, id: string) {
  let writing: Promise<void> = Promise.resolve();
  return {
    write: (progress: Parameters<typeof updateProgress>[3]) => {
      writing = writing
        .then(() => database.inWorkspace(workspaceId, (tx) => updateProgress(tx, workspaceId, id, progress)))
        .catch(() => {});
    },
    /** Resolves once every write asked for is made. */
    written: () => writing,
  };
}

/** How often an uploader's request reads its import while a worker merges it, should a notification be missed. */
const OUTCOME_POLL_MS = 1000;

/**
 * Waits for a handed-over import's merge (a worker's job) and answers as the upload does: the completed
 * import, or its failure. Woken by the merge's notification, and reads the import every
 * `OUTCOME_POLL_MS` all the same (a notification sent while the listening connection was lost is gone).
 */
async function mergedImport(database: Database, workspaceId: string, id: string): Promise<TImportStatus> {
  let notified = false;
  let wake = () => {};
  const finished = () => {
    notified = true;
    wake();
  };
  const unlisten = await database.listen(
    IMPORT_FINISHED_CHANNEL,
    (payload) => {
      if (payload === id) finished();
    },
    { onReset: finished },
  );
  try {
    for (;;) {
      notified = false;
      const status = await database.inWorkspace(workspaceId, (tx) => findImport(tx, workspaceId, id));
      if (!status) throw new AppError('NOT_FOUND', 'Import not found');
      if (status.status === 'completed') {
        // Merged by a worker, whose writes this process's reads know nothing of: the uploader's next
        // pages must not come from a replica that has not replayed them yet.
        await database.noteWrite(workspaceId);
        return status;
      }
      if (status.status === 'failed') throw new AppError('IMPORT_FAILED', status.error ?? IMPORT_FAILED_ERROR);
      if (notified) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, OUTCOME_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unlisten();
  }
}

/**
 * Merges a handed-over import (the worker's job, decision 0037): its staged rows into the workspace's
 * lists, in one transaction that also marks it completed and deletes them. A failed attempt rolls back
 * whole and the queue runs it again; the last one's failure marks the import failed. Returns the counts,
 * or null when the import is no longer merging (an attempt before this one committed it).
 */
export async function mergeHandedOverImport(
  deps: ImportDeps,
  job: ImportMergeJob,
  attempt: ImportMergeAttempt,
): Promise<MergeCounts | null> {
  const { workspaceId: ws, importId } = job;
  const found = await deps.database.inWorkspace(ws, (tx) => importToMerge(tx, ws, importId));
  if (!found) return null;
  const progressWrites = progressWriter(deps.database, ws, importId);
  let merged: MergeCounts | null;
  try {
    merged = await mergeAgainOnConflict(() =>
      deps.database.inWorkspace(ws, async (tx) => {
        if (!(await lockForMerge(tx, ws, importId))) return null;
        await takeStagedRows(tx, ws, importId, found.kind);
        // A merge of 50,000 rows is seconds of a core: like every job's, its steps give way to the
        // requests of a busy machine (the uploader watches its progress, nobody waits by the second).
        const pace = deps.pacer?.();
        const counts = await mergeImport(tx, found.kind, {
          workspaceId: ws,
          importId,
          mapNetwork: found.mapNetwork,
          trackJobChanges: found.trackJobChanges,
          onStep: async (mergeStep) => {
            progressWrites.write({ ...found.progress, mergeStep });
            await pace?.();
          },
        });
        await completeImport(tx, ws, importId, counts);
        await notifyImportFinished(tx, importId);
        await deps.events.record(tx, ws, 'import.completed', async () => ({
          importId,
          kind: found.kind,
          imported: counts.added + counts.updated,
          rejected: counts.rejected,
          startedBy: await eventUser(tx, ws, found.createdBy),
        }));
        return counts;
      }),
    );
  } catch (error) {
    await progressWrites.written();
    if (attempt.last)
      await deps.database.inWorkspace(ws, async (tx) => {
        await failImport(tx, ws, importId, IMPORT_FAILED_ERROR, found.progress);
        await dropStagedRows(tx, ws, importId);
        await notifyImportFinished(tx, importId);
      });
    throw error;
  }
  await progressWrites.written();
  if (!merged) return null;
  // The lists' queries right after a large import (the accounts page the user goes back to) must
  // not plan on the statistics of the emptier tables from before it. Autovacuum refreshes them
  // later anyway: a failure here must not fail a committed import.
  if (merged.added + merged.updated >= STATISTICS_REFRESH_ROWS)
    await deps.database.analyze(MERGED_TABLES[found.kind]).catch(() => {});
  // The graph sweep picks up marked people anyway: a queue hiccup must not fail a committed import.
  if (merged.dirty) await deps.jobs.enqueueGraphRecompute(ws).catch(() => {});
  return merged;
}

/**
 * Streams the file into the staging table `import_rows`: each record validated, refused rows kept
 * with their reason. Returns the bytes and rows read. Between batches it gives way to the requests
 * (`pace`): reading and checking 50,000 rows is two seconds of the API process that received them,
 * and while it ran that process's requests held their connections between statements, waiting for
 * its event loop (PostgreSQL saw them idle in transaction, reading from the client): up to 40
 * requests queued for its pool and answered in 0.5 to 1.5 s, while the other process's took tens of
 * milliseconds (issue 24). The sender waits meanwhile, its upload held back by the socket.
 */
async function stageRows(
  client: pg.PoolClient,
  kind: ImportKind,
  file: Readable,
  onProgress: (progress: ImportProgress) => void,
  pace: Pacer | undefined,
) {
  const spec = KINDS[kind];
  const copy = await openStaging(client, kind);
  const copied = once(copy, 'finish');
  // An error of the COPY surfaces at the next write or at the end, not as an unhandled event.
  copied.catch(() => {});

  let bytesReceived = 0;
  let rowsProcessed = 0;
  let header: HeaderMap | null = null;
  let sawHeader = false;
  let buffer = '';
  const flush = async () => {
    if (buffer === '') return;
    const ok = copy.write(buffer);
    buffer = '';
    if (!ok) await once(copy, 'drain');
  };

  async function* counted() {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      bytesReceived += chunk.length;
      onProgress({ bytesReceived, rowsProcessed });
      yield chunk;
    }
  }

  try {
    for await (const records of readCsv(counted())) {
      for (const record of records) {
        if (!sawHeader) {
          sawHeader = true;
          header = mapHeader(spec, record.cells);
          if (!header) throw new AppError('FILE_UNREADABLE', missingHeaderMessage(kind));
          continue;
        }
        rowsProcessed++;
        const result = validateRow(spec, header as HeaderMap, record.cells);
        buffer +=
          result.reason === null
            ? `${record.line}\t\\N\t${result.values.map(copyValue).join('\t')}\n`
            : `${record.line}\t${copyValue(result.reason)}${'\t\\N'.repeat(spec.columns.length)}\n`;
      }
      if (buffer.length >= COPY_BATCH_CHARS) {
        await flush();
        // The rows read so far, shown while the staging gives way (a chunk's arrival told only its bytes).
        onProgress({ bytesReceived, rowsProcessed });
        await pace?.();
      }
    }
    if (!sawHeader) throw new AppError('FILE_UNREADABLE', missingHeaderMessage(kind));
    await flush();
    copy.end();
    await copied;
  } catch (error) {
    copy.destroy();
    throw error;
  }
  return { bytesReceived, rowsProcessed };
}

export async function importStatus(deps: ImportDeps, member: Member, id: string): Promise<TImportStatus> {
  const status = await deps.database.inWorkspace(member.workspaceId, (tx) => findImport(tx, member.workspaceId, id));
  if (!status) throw new AppError('NOT_FOUND', 'Import not found');
  return status;
}

const REJECTIONS_PAGE = 10_000;

/** The rejected rows of an import as CSV lines (header first), read a page at a time. */
export async function* rejectedRowsCsv(deps: ImportDeps, member: Member, id: string): AsyncGenerator<string> {
  yield 'line,reason\r\n';
  let after = 0;
  for (;;) {
    const page = await deps.database.inWorkspace(member.workspaceId, (tx) =>
      rejectionsAfter(tx, member.workspaceId, id, after, REJECTIONS_PAGE),
    );
    if (page.length === 0) return;
    yield page.map((row) => csvLine([row.line, row.reason])).join('');
    after = page[page.length - 1]?.line ?? after;
  }
}
