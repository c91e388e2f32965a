import PgBoss from 'pg-boss';

export const QUEUES = {
  googleSync: 'google-sync',
  graphRecompute: 'graph-recompute',
  graphSweep: 'graph-sweep',
  recommendActions: 'recommend-actions',
  recommendSweep: 'recommend-sweep',
} as const;
export type GoogleSyncJob = { workspaceId: string; userId: string; runId: string };
export type GraphRecomputeJob = { workspaceId: string };
export type RecommendActionsJob = { workspaceId: string };

export type JobHandlers = {
  googleSync: (job: GoogleSyncJob) => Promise<void>;
  graphRecompute: (job: GraphRecomputeJob) => Promise<void>;
  /** The daily recommendations of one workspace. */
  recommendActions: (job: RecommendActionsJob) => Promise<void>;
  /** Workspaces whose day has reached the recommendations' hour without a run yet. */
  workspacesDueForRecommendations: () => Promise<string[]>;
};

export type JobQueue = {
  enqueueGoogleSync: (job: GoogleSyncJob) => Promise<void>;
  /** Asks for the incremental recompute of a workspace's graph; at most one waits per workspace. */
  enqueueGraphRecompute: (workspaceId: string) => Promise<void>;
  /** Runs the handlers in this process (the worker role). */
  work: (handlers: JobHandlers) => Promise<void>;
  stop: () => Promise<void>;
};

/** How often workspaces with evidence waiting for the graph are picked up, whoever forgot to ask. */
const GRAPH_SWEEP_CRON = '* * * * *';
/**
 * How often workspaces are checked for their daily recommendations. Each runs in its own time zone's
 * morning: one cron per workspace would need one queue each, so a sweep finds those whose day is due.
 */
const RECOMMEND_SWEEP_CRON = '*/10 * * * *';

/**
 * Durable jobs in PostgreSQL (pg-boss, in its own schema; it connects as the database owner because
 * it manages that schema). Any number of processes share the queues.
 */
export async function startJobQueue(ownerUrl: string, log: (message: string) => void): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: ownerUrl, schema: 'pgboss', max: 4, application_name: 'warmpath-jobs' });
  boss.on('error', (error) => log(`jobs: ${error.message}`));
  await boss.start();
  await boss.createQueue(QUEUES.googleSync, {
    name: QUEUES.googleSync,
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInMinutes: 60,
  });
  // Stately: one job waiting and one running per workspace (singletonKey); more requests fold into them.
  await boss.createQueue(QUEUES.graphRecompute, {
    name: QUEUES.graphRecompute,
    policy: 'stately',
    retryLimit: 5,
    retryDelay: 10,
    retryBackoff: true,
    expireInMinutes: 60,
  });
  await boss.createQueue(QUEUES.graphSweep, { name: QUEUES.graphSweep, policy: 'singleton' });
  await boss.createQueue(QUEUES.recommendActions, {
    name: QUEUES.recommendActions,
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInMinutes: 60,
  });
  await boss.createQueue(QUEUES.recommendSweep, { name: QUEUES.recommendSweep, policy: 'singleton' });
  const enqueueGraphRecompute = async (workspaceId: string) => {
    await boss.send(QUEUES.graphRecompute, { workspaceId }, { singletonKey: workspaceId });
  };
  return {
    enqueueGoogleSync: async (job) => {
      // One job per run; requestGoogleSync already keeps a member to one waiting run.
      await boss.send(QUEUES.googleSync, job);
    },
    enqueueGraphRecompute,
    work: async (handlers) => {
      await boss.work<GoogleSyncJob>(QUEUES.googleSync, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await handlers.googleSync(job.data);
      });
      await boss.work<GraphRecomputeJob>(
        QUEUES.graphRecompute,
        { batchSize: 1, pollingIntervalSeconds: 1 },
        async ([job]) => {
          if (job) await handlers.graphRecompute(job.data);
        },
      );
      await boss.schedule(QUEUES.graphSweep, GRAPH_SWEEP_CRON);
      await boss.work(QUEUES.graphSweep, async () => {
        // The queue's own (owner) connection sees every workspace's marks; the recompute itself runs
        // under row-level security like any other work.
        const dirty = (await boss.getDb().executeSql('select distinct workspace_id from graph_dirty', [])) as {
          rows: { workspace_id: string }[];
        };
        for (const row of dirty.rows) await enqueueGraphRecompute(row.workspace_id);
      });
      await boss.work<RecommendActionsJob>(
        QUEUES.recommendActions,
        { batchSize: 1, pollingIntervalSeconds: 5 },
        async ([job]) => {
          if (job) await handlers.recommendActions(job.data);
        },
      );
      await boss.schedule(QUEUES.recommendSweep, RECOMMEND_SWEEP_CRON);
      await boss.work(QUEUES.recommendSweep, async () => {
        for (const workspaceId of await handlers.workspacesDueForRecommendations()) {
          await boss.send(QUEUES.recommendActions, { workspaceId }, { singletonKey: workspaceId });
        }
      });
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 20_000 }),
  };
}
