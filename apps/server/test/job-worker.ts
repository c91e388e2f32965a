// A job worker in its own process, as `npm start -- --role worker` runs one, on a test's pg-boss
// schema. Its graph recompute prints `started <workspace>` and holds the job HOLD_MS (forever when
// absent), then prints `done <workspace>`; other workspaces' jobs pass at once. The roles test kills it with SIGKILL mid-job.

import { startJobQueue } from '../src/jobs/queue.ts';

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const hold = process.env.HOLD_MS ? Number(process.env.HOLD_MS) : null;
const jobs = await startJobQueue(need('DATABASE_URL'), () => {}, {
  schema: need('JOBS_SCHEMA'),
  recovery: JSON.parse(need('JOB_RECOVERY')),
  lease: JSON.parse(need('JOB_LEASE')),
  role: 'worker',
});
const nothing = async () => {};
await jobs.work({
  googleSync: nothing,
  graphRecompute: async ({ workspaceId }) => {
    // The graph sweep queues the shared test database's other workspaces too: those pass at once.
    if (workspaceId !== process.env.WORKSPACE_ID) return;
    process.stdout.write(`started ${workspaceId}\n`);
    await new Promise((resolve) => {
      if (hold !== null) setTimeout(resolve, hold);
    });
    process.stdout.write(`done ${workspaceId}\n`);
  },
  recommendActions: nothing,
  recommendFirstActions: nothing,
  workspacesDueForRecommendations: async () => [],
  hubspotSync: nothing,
  refreshHubspotLists: nothing,
  purgeAnonymousVisits: nothing,
  purgeAuditLog: nothing,
});
process.stdout.write('working\n');
