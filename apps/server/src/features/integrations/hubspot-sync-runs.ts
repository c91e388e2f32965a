import type { TSyncRun } from '@warmpath/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { jobRuns } from '../../db/schema/index.ts';
import {
  type HubspotAccountDeps,
  HubspotReconnectRequired,
  hubspotEnabled,
  parseHubspotSettings,
} from '../../integrations/hubspot/hubspot-account.ts';
import { findWorkspaceIntegration } from '../../integrations/integrations.repo.ts';
import { toSyncRun } from '../../jobs/job-runs.ts';
import type { HubspotSyncJob, JobQueue } from '../../jobs/queue.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import { syncHubspotLists } from './hubspot-sync.ts';

export type HubspotSyncDeps = HubspotAccountDeps & {
  jobs: Pick<JobQueue, 'enqueueHubspotSync' | 'enqueueGraphRecompute'>;
};

const PROGRESS_INTERVAL_MS = 500;

/**
 * Queues a sync of the chosen lists' companies, unless one is already waiting to start (a save and a
 * click on 'Sync now' fold into one). Runs in the name of `userId` (the admin who asked, or the one
 * who connected HubSpot for the scheduled ones).
 */
export async function requestHubspotSync(deps: HubspotSyncDeps, workspaceId: string, userId: string) {
  const run = await deps.database.inWorkspace(workspaceId, async (tx) => {
    const [waiting] = await tx
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.workspaceId, workspaceId), eq(jobRuns.kind, 'hubspot-sync'), eq(jobRuns.status, 'queued')));
    if (waiting) return { row: waiting, created: false };
    const [created] = await tx
      .insert(jobRuns)
      .values({ workspaceId, userId, kind: 'hubspot-sync', status: 'queued', phase: 'Waiting to start' })
      .returning();
    if (!created) throw new Error('insert returned no row');
    return { row: created, created: true };
  });
  if (run.created) await deps.jobs.enqueueHubspotSync({ workspaceId, runId: run.row.id });
  return toSyncRun(run.row);
}

export async function latestHubspotSync(deps: HubspotSyncDeps, workspaceId: string): Promise<TSyncRun | null> {
  const [row] = await deps.database.inWorkspace(workspaceId, (tx) =>
    tx
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.workspaceId, workspaceId), eq(jobRuns.kind, 'hubspot-sync')))
      .orderBy(desc(jobRuns.createdAt))
      .limit(1),
  );
  return row ? toSyncRun(row) : null;
}

/**
 * The worker's side: runs the sync and keeps its row up to date for the progress bar; then the graph
 * job takes the companies that came in or left out of (or back into) the network. A retried attempt
 * takes the same row back to running. Returns what it brought in, or null when HubSpot refused our
 * access.
 */
export async function runHubspotSyncJob(deps: HubspotSyncDeps, job: HubspotSyncJob) {
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
    const counts = await syncHubspotLists(deps, workspaceId, async ({ phase, processed, total }) => {
      if (Date.now() - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = Date.now();
      await update({ phase, processed, total });
    });
    await update({ status: 'succeeded', phase: 'Done', counts, finishedAt: new Date() });
    await deps.jobs.enqueueGraphRecompute(workspaceId);
    return counts;
  } catch (error) {
    const reconnect = error instanceof HubspotReconnectRequired;
    await update({
      status: 'failed',
      error: reconnect ? error.message : 'The sync failed; it will be retried',
      finishedAt: new Date(),
    });
    if (!reconnect) throw error;
    return null;
  }
}

/** The scheduled refresh: a sync for every connected workspace, in the name of who connected it. */
export async function refreshHubspotLists(deps: HubspotSyncDeps) {
  for (const workspaceId of await listWorkspaceIds(deps.database)) {
    const row = await deps.database.inWorkspace(workspaceId, (tx) =>
      findWorkspaceIntegration(tx, workspaceId, 'hubspot'),
    );
    const settings = parseHubspotSettings(row?.settings ?? null);
    if (hubspotEnabled(settings)) await requestHubspotSync(deps, workspaceId, settings.connectedBy);
  }
}
