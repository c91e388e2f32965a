import type { TSyncRun } from '@warmpath/shared';
import type { jobRuns } from '../db/schema/index.ts';

/** A long job's row (`job_runs`: a Google sync, a HubSpot lists sync) as its progress bar reads it. */
export function toSyncRun(row: typeof jobRuns.$inferSelect): TSyncRun {
  return {
    id: row.id,
    status: row.status,
    phase: row.phase,
    processed: row.processed,
    total: row.total,
    counts: row.counts ?? null,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
