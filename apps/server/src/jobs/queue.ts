import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { APP_ROLE, type Tx } from '../db/client.ts';

export const QUEUES = {
  googleSync: 'google-sync',
  graphRecompute: 'graph-recompute',
  graphSweep: 'graph-sweep',
  recommendActions: 'recommend-actions',
  recommendFirstActions: 'recommend-first-actions',
  recommendSweep: 'recommend-sweep',
  deliverEvent: 'deliver-event',
  importMerge: 'import-merge',
  hubspotSync: 'hubspot-sync',
  hubspotSweep: 'hubspot-sweep',
  trackingPurge: 'tracking-purge',
  auditPurge: 'audit-purge',
} as const;
export type GoogleSyncJob = { workspaceId: string; userId: string; runId: string };
export type GraphRecomputeJob = { workspaceId: string };
export type RecommendActionsJob = { workspaceId: string };
/** The first recommendations of a user who finished onboarding, once their data is in the network. */
export type FirstRecommendationsJob = { workspaceId: string; userId: string };
export type HubspotSyncJob = { workspaceId: string; runId: string };
/** The merge of a received import's staged rows into its workspace's lists. */
export type ImportMergeJob = { workspaceId: string; importId: string };
/** What an import's merge is told of its attempt: the last one marks the import failed if it fails too. */
export type ImportMergeAttempt = { last: boolean };
/** One attempt at a delivery; `attempt` is how many were made before it, so a stale job can tell. */
export type DeliveryJob = { workspaceId: string; deliveryId: string; attempt: number };

export type JobHandlers = {
  googleSync: (job: GoogleSyncJob) => Promise<void>;
  graphRecompute: (job: GraphRecomputeJob) => Promise<void>;
  /** The daily recommendations of one workspace. */
  recommendActions: (job: RecommendActionsJob) => Promise<void>;
  /** One user's first recommendations, at once rather than at the next morning's run. */
  recommendFirstActions: (job: FirstRecommendationsJob) => Promise<void>;
  /** Workspaces whose day has reached the recommendations' hour without a run yet. */
  workspacesDueForRecommendations: () => Promise<string[]>;
  /** One sync of a workspace's chosen HubSpot lists. */
  hubspotSync: (job: HubspotSyncJob) => Promise<void>;
  /** The scheduled refresh of every connected workspace's HubSpot lists. */
  refreshHubspotLists: () => Promise<void>;
  /** The daily purge of website visits older than 30 days that were never identified. */
  purgeAnonymousVisits: () => Promise<void>;
  /** The daily purge of audit entries older than a year (issue 22). */
  purgeAuditLog: () => Promise<void>;
};

export type JobQueue = {
  enqueueGoogleSync: (job: GoogleSyncJob) => Promise<void>;
  enqueueHubspotSync: (job: HubspotSyncJob) => Promise<void>;
  /** Asks for the incremental recompute of a workspace's graph; at most one waits per workspace. */
  enqueueGraphRecompute: (workspaceId: string) => Promise<void>;
  /**
   * Queues a user's first recommendations inside the caller's transaction (the job exists if and only
   * if what made the user due commits); at most one waits per user.
   */
  enqueueFirstRecommendations: (tx: Tx, job: FirstRecommendationsJob) => Promise<void>;
  /**
   * Queues a delivery attempt inside the caller's transaction: the job exists if and only if the
   * transaction commits, so a crash between the business change and the queue loses nothing.
   */
  enqueueDelivery: (tx: Tx, job: DeliveryJob, startAfter?: Date) => Promise<void>;
  /**
   * Queues the merge of a received import inside the transaction that stages its rows and marks it
   * merging: the job exists if and only if the import was handed over.
   */
  enqueueImportMerge: (tx: Tx, job: ImportMergeJob) => Promise<void>;
  /**
   * Tells this process's import merges (if it runs them) that one was just queued and committed,
   * so the uploader does not wait for the next poll.
   */
  wakeImportMerges: () => void;
  /** Runs the handlers in this process (the worker role). */
  work: (handlers: JobHandlers) => Promise<void>;
  /** Runs the imports' merges in this process (the worker role; the tests' own process too). */
  workImportMerges: (merge: (job: ImportMergeJob, attempt: ImportMergeAttempt) => Promise<void>) => Promise<void>;
  /**
   * Runs the deliveries of events to their destinations in this process (the worker role), `concurrency`
   * at a time: an attempt mostly waits on the network (up to 30 s for an endpoint that does not answer),
   * and one slow endpoint must not hold up every other workspace's deliveries.
   */
  workDeliveries: (deliver: (job: DeliveryJob) => Promise<void>, options?: { concurrency?: number }) => Promise<void>;
  /**
   * Queues again the pending deliveries that have no job; returns how many. Every pending delivery has
   * its next attempt queued, since both are written in one transaction; one can still be left without:
   * its job gave up after dying with its workers more often than pg-boss retries, or it predates the
   * queue (e-mails carried over from the old outbox). A worker runs this as it starts; a job whose
   * attempt was made meanwhile is stale and does nothing. `workspaceId` limits it to one workspace.
   */
  requeueStrandedDeliveries: (options?: { workspaceId?: string }) => Promise<number>;
  /**
   * Queues again the merges of imports left merging without a job; returns how many. The merge's job
   * is queued with the hand-over, so only one whose worker died on its last attempt (past pg-boss's
   * retries) is left without. A worker runs this as it starts; `workspaceId` limits it to one workspace.
   */
  requeueStrandedImportMerges: (options?: { workspaceId?: string }) => Promise<number>;
  stop: () => Promise<void>;
};

/** How many times a failed import merge runs again before the import is marked failed. */
const IMPORT_MERGE_RETRIES = 2;

/** Deliveries a worker process attempts at once (pg-boss 10 runs one job per registered worker). */
const DELIVERY_CONCURRENCY = 8;

/**
 * A delivery's job expires once its attempt cannot still be running (30 s at most, then recording);
 * pg-boss's maintenance finds expired jobs every `checkEverySeconds` and retries them after
 * `retryDelaySeconds`: a worker that died mid-attempt has its delivery taken over within a minute
 * (40 + 10 + 5 s at worst; `npm run drill` measured 65 s with checks every 15 s).
 */
const DELIVERY_RECOVERY = { expireSeconds: 40, checkEverySeconds: 10, retryDelaySeconds: 5 };
export type DeliveryRecovery = typeof DELIVERY_RECOVERY;

/**
 * A running job's lease. pg-boss 10 has no heartbeat: a job stays active until its expiry, an hour for
 * a sync, so a worker killed mid-job would hold it that long. Instead each long job's expiry is moved
 * to `leaseSeconds` past now every `renewEverySeconds` while it runs: a job whose worker died expires
 * `leaseSeconds` after its last renewal, pg-boss's maintenance (every `checkEverySeconds`) retries it
 * after its retry delay (10 s), and another worker has it within a minute (30 + 15 + 10 s at worst).
 * The queues' own expiry stays long: pg-boss also stops waiting for a handler past it.
 */
export const JOB_LEASE = { leaseSeconds: 30, renewEverySeconds: 10 };

/** Which work a process does (`npm start -- --role`): `api` answers requests and runs no job. */
export type ProcessRole = 'api' | 'worker' | 'all';

/** How often workspaces with evidence waiting for the graph are picked up, whoever forgot to ask. */
const GRAPH_SWEEP_CRON = '* * * * *';
/**
 * How often workspaces are checked for their daily recommendations. Each runs in its own time zone's
 * morning: one cron per workspace would need one queue each, so a sweep finds those whose day is due.
 */
const RECOMMEND_SWEEP_CRON = '*/10 * * * *';
/** How often the chosen HubSpot lists are read again: a company that leaves a list is recommended again after it. */
const HUBSPOT_SWEEP_CRON = '17 */4 * * *';
/** Anonymous visits are kept 30 days: the purge runs nightly. */
const TRACKING_PURGE_CRON = '41 3 * * *';
/** The audit log is kept a year: its purge runs nightly. */
const AUDIT_PURGE_CRON = '53 3 * * *';

/**
 * Durable jobs in PostgreSQL (pg-boss, in its own schema; it connects as the database owner because
 * it manages that schema). Any number of processes share the queues.
 */
export async function startJobQueue(
  ownerUrl: string,
  log: (message: string) => void,
  /**
   * pg-boss's own schema. Test files share one database and each runs its own workers: a schema each
   * keeps a file's jobs (a delivery sealed with its key, posted to its sandbox) to that file's workers.
   */
  {
    schema = 'pgboss',
    recovery = DELIVERY_RECOVERY,
    role = 'all',
    lease = JOB_LEASE,
  }: {
    schema?: string;
    /** How soon a delivery whose worker died is attempted again; tests that kill workers shorten it. */
    recovery?: DeliveryRecovery;
    /**
     * An API process only queues jobs: it neither maintains the queues (expiring the jobs of dead
     * workers) nor fires schedules; the workers do both. Schedules fire once however many workers run:
     * pg-boss lets one instance per interval read the schedules and queues each slot's job once.
     */
    role?: ProcessRole;
    lease?: typeof JOB_LEASE;
  } = {},
): Promise<JobQueue> {
  const works = role !== 'api';
  const boss = new PgBoss({
    connectionString: ownerUrl,
    schema,
    max: works ? 4 : 2,
    application_name: `warmpath-jobs-${role}`,
    // How soon the job of a worker that died is noticed (once its expiry has passed): 120 s by default.
    maintenanceIntervalSeconds: recovery.checkEverySeconds,
    supervise: works,
    schedule: works,
  });
  boss.on('error', (error) => log(`jobs: ${error.message}`));
  await boss.start();
  await boss.createQueue(QUEUES.googleSync, {
    name: QUEUES.googleSync,
    retryLimit: 3,
    retryDelay: 10,
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
    retryDelay: 10,
    retryBackoff: true,
    expireInMinutes: 60,
  });
  // Stately: one waiting and one running per user (singletonKey); the worker checks the user is still due.
  await boss.createQueue(QUEUES.recommendFirstActions, {
    name: QUEUES.recommendFirstActions,
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    expireInMinutes: 30,
  });
  await boss.createQueue(QUEUES.recommendSweep, { name: QUEUES.recommendSweep, policy: 'singleton' });
  await boss.createQueue(QUEUES.hubspotSync, {
    name: QUEUES.hubspotSync,
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    expireInMinutes: 60,
  });
  await boss.createQueue(QUEUES.hubspotSweep, { name: QUEUES.hubspotSweep, policy: 'singleton' });
  await boss.createQueue(QUEUES.trackingPurge, { name: QUEUES.trackingPurge, policy: 'singleton' });
  await boss.createQueue(QUEUES.auditPurge, { name: QUEUES.auditPurge, policy: 'singleton' });
  // The uploader waits for the answer: a merge that met a passing failure (a deadlock, a connection
  // lost) runs again at once, and the last attempt's failure is the import's (decision 0037).
  await boss.createQueue(QUEUES.importMerge, {
    name: QUEUES.importMerge,
    retryLimit: IMPORT_MERGE_RETRIES,
    retryDelay: 1,
    expireInMinutes: 60,
  });
  // The destination's failures follow their own schedule (a new job per attempt); pg-boss's retries
  // only catch a worker that died mid-attempt, once the job expires (past the 30 s of a delivery).
  await boss.createQueue(QUEUES.deliverEvent, {
    name: QUEUES.deliverEvent,
    retryLimit: 10,
    retryDelay: recovery.retryDelaySeconds,
    expireInSeconds: recovery.expireSeconds,
  });
  // Business transactions run as the app role and queue their deliveries in pg-boss's tables.
  await boss
    .getDb()
    .executeSql(
      `GRANT USAGE ON SCHEMA ${schema} TO ${APP_ROLE}; GRANT SELECT ON ${schema}.queue TO ${APP_ROLE}; GRANT INSERT, SELECT (id) ON ${schema}.job TO ${APP_ROLE}`,
      [],
    );
  /** Runs `work` while renewing the lease of `job` (JOB_LEASE); the lease lapses if this process dies. */
  const leased = async <T>(
    queue: string,
    job: { id: string; data: T } | undefined,
    work: (data: T) => Promise<void>,
  ) => {
    if (!job) return;
    const renew = () =>
      boss
        .getDb()
        .executeSql(
          `update ${schema}.job set expire_in = (now() - started_on) + $3::int * interval '1 second'
            where name = $1 and id = $2 and state = 'active'`,
          [queue, job.id, lease.leaseSeconds],
        )
        .catch((error: Error) => log(`jobs: the lease of ${queue} ${job.id} was not renewed: ${error.message}`));
    await renew();
    const renewing = setInterval(renew, lease.renewEverySeconds * 1000);
    try {
      await work(job.data);
    } catch (error) {
      // pg-boss keeps only the last attempt's error: without this line, a failure its retry repaired
      // would leave no trace of what went wrong.
      log(
        `jobs: ${queue} ${job.id} failed and is retried if attempts remain: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    } finally {
      clearInterval(renewing);
    }
  };
  let importMergeWorker: string | null = null;
  const enqueueGraphRecompute = async (workspaceId: string) => {
    await boss.send(QUEUES.graphRecompute, { workspaceId }, { singletonKey: workspaceId });
  };
  return {
    enqueueGoogleSync: async (job) => {
      // One job per run; requestGoogleSync already keeps a member to one waiting run.
      await boss.send(QUEUES.googleSync, job);
    },
    enqueueGraphRecompute,
    enqueueFirstRecommendations: async (tx, job) => {
      await boss.send(QUEUES.recommendFirstActions, job, { singletonKey: job.userId, db: transactionDb(tx) });
    },
    enqueueHubspotSync: async (job) => {
      await boss.send(QUEUES.hubspotSync, job);
    },
    enqueueDelivery: async (tx, job, startAfter = new Date()) => {
      await boss.send(QUEUES.deliverEvent, job, { startAfter, db: transactionDb(tx) });
    },
    enqueueImportMerge: async (tx, job) => {
      await boss.send(QUEUES.importMerge, job, { db: transactionDb(tx) });
    },
    wakeImportMerges: () => {
      if (importMergeWorker) boss.notifyWorker(importMergeWorker);
    },
    requeueStrandedImportMerges: async ({ workspaceId } = {}) => {
      const stranded = (await boss.getDb().executeSql(
        `select i.workspace_id, i.id from imports i
          where i.status = 'merging' and ($2::uuid is null or i.workspace_id = $2::uuid)
            and not exists (select 1 from ${schema}.job j where j.name = $1 and j.state < 'completed'
                             and j.data ->> 'importId' = i.id::text)`,
        [QUEUES.importMerge, workspaceId ?? null],
      )) as { rows: { workspace_id: string; id: string }[] };
      if (stranded.rows.length > 0)
        await boss.insert(
          stranded.rows.map((row) => ({
            name: QUEUES.importMerge,
            data: { workspaceId: row.workspace_id, importId: row.id } satisfies ImportMergeJob,
          })),
        );
      return stranded.rows.length;
    },
    workImportMerges: async (merge) => {
      importMergeWorker = await boss.work<ImportMergeJob>(
        QUEUES.importMerge,
        { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
        ([job]) =>
          leased(QUEUES.importMerge, job, (data) =>
            merge(data, { last: (job?.retryCount ?? 0) >= IMPORT_MERGE_RETRIES }),
          ),
      );
    },
    work: async (handlers) => {
      await boss.work<GoogleSyncJob>(QUEUES.googleSync, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) =>
        leased(QUEUES.googleSync, job, handlers.googleSync),
      );
      await boss.work<GraphRecomputeJob>(QUEUES.graphRecompute, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) =>
        leased(QUEUES.graphRecompute, job, handlers.graphRecompute),
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
        ([job]) => leased(QUEUES.recommendActions, job, handlers.recommendActions),
      );
      await boss.work<FirstRecommendationsJob>(
        QUEUES.recommendFirstActions,
        { batchSize: 1, pollingIntervalSeconds: 1 },
        ([job]) => leased(QUEUES.recommendFirstActions, job, handlers.recommendFirstActions),
      );
      await boss.schedule(QUEUES.recommendSweep, RECOMMEND_SWEEP_CRON);
      await boss.work(QUEUES.recommendSweep, async () => {
        for (const workspaceId of await handlers.workspacesDueForRecommendations()) {
          await boss.send(QUEUES.recommendActions, { workspaceId }, { singletonKey: workspaceId });
        }
      });
      await boss.work<HubspotSyncJob>(QUEUES.hubspotSync, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) =>
        leased(QUEUES.hubspotSync, job, handlers.hubspotSync),
      );
      await boss.schedule(QUEUES.hubspotSweep, HUBSPOT_SWEEP_CRON);
      await boss.work(QUEUES.hubspotSweep, () => handlers.refreshHubspotLists());
      await boss.schedule(QUEUES.trackingPurge, TRACKING_PURGE_CRON);
      await boss.work(QUEUES.trackingPurge, () => handlers.purgeAnonymousVisits());
      await boss.schedule(QUEUES.auditPurge, AUDIT_PURGE_CRON);
      await boss.work(QUEUES.auditPurge, () => handlers.purgeAuditLog());
    },
    workDeliveries: async (deliver, { concurrency = DELIVERY_CONCURRENCY } = {}) => {
      for (let worker = 0; worker < concurrency; worker++) {
        let workerId: string | undefined;
        workerId = await boss.work<DeliveryJob>(
          QUEUES.deliverEvent,
          { batchSize: 1, pollingIntervalSeconds: 1 },
          async ([job]) => {
            if (!job) return;
            await deliver(job.data);
            // pg-boss waits its polling interval after every job; a worker that just had one asks at
            // once for the next (8 deliveries a second otherwise, whatever the backlog).
            if (workerId) boss.notifyWorker(workerId);
          },
        );
      }
    },
    requeueStrandedDeliveries: async ({ workspaceId } = {}) => {
      const stranded = (await boss.getDb().executeSql(
        `select d.workspace_id, d.id, d.attempts, d.next_attempt_at from deliveries d
          where d.status = 'pending' and ($2::uuid is null or d.workspace_id = $2::uuid)
            and not exists (select 1 from ${schema}.job j where j.name = $1 and j.state < 'completed'
                             and j.data ->> 'deliveryId' = d.id::text)`,
        [QUEUES.deliverEvent, workspaceId ?? null],
      )) as { rows: { workspace_id: string; id: string; attempts: number; next_attempt_at: Date | null }[] };
      if (stranded.rows.length > 0)
        await boss.insert(
          stranded.rows.map((row) => ({
            name: QUEUES.deliverEvent,
            data: { workspaceId: row.workspace_id, deliveryId: row.id, attempt: row.attempts } satisfies DeliveryJob,
            startAfter: row.next_attempt_at ?? new Date(),
          })),
        );
      return stranded.rows.length;
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 20_000 }),
  };
}

/**
 * pg-boss's statements run on a Drizzle transaction. Its SQL numbers its parameters and uses some
 * twice; Drizzle numbers each occurrence anew, which is the same statement as long as every value is
 * typed alike wherever it appears: always so for what `enqueueDelivery` sends (a Date, never a delay).
 */
function transactionDb(tx: Tx) {
  return {
    executeSql: async (text: string, values: unknown[]) => {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)), sql`${values[Number(match[1]) - 1] ?? null}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = await tx.execute(sql.join(chunks));
      return { rows: result.rows };
    },
  };
}
