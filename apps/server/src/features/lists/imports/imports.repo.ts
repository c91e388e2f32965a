import type { ImportKind, ImportStatus, TImportStatus } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Tx } from '../../../db/client.ts';
import * as schema from '../../../db/schema/index.ts';
import { KINDS, stagedValuesSql, stagingTableSql, unstagedValuesSql } from './import-kinds.ts';

// The imports table: one row per upload, its progress while it streams and its outcome; and the
// connection an import holds for its life (its lock, its staging table, the merge's transaction).

/** Advisory lock class held by the connection running an import: a row whose lock is free is stuck. */
export const IMPORT_LOCK_CLASS = 7262012;

export const STUCK_IMPORT_ERROR =
  'The server stopped during the import; nothing of it was imported. Please upload the file again.';

type ImportRow = {
  id: string;
  kind: ImportKind;
  file_name: string;
  status: ImportStatus;
  bytes_received: string | number;
  rows_processed: string | number;
  merge_step: number | null;
  added: number;
  updated: number;
  skipped: number;
  rejected: number;
  error: string | null;
  created_at: string | Date;
  finished_at: string | Date | null;
};

/** How much of an upload's file was read: its bytes, and its rows after the header. */
export type ImportProgress = { bytesReceived: number; rowsProcessed: number };

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

export const rejectedRowsPath = (id: string) => `/api/imports/query/${id}/rejected-rows`;

function toStatus(row: ImportRow): TImportStatus {
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    status: row.status,
    bytesReceived: Number(row.bytes_received),
    rowsProcessed: Number(row.rows_processed),
    mergeStep: row.status === 'merging' ? row.merge_step : null,
    added: row.added,
    updated: row.updated,
    skipped: row.skipped,
    rejected: row.rejected,
    rejectedRowsUrl: row.status === 'completed' && row.rejected > 0 ? rejectedRowsPath(row.id) : null,
    error: row.error,
    createdAt: iso(row.created_at) ?? '',
    finishedAt: iso(row.finished_at),
  };
}

/** Records a new import; false when the id is already taken in the workspace. */
export async function insertImport(
  tx: Tx,
  workspaceId: string,
  row: {
    id: string;
    kind: ImportKind;
    fileName: string;
    mapNetwork: boolean;
    trackJobChanges: boolean;
    createdBy: string;
  },
) {
  const inserted = await tx.execute(sql`
    insert into imports (workspace_id, id, kind, file_name, status, map_network, track_job_changes, created_by)
    values (${workspaceId}, ${row.id}, ${row.kind}, ${row.fileName}, 'receiving', ${row.mapNetwork},
            ${row.trackJobChanges}, ${row.createdBy})
    on conflict (workspace_id, id) do nothing`);
  return (inserted.rowCount ?? 0) > 0;
}

export async function findImport(tx: Tx, workspaceId: string, id: string): Promise<TImportStatus | null> {
  const result = await tx.execute<ImportRow>(sql`
    select id, kind, file_name, status, bytes_received, rows_processed, merge_step, added, updated, skipped, rejected, error,
           created_at, finished_at
      from imports where workspace_id = ${workspaceId} and id = ${id}`);
  const row = result.rows[0];
  return row ? toStatus(row) : null;
}

export async function updateProgress(
  tx: Tx,
  workspaceId: string,
  id: string,
  progress: ImportProgress & { status?: 'merging'; mergeStep?: number },
) {
  await tx.execute(sql`
    update imports set bytes_received = ${progress.bytesReceived}, rows_processed = ${progress.rowsProcessed},
           status = coalesce(${progress.status ?? null}, status),
           merge_step = coalesce(${progress.mergeStep ?? null}::smallint, merge_step), updated_at = now()
     where workspace_id = ${workspaceId} and id = ${id} and status in ('receiving', 'merging')`);
}

export async function completeImport(
  tx: Tx,
  workspaceId: string,
  id: string,
  counts: { added: number; updated: number; skipped: number; rejected: number },
) {
  await tx.execute(sql`
    update imports set status = 'completed', added = ${counts.added}, updated = ${counts.updated},
           skipped = ${counts.skipped}, rejected = ${counts.rejected}, error = null,
           updated_at = clock_timestamp(), finished_at = clock_timestamp()
     where workspace_id = ${workspaceId} and id = ${id}`);
}

export async function failImport(tx: Tx, workspaceId: string, id: string, error: string, progress: ImportProgress) {
  await tx.execute(sql`
    update imports set status = 'failed', error = ${error}, updated_at = now(), finished_at = now(),
           bytes_received = ${progress.bytesReceived}, rows_processed = ${progress.rowsProcessed}
     where workspace_id = ${workspaceId} and id = ${id} and status <> 'completed'`);
}

/** The rejected rows in line order, a page at a time (a file may have millions). */
export async function rejectionsAfter(tx: Tx, workspaceId: string, importId: string, afterLine: number, limit: number) {
  const result = await tx.execute<{ line: string | number; reason: string }>(sql`
    select line, reason from import_rejections
     where workspace_id = ${workspaceId} and import_id = ${importId} and line > ${afterLine}
     order by line limit ${limit}`);
  return result.rows.map((row) => ({ line: Number(row.line), reason: row.reason }));
}

/**
 * Marks failed every import a process that is gone left receiving: its connection's advisory lock is
 * free (a live import holds its own while its file arrives). A merging import belongs to its job, which
 * a worker runs again if its own died. Runs as the owner, across workspaces, when a server starts.
 * Returns how many were marked.
 */
export async function failStuckImports(ownerUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const result = await client.query(
      `update imports set status = 'failed', error = $1, updated_at = now(), finished_at = now()
        where status = 'receiving' and pg_try_advisory_xact_lock($2, hashtext(id::text))`,
      [STUCK_IMPORT_ERROR, IMPORT_LOCK_CLASS],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Takes the import's advisory lock on the connection that runs it, held for the import's life: a
 * server starting later knows a free lock means a dead import. False when another holds it.
 */
export async function lockImport(client: pg.PoolClient, importId: string) {
  const locked = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as locked', [
    IMPORT_LOCK_CLASS,
    importId,
  ]);
  return locked.rows[0]?.locked === true;
}

/** Creates the connection's staging table `import_rows` for this kind, and opens a COPY into it (text format). */
export async function openStaging(client: pg.PoolClient, kind: ImportKind) {
  const spec = KINDS[kind];
  await client.query(stagingTableSql(spec, { dropOnCommit: false }));
  return client.query(copyFrom(`copy import_rows (line, reason, ${spec.columns.join(', ')}) from stdin`));
}

/**
 * Hands a received import over to its merge: its rows go from the connection's staging table to
 * `import_staged_rows`, where every worker can find them, and the import is marked merging. In the caller's
 * transaction, which also queues the merge's job.
 */
export async function stageForMerge(
  tx: Tx,
  workspaceId: string,
  importId: string,
  kind: ImportKind,
  progress: ImportProgress,
) {
  await tx.execute(sql`
    insert into import_staged_rows (workspace_id, import_id, line, reason, values)
    select ${workspaceId}::uuid, ${importId}::uuid, line, reason,
           ${sql.raw(stagedValuesSql(KINDS[kind]))}
      from import_rows`);
  await updateProgress(tx, workspaceId, importId, { ...progress, status: 'merging' });
}

/** What a merge needs to know of its import; null when it is no longer merging (done, failed, or gone). */
export async function importToMerge(tx: Tx, workspaceId: string, id: string) {
  const result = await tx.execute<{
    kind: ImportKind;
    map_network: boolean;
    track_job_changes: boolean;
    created_by: string;
    bytes_received: string | number;
    rows_processed: string | number;
  }>(sql`
    select kind, map_network, track_job_changes, created_by, bytes_received, rows_processed from imports
     where workspace_id = ${workspaceId} and id = ${id} and status = 'merging'`);
  const row = result.rows[0];
  return row
    ? {
        kind: row.kind,
        mapNetwork: row.map_network,
        trackJobChanges: row.track_job_changes,
        createdBy: row.created_by,
        progress: { bytesReceived: Number(row.bytes_received), rowsProcessed: Number(row.rows_processed) },
      }
    : null;
}

/**
 * Takes an import's staged rows into the transaction's own staging table `import_rows` (dropped at
 * commit), the one the merge reads and marks, and deletes them from `import_staged_rows`: gone if the
 * merge commits, there again for the next attempt if it does not.
 */
export async function takeStagedRows(tx: Tx, workspaceId: string, importId: string, kind: ImportKind) {
  await tx.execute(sql`
    create temp table import_rows on commit drop as
    select line, reason, ${sql.raw(unstagedValuesSql(KINDS[kind]))}
      from import_staged_rows where workspace_id = ${workspaceId} and import_id = ${importId}`);
  await dropStagedRows(tx, workspaceId, importId);
}

/**
 * Takes the import's lock for the merge's transaction, and says whether it is still to merge. Two
 * attempts of one merge never run at once (a lapsed lease's retry beside a stalled first, a queued
 * again job beside its original): the second waits here, then finds the import done.
 */
export async function lockForMerge(tx: Tx, workspaceId: string, id: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_CLASS}, hashtext(${id}))`);
  return (await importToMerge(tx, workspaceId, id)) !== null;
}

/** The channel an import's merge notifies, with the import's id, when it completes or fails. */
export const IMPORT_FINISHED_CHANNEL = 'import_finished';

/** Tells the uploader's process the import is done; sent as the caller's transaction commits. */
export async function notifyImportFinished(tx: Tx, importId: string) {
  await tx.execute(sql`select pg_notify(${IMPORT_FINISHED_CHANNEL}, ${importId})`);
}

/** Drops an import's staged rows: taken by its merge, or its last attempt failed. */
export async function dropStagedRows(tx: Tx, workspaceId: string, importId: string) {
  await tx.execute(sql`delete from import_staged_rows where workspace_id = ${workspaceId} and import_id = ${importId}`);
}

/** A transaction in the workspace on the import's own connection, the one holding its staging table. */
export async function inStagingTransaction<T>(
  client: pg.PoolClient,
  workspaceId: string,
  work: (tx: Tx) => Promise<T>,
) {
  return drizzle(client, { schema }).transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.workspace_id', ${workspaceId}, true)`);
    return work(tx);
  });
}
