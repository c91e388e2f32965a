import type { TSyncRun } from '@warmpath/shared';
import { and, desc, eq } from 'drizzle-orm';
import { jobRuns } from '../../db/schema/index.ts';
import {
  type HubspotAccountDeps,
  HubspotReconnectRequired,
  hubspotEnabled,
  parseHubspotSettings,
} from '../../integrations/hubspot/hubspot-account.ts';
import { findWorkspaceIntegration } from '../../integrations/integrations.repo.ts';
import { keepRun, queueRun, toSyncRun } from '../../jobs/job-runs.ts';
import type { HubspotSyncJob, JobQueue } from '../../jobs/queue.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import { syncHubspotLists } from './hubspot-sync.ts';

export type HubspotSyncDeps = HubspotAccountDeps & {
  jobs: Pick<JobQueue, 'enqueueHubspotSync' | 'enqueueGraphRecompute'>;
};

/**
 * Queues a sync of the chosen lists' companies, unless one is already waiting to start (a save and a
 * click on 'Sync now' fold into one). Runs in the name of `userId` (the admin who asked, or the one
 * who connected HubSpot for the scheduled ones).
 */
export function requestHubspotSync(deps: HubspotSyncDeps, workspaceId: string, userId: string) {
  return queueRun(deps.database, { workspaceId, userId, kind: 'hubspot-sync', perUser: false }, (runId) =>
    deps.jobs.enqueueHubspotSync({ workspaceId, runId }),
  );
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
 * The worker's side: runs the sync, keeping its row up to date for the progress bar; then the graph
 * job takes the companies that came in or left out of (or back into) the network. Returns what it
 * brought in, or null when HubSpot refused our access.
 */
export async function runHubspotSyncJob(deps: HubspotSyncDeps, job: HubspotSyncJob) {
  const counts = await keepRun(
    deps.database,
    job,
    (progress) => syncHubspotLists(deps, job.workspaceId, progress),
    (error): error is HubspotReconnectRequired => error instanceof HubspotReconnectRequired,
  );
  if (counts) await deps.jobs.enqueueGraphRecompute(job.workspaceId);
  return counts;
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
