import path from 'node:path';
import { buildApp } from './app.ts';
import { hubspotUrls, loadConfig, processRole, REPO_ROOT, slackUrls } from './config.ts';
import { createDatabase } from './db/client.ts';
import { createReadReplica, shareWrites, withReadReplica } from './db/read-replica.ts';
import { deliverEvent } from './events/deliver.ts';
import { deliveryDeps } from './events/delivery-deps.ts';
import { createEventRecorder } from './events/record.ts';
import {
  queueFirstRecommendations,
  recommendActions,
  recommendFirstActions,
  workspacesDueForRecommendations,
} from './features/actions/engine.ts';
import { openActionSignals } from './features/actions/open-action-signals.ts';
import { purgeUnreadGoogleMatches } from './features/allies/ally-google.service.ts';
import { purgeAuditLog } from './features/audit/audit.service.ts';
import { refreshHubspotLists, runHubspotSyncJob } from './features/integrations/hubspot-sync-runs.ts';
import { failStuckImports } from './features/lists/imports/imports.repo.ts';
import { mergeHandedOverImport } from './features/lists/imports/imports.service.ts';
import { growthTrends } from './features/network/network.repo.ts';
import { signalEvents } from './features/network/signal-events.ts';
import { googleAccountDeps } from './features/sources/google/google-deps.ts';
import { runGoogleSyncJob } from './features/sources/google/google-sync-runs.ts';
import { purgeAnonymousVisits } from './features/tracking/ingest.ts';
import { workflowEngine } from './features/workflows/workflow-engine.ts';
import { recomputeAfterWrites } from './graph/graph.service.ts';
import { allListeners } from './graph/raised.ts';
import { createIdentityProvider } from './idp/provider.ts';
import { hubspotAccountDeps } from './integrations/hubspot/hubspot-account.ts';
import { lowerOwnPriority } from './jobs/background-priority.ts';
import { type JobQueue, startJobQueue } from './jobs/queue.ts';
import { createRequestsFirst, type RequestsFirst, requestsApplicationName } from './jobs/requests-first.ts';
import { createLogger, formatCounts, loggedJob } from './lib/logger.ts';
import { loadEncryptionKey } from './lib/sealing.ts';
import { assertLocalModeIsLocal } from './local-mode.ts';
import { createTokenVerifier } from './plugins/auth.ts';
import { openRuntime } from './runtime.ts';
import { type SandboxName, type SandboxProcess, startSandbox } from './sandboxes.ts';

// A configuration that would open local mode to the network (local-mode.ts) never starts anything.
const [configured, role] = (() => {
  try {
    const config = loadConfig();
    assertLocalModeIsLocal(config);
    return [config, processRole(process.argv.slice(2))] as const;
  } catch (error) {
    // A configuration mistake is sentences for the operator, not a stack trace.
    process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n\n`);
    process.exit(1);
  }
})();
const logger = createLogger(configured);
const log = (line: string) => logger.info(line);

// Local mode: the Google, Slack and HubSpot sandboxes start beside the database, each on its own port.
const sandboxOf = (name: SandboxName, port: number | null, publicUrl: string) =>
  port === null ? null : startSandbox(name, { port, publicUrl: port ? publicUrl : undefined });
const [opened, ...sandboxesStarted] = await Promise.allSettled([
  openRuntime(configured, log, `warmpath-${role}`),
  sandboxOf('google', configured.google.sandboxPort, configured.google.sandboxUrl),
  sandboxOf('slack', configured.slack.sandboxPort, configured.slack.apiUrl.replace(/\/api\/$/, '')),
  sandboxOf('hubspot', configured.hubspot.sandboxPort, configured.hubspot.apiUrl),
]);
const [googleStarted, slackStarted, hubspotStarted] = sandboxesStarted;
const sandboxes = sandboxesStarted.flatMap((started) =>
  started.status === 'fulfilled' && started.value ? [started.value] : [],
);
const stopSandboxes = () => Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
// Whichever failed, nothing is left running: not the embedded PostgreSQL, not a sandbox.
const failed = sandboxesStarted.find((started) => started.status === 'rejected');
if (opened.status === 'rejected' || failed) {
  await stopSandboxes();
  if (opened.status === 'fulfilled') await opened.value.close();
  throw opened.status === 'rejected' ? opened.reason : failed?.reason;
}
const runtime = opened.value;
const startedSandbox = (started: PromiseSettledResult<SandboxProcess | null> | undefined) =>
  started?.status === 'fulfilled' ? started.value : null;
const googleSandbox = startedSandbox(googleStarted);
const slackSandbox = startedSandbox(slackStarted);
const hubspotSandbox = startedSandbox(hubspotStarted);
const config = {
  ...configured,
  google: googleSandbox ? { ...configured.google, sandboxUrl: googleSandbox.url } : configured.google,
  slack: slackSandbox ? { ...configured.slack, ...slackUrls(slackSandbox.url) } : configured.slack,
  hubspot: hubspotSandbox ? { ...configured.hubspot, ...hubspotUrls(hubspotSandbox.url) } : configured.hubspot,
};

async function start() {
  // Imports a stopped server left half-way: nothing of them was merged, and their status must say so.
  const stuckImports = await failStuckImports(runtime.databaseUrl);
  if (stuckImports > 0) log(`imports: ${stuckImports} left unfinished by a stopped server marked failed`);
  const encryptionKey = await loadEncryptionKey({ configured: config.encryptionKey, dataDir: config.dataDir });
  const jobs = await startJobQueue(runtime.databaseUrl, (line) => logger.warn(line), { role });
  // The jobs, and the staging of the files an API process receives, give way to the requests of every
  // API process while those are being served.
  const requestsFirst = createRequestsFirst(runtime.databaseUrl);
  const stop = async () => {
    await jobs.stop();
    await requestsFirst.close();
  };
  if (role !== 'api') await workJobs(jobs, encryptionKey, requestsFirst);
  // A worker answers no request: it needs neither the identity provider nor the routes. On a machine
  // it shares with API processes, its threads yield the CPU to theirs (jobs/background-priority.ts).
  if (role === 'worker') {
    lowerOwnPriority(config.backgroundNiceness);
    return { app: null, stop };
  }

  // API requests get a pool of their own, with a statement time-out and a queue limit: a slow route
  // neither holds the jobs' connections nor lets requests wait forever (issue 23).
  const { poolMax, ...limits } = config.requestDatabase;
  const requestDatabase = createDatabase(runtime.databaseUrl, {
    max: poolMax,
    limits,
    applicationName: requestsApplicationName(role),
  });
  // A sign-in is a request: on the requests' pool, with its limits, not on the jobs'.
  const idp = config.oidc.builtIn ? await createIdentityProvider(config, requestDatabase.db) : null;
  // DATABASE_READ_URL: the heavy reads of both pools go to the replica (db/read-replica.ts), which
  // gets the request pool's limits: its reads are requests' reads.
  const replicaDatabase = config.databaseReadUrl
    ? createDatabase(config.databaseReadUrl, { max: poolMax, limits, applicationName: requestsApplicationName(role) })
    : null;
  const replica = replicaDatabase ? createReadReplica(replicaDatabase) : null;
  // Writes made through another process keep this one's readers on the primary too.
  const stopSharingWrites = replica ? await shareWrites(replica, requestDatabase, log) : null;
  const app = await buildApp({
    config,
    database: withReadReplica(requestDatabase, replica),
    backgroundDatabase: withReadReplica(runtime.database, replica),
    warmNetworkCopies: true,
    idp,
    verifyToken: createTokenVerifier({
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      localKeys: idp?.jwks,
    }),
    encryptionKey,
    jobs,
    requestsFirst,
    webDist: path.join(REPO_ROOT, 'apps/web/dist'),
  });
  app.addHook('onClose', async () => {
    stopSharingWrites?.();
    await requestDatabase.close();
    await replicaDatabase?.close();
  });
  await app.listen({ port: config.port, host: config.host });
  return { app, stop };
}

/** Every job runs in this process (the roles `worker` and `all`). */
async function workJobs(jobs: JobQueue, encryptionKey: Buffer, requestsFirst: RequestsFirst) {
  const google = googleAccountDeps(config, runtime.database, encryptionKey);
  const events = { events: createEventRecorder(jobs), publicUrl: config.publicUrl };
  const hubspot = { ...hubspotAccountDeps(config, runtime.database, encryptionKey), jobs };
  const raisedSignals = allListeners(signalEvents(events), workflowEngine(events), openActionSignals);
  const { database } = runtime;
  const revoked = 'access revoked: the account must be connected again';
  await jobs.work({
    googleSync: async (job) => {
      await loggedJob(
        logger,
        { name: 'google-sync', fields: { workspaceId: job.workspaceId, userId: job.userId } },
        () => runGoogleSyncJob({ ...google, jobs, replyEvents: events }, job, requestsFirst.pacer()),
        (counts) => (counts ? formatCounts(counts) : revoked),
      );
    },
    graphRecompute: async ({ workspaceId }) => {
      await loggedJob(
        logger,
        { name: 'graph', fields: { workspaceId } },
        async () => {
          const report = await recomputeAfterWrites(database, workspaceId, {
            signals: raisedSignals,
            pace: requestsFirst.pacer(),
          });
          await database.inWorkspace(workspaceId, async (tx) => {
            await growthTrends(tx, workspaceId);
            // Members who finished onboarding get their first recommendations once their data is in.
            await queueFirstRecommendations(tx, jobs, workspaceId);
          });
          return report;
        },
        (report) => formatCounts({ people: report.people, edges: report.edges }),
      );
    },
    recommendActions: async ({ workspaceId }) => {
      await loggedJob(
        logger,
        { name: 'recommendations', fields: { workspaceId } },
        () => recommendActions(database, workspaceId),
        (run) =>
          `${formatCounts({ users: run.users.length, kept: run.users.reduce((sum, user) => sum + user.kept, 0) })} for ${run.day}`,
      );
    },
    recommendFirstActions: async (job) => {
      await loggedJob(
        logger,
        { name: 'first recommendations', fields: job },
        () => recommendFirstActions(database, job),
        (run) => (run ? `${run.kept} kept for ${run.email}` : 'not due'),
      );
    },
    workspacesDueForRecommendations: () => workspacesDueForRecommendations(database),
    hubspotSync: async (job) => {
      await loggedJob(
        logger,
        { name: 'hubspot-sync', fields: { workspaceId: job.workspaceId } },
        () => runHubspotSyncJob(hubspot, job),
        (counts) => (counts ? formatCounts(counts) : revoked),
      );
    },
    refreshHubspotLists: () => refreshHubspotLists(hubspot),
    purgeAnonymousVisits: async () => {
      const purged = await purgeAnonymousVisits(database);
      if (purged > 0) log(`tracking: ${purged} anonymous visits older than 30 days purged`);
    },
    purgeAuditLog: async () => {
      const purged = await purgeAuditLog(database);
      if (purged > 0) log(`audit: ${purged} entries older than a year purged`);
      // The same nightly round: an ally's Google matches their page never read (held 15 minutes).
      const unread = await purgeUnreadGoogleMatches(database);
      if (unread > 0) log(`allies: ${unread} unread Google matches purged`);
    },
  });
  const imports = { database, jobs, events: events.events, pacer: requestsFirst.pacer };
  await jobs.workImportMerges(async (job, attempt) => {
    await loggedJob(
      logger,
      { name: 'import merge', fields: job },
      () => mergeHandedOverImport(imports, job, attempt),
      (merged) => {
        if (!merged) return 'merged already';
        const { dirty, ...counts } = merged;
        return formatCounts(counts);
      },
    );
  });
  const strandedMerges = await jobs.requeueStrandedImportMerges();
  if (strandedMerges > 0) log(`imports: ${strandedMerges} merging without a job were queued again`);
  const delivery = deliveryDeps(config, runtime.database, encryptionKey, jobs);
  await jobs.workDeliveries((job) => deliverEvent(delivery, job));
  const stranded = await jobs.requeueStrandedDeliveries();
  if (stranded > 0) log(`deliveries: ${stranded} pending without a job were queued again`);
}

// A failed start must not leave the embedded PostgreSQL running behind it.
const server = await start().catch(async (error: unknown) => {
  await runtime.close();
  await stopSandboxes();
  throw error;
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`shutting down (${signal})`);
  await server.app?.close();
  await server.stop();
  await runtime.close();
  await stopSandboxes();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// From the process's start: loading the code, PostgreSQL, the sandboxes, the migrations and the jobs.
const seconds = process.uptime().toFixed(1);
const google = googleSandbox ? `\nGoogle sandbox: ${googleSandbox.url} (sent mail: ${googleSandbox.url}/mail)` : '';
const slack = slackSandbox ? `\nSlack sandbox: ${slackSandbox.url} (messages: ${slackSandbox.url}/messages)` : '';
const hubspot = hubspotSandbox ? `\nHubSpot sandbox: ${hubspotSandbox.url} (notes: ${hubspotSandbox.url}/notes)` : '';
// A banner rather than a log record, in either format: the address to open, where a person looks first.
const ready =
  role === 'worker'
    ? 'Warmpath worker is ready: it runs every job and answers no request.'
    : `Warmpath${role === 'api' ? ' API (no jobs)' : ''} is ready in ${seconds}s. Open ${config.publicUrl}`;
process.stderr.write(`\n${ready}${google}${slack}${hubspot}\n\n`);
