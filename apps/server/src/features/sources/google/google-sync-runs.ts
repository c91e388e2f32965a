import type { TSyncRun } from '@warmpath/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { jobRuns } from '../../../db/schema/index.ts';
import { inferJobChangesFromMail } from '../../../graph/job-changes.ts';
import { toSyncRun } from '../../../jobs/job-runs.ts';
import type { GoogleSyncJob, JobQueue } from '../../../jobs/queue.ts';
import type { Member } from '../../../plugins/auth.ts';
import { GoogleReconnectRequired, googleAccount } from './google-account.ts';
import { type SyncDeps, syncGoogleAccount } from './google-sync.ts';

export type SyncRunDeps = SyncDeps & { jobs: JobQueue };

const PROGRESS_INTERVAL_MS = 500;

/** Queues a sync of the member's Google data, unless one is already waiting to start. */
export async function requestGoogleSync(deps: SyncRunDeps, target: { workspaceId: string; userId: string }) {
  const { workspaceId, userId } = target;
  await googleAccount(deps, workspaceId, userId); // refuses without a usable connection, before queueing
  const run = await deps.database.inWorkspace(workspaceId, async (tx) => {
    const [waiting] = await tx
      .select()
      .from(jobRuns)
      .where(
        and(
          eq(jobRuns.workspaceId, workspaceId),
          eq(jobRuns.userId, userId),
          eq(jobRuns.kind, 'google-sync'),
          eq(jobRuns.status, 'queued'),
        ),
      );
    if (waiting) return { row: waiting, created: false };
    const [created] = await tx
      .insert(jobRuns)
      .values({ workspaceId, userId, kind: 'google-sync', status: 'queued', phase: 'Waiting to start' })
      .returning();
    if (!created) throw new Error('insert returned no row');
    return { row: created, created: true };
  });
  if (run.created) await deps.jobs.enqueueGoogleSync({ workspaceId, userId, runId: run.row.id });
  return toSyncRun(run.row);
}

export async function latestGoogleSync(deps: SyncRunDeps, member: Member): Promise<TSyncRun | null> {
  const [row] = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    tx
      .select()
      .from(jobRuns)
      .where(
        and(
          eq(jobRuns.workspaceId, member.workspaceId),
          eq(jobRuns.userId, member.userId),
          eq(jobRuns.kind, 'google-sync'),
        ),
      )
      .orderBy(desc(jobRuns.createdAt))
      .limit(1),
  );
  return row ? toSyncRun(row) : null;
}

/**
 * The worker's side: runs the sync and keeps its row up to date for the progress bar. A retried
 * attempt takes the same row back to running. Returns what it brought in, or null when Google refused
 * our access (the run is failed for good: only connecting again helps).
 */
export async function runGoogleSyncJob(deps: SyncRunDeps, job: GoogleSyncJob) {
  const { workspaceId, runId } = job;
  const update = (change: Partial<typeof jobRuns.$inferInsert>) =>
    deps.database.inWorkspace(workspaceId, (tx) =>
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
    const counts = await syncGoogleAccount(deps, job, async ({ phase, processed, total }) => {
      if (Date.now() - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = Date.now();
      await update({ phase, processed, total });
    });
    // What the new mail implies about where people work now: probable job changes, for an admin.
    await deps.database.inWorkspace(job.workspaceId, (tx) => inferJobChangesFromMail(tx, job.workspaceId));
    await update({ status: 'succeeded', phase: 'Done', counts, finishedAt: new Date() });
    await deps.jobs.enqueueGraphRecompute(job.workspaceId);
    return counts;
  } catch (error) {
    const reconnect = error instanceof GoogleReconnectRequired;
    await update({
      status: 'failed',
      error: reconnect ? error.message : 'The sync failed; it will be retried',
      finishedAt: new Date(),
    });
    // A revoked grant will not get better by retrying; anything else goes back to the queue.
    if (!reconnect) throw error;
    return null;
  }
}
