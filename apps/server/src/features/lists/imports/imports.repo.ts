import type { ImportKind, ImportStatus, TImportStatus } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Tx } from '../../../db/client.ts';
import * as schema from '../../../db/schema/index.ts';
import { KINDS, stagingTableSql } from './import-kinds.ts';

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
  progress: { bytesReceived: number; rowsProcessed: number; status?: 'merging'; mergeStep?: number },
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

export async function failImport(
  tx: Tx,
  workspaceId: string,
  id: string,
  error: string,
  progress: { bytesReceived: number; rowsProcessed: number },
) {
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
 * Marks failed every import left receiving or merging by a process that is gone: its connection's
 * advisory lock is free (a live import holds its own for as long as it runs). Runs as the owner, across
 * workspaces, when a server starts. Returns how many were marked.
 */
export async function failStuckImports(ownerUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const result = await client.query(
      `update imports set status = 'failed', error = $1, updated_at = now(), finished_at = now()
        where status in ('receiving', 'merging') and pg_try_advisory_xact_lock($2, hashtext(id::text))`,
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
