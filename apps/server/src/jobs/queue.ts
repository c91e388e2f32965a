import PgBoss from 'pg-boss';

export const QUEUES = { googleSync: 'google-sync' } as const;
export type GoogleSyncJob = { workspaceId: string; userId: string; runId: string };

export type JobQueue = {
  enqueueGoogleSync: (job: GoogleSyncJob) => Promise<void>;
  /** Runs the handlers in this process (the worker role). */
  work: (handlers: { googleSync: (job: GoogleSyncJob) => Promise<void> }) => Promise<void>;
  stop: () => Promise<void>;
};

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
  return {
    enqueueGoogleSync: async (job) => {
      // One job per run; requestGoogleSync already keeps a member to one waiting run.
      await boss.send(QUEUES.googleSync, job);
    },
    work: async (handlers) => {
      await boss.work<GoogleSyncJob>(QUEUES.googleSync, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (job) await handlers.googleSync(job.data);
      });
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 20_000 }),
  };
}
