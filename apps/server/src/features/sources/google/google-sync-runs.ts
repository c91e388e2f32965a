import type { TSyncRun } from '@warmpath/shared';
import { and, desc, eq } from 'drizzle-orm';
import { jobRuns } from '../../../db/schema/index.ts';
import { inferDeparturesFromBounces } from '../../../graph/departures.ts';
import { refreshGraphStatistics } from '../../../graph/graph.service.ts';
import { inferJobChangesFromMail } from '../../../graph/job-changes.ts';
import { deriveMailEmployments } from '../../../graph/mail-employments.ts';
import { keepRun, queueRun, toSyncRun } from '../../../jobs/job-runs.ts';
import type { GoogleSyncJob, JobQueue } from '../../../jobs/queue.ts';
import type { Pacer } from '../../../jobs/requests-first.ts';
import type { Member } from '../../../plugins/auth.ts';
import { GoogleReconnectRequired, googleAccount } from './google-account.ts';
import { type SyncDeps, syncGoogleAccount } from './google-sync.ts';

/**
 * When a running sync first brings the statistics up to date with what it wrote; each next time comes
 * twice as long after the one before. The first pages of a team's first sync are what the planner
 * must learn (tables it believed empty); later pages add a share that shrinks, while each refresh
 * samples a large network's tables again (up to a second for 10M edges): a sync of two minutes refreshes
 * them 5 times instead of 40.
 */
const FIRST_STATISTICS_AFTER_MS = 3000;

export type SyncRunDeps = SyncDeps & { jobs: JobQueue };

/** Queues a sync of the member's Google data, unless one is already waiting to start. */
export async function requestGoogleSync(deps: SyncRunDeps, target: { workspaceId: string; userId: string }) {
  const { workspaceId, userId } = target;
  await googleAccount(deps, workspaceId, userId); // refuses without a usable connection, before queueing
  return queueRun(deps.database, { workspaceId, userId, kind: 'google-sync', perUser: true }, (runId) =>
    deps.jobs.enqueueGoogleSync({ workspaceId, userId, runId }),
  );
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
 * The worker's side: runs the sync, keeping its row up to date for the progress bar, then what the new
 * mail implies about where people work now (probable job changes and departures, for an admin), then
 * the graph job. `pace` is called after each step it reports: the worker's gives way to requests
 * (jobs/requests-first.ts).
 * Returns what it brought in, or null when Google refused our access (the run is failed for good:
 * only connecting again helps).
 */
export async function runGoogleSyncJob(deps: SyncRunDeps, job: GoogleSyncJob, pace: Pacer = async () => {}) {
  const counts = await keepRun(
    deps.database,
    job,
    async (progress) => {
      // Statistics kept up with the sync's writes: reads planned while it runs (the onboarding's teammate
      // suggestions, a member's removal) took seconds on tables the planner still believed empty.
      let statisticsAt = Date.now();
      let statisticsAfterMs = FIRST_STATISTICS_AFTER_MS;
      const synced = await syncGoogleAccount(deps, job, async (step) => {
        await progress(step);
        await pace();
        if (Date.now() - statisticsAt < statisticsAfterMs) return;
        await refreshGraphStatistics(deps.database);
        statisticsAt = Date.now();
        statisticsAfterMs *= 2;
      });
      // The mail inference plans on the rows the sync just wrote (seconds instead of milliseconds otherwise).
      await refreshGraphStatistics(deps.database);
      await deps.database.inWorkspace(job.workspaceId, async (tx) => {
        await inferJobChangesFromMail(tx, job.workspaceId);
        await inferDeparturesFromBounces(tx, job.workspaceId);
        // Then the stints the addresses prove (a prospect known by mail only works where they write
        // from), so a past client who moved there finds them as colleagues.
        await deriveMailEmployments(tx, job.workspaceId);
      });
      return synced;
    },
    (error): error is GoogleReconnectRequired => error instanceof GoogleReconnectRequired,
  );
  if (counts) await deps.jobs.enqueueGraphRecompute(job.workspaceId);
  return counts;
}
