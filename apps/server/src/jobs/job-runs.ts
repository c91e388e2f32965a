import type { TSyncRun } from '@warmpath/shared';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { jobRuns } from '../db/schema/index.ts';

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

type RunKind = (typeof jobRuns.$inferSelect)['kind'];
export type RunProgress = (progress: { phase: string; processed: number; total: number | null }) => Promise<void>;

/** How often a running job writes its progress: enough for a bar, few enough writes. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * A run of `kind` waiting to start for this workspace (and user, when runs are per user), or a new one;
 * `enqueue` queues the new one's job. Asking twice before it starts folds into one run.
 */
export async function queueRun(
  database: Database,
  target: { workspaceId: string; userId: string; kind: RunKind; perUser: boolean },
  enqueue: (runId: string) => Promise<void>,
): Promise<TSyncRun> {
  const { workspaceId, userId, kind } = target;
  const run = await database.inWorkspace(workspaceId, async (tx) => {
    const mine: SQL | undefined = target.perUser ? eq(jobRuns.userId, userId) : undefined;
    const [waiting] = await tx
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.workspaceId, workspaceId), mine, eq(jobRuns.kind, kind), eq(jobRuns.status, 'queued')));
    if (waiting) return { row: waiting, created: false };
    const [created] = await tx
      .insert(jobRuns)
      .values({ workspaceId, userId, kind, status: 'queued', phase: 'Waiting to start' })
      .returning();
    if (!created) throw new Error('insert returned no row');
    return { row: created, created: true };
  });
  if (run.created) await enqueue(run.row.id);
  return toSyncRun(run.row);
}

/**
 * The worker's side of a run: takes its row to running (a retried attempt takes the same row back),
 * reports progress at most every half second, and records the outcome. A failure `isFinal` says
 * retrying cannot mend (a revoked grant) ends the run for good with its message and answers null;
 * any other is recorded, then thrown for the queue to retry.
 */
export async function keepRun<T extends Record<string, number>>(
  database: Database,
  run: { workspaceId: string; runId: string },
  work: (progress: RunProgress) => Promise<T>,
  isFinal: (error: unknown) => error is Error,
): Promise<T | null> {
  const { workspaceId, runId } = run;
  const update = (change: Partial<typeof jobRuns.$inferInsert>) =>
    database.inWorkspace(workspaceId, (tx) =>
      tx
        .update(jobRuns)
        .set(change)
        .where(
          and(
            eq(jobRuns.workspaceId, workspaceId),
            eq(jobRuns.id, runId),
            inArray(jobRuns.status, ['queued', 'running', 'failed']),
          ),
        ),
    );
  await update({ status: 'running', phase: 'Starting' });
  let lastReport = 0;
  try {
    const counts = await work(async ({ phase, processed, total }) => {
      if (Date.now() - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = Date.now();
      await update({ phase, processed, total });
    });
    await update({ status: 'succeeded', phase: 'Done', counts, finishedAt: new Date() });
    return counts;
  } catch (error) {
    const final = isFinal(error);
    await update({
      status: 'failed',
      error: final ? error.message : 'The sync failed; it will be retried',
      finishedAt: new Date(),
    });
    if (!final) throw error;
    return null;
  }
}
