import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { type JobQueue, startJobQueue } from './queue.ts';

// Several workers on one set of queues (issue 24): a worker killed mid-job (SIGKILL) has its job taken
// over by another, and a live worker's long job is never taken from it; schedules fire once per slot
// however many workers run. The lease is shortened here (production: 30 s, renewed every 10 s, and
// maintenance every 15 s, so a dead worker's job runs again within 30 + 15 + 10 s retry delay).

const LEASE = { leaseSeconds: 4, renewEverySeconds: 1 };
const RECOVERY = { expireSeconds: 10, checkEverySeconds: 1, retryDelaySeconds: 1 };
const schema = `pgboss_roles_${randomBytes(4).toString('hex')}`;
const children = new Set<ChildProcess>();
const queues: JobQueue[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const queue of queues) await queue.stop();
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.query(`drop schema if exists ${schema}_cron cascade`);
  await client.end();
});

/** A worker process; resolves once it works, with the lines it prints from then on. */
async function startWorker(workspaceId: string, holdMs?: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/test/job-worker.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: inject('databaseUrl'),
      JOBS_SCHEMA: schema,
      JOB_RECOVERY: JSON.stringify(RECOVERY),
      JOB_LEASE: JSON.stringify(LEASE),
      WORKSPACE_ID: workspaceId,
      ...(holdMs === undefined ? {} : { HOLD_MS: String(holdMs) }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
    }
  });
  const printed = (line: string) =>
    lines.includes(line) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ line, resolve }));
  await printed('working');
  return {
    lines,
    printed,
    kill: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      children.delete(child);
    },
  };
}

describe('workers apart from the API', () => {
  it('gives the job of a worker killed mid-job to another, and never the job of a live one', async () => {
    // The API's queue: it sends, and works nothing.
    const api = await startJobQueue(inject('databaseUrl'), () => {}, { schema, recovery: RECOVERY, role: 'api' });
    queues.push(api);
    const workspaceId = randomUUID();
    const first = await startWorker(workspaceId);
    await api.enqueueGraphRecompute(workspaceId);
    await first.printed(`started ${workspaceId}`);
    await first.kill();
    const killedAt = performance.now();
    const second = await startWorker(workspaceId, LEASE.leaseSeconds * 3 * 1000);
    await second.printed(`started ${workspaceId}`);
    const takenOverMs = performance.now() - killedAt;
    // Lease (4 s) + maintenance (1 s) + the queue's retry delay (10 s), with room for a busy machine.
    expect(takenOverMs).toBeLessThan(30_000);
    // The second holds the job three leases long: alive, it keeps renewing it, and nobody else starts it.
    const third = await startWorker(workspaceId, 0);
    await second.printed(`done ${workspaceId}`);
    expect(third.lines).not.toContain(`started ${workspaceId}`);
    await second.kill();
    await third.kill();
  }, 120_000);

  it('fires a schedule once per slot however many workers run', async () => {
    // Two workers in this process, each with pg-boss's scheduler, for a little over a minute.
    for (let n = 0; n < 2; n++) {
      queues.push(
        await startJobQueue(inject('databaseUrl'), () => {}, { schema: `${schema}_cron`, recovery: RECOVERY }),
      );
    }
    for (const queue of queues.slice(-2)) {
      await queue.work({
        googleSync: async () => {},
        graphRecompute: async () => {},
        recommendActions: async () => {},
        recommendFirstActions: async () => {},
        workspacesDueForRecommendations: async () => [],
        hubspotSync: async () => {},
        refreshHubspotLists: async () => {},
        purgeAnonymousVisits: async () => {},
        purgeAuditLog: async () => {},
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 65_000));
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      // Counted against the slots pg-boss fired (its send-it jobs, one per schedule and minute), not the
      // minutes the sweeps were created in: on a busy machine a slot's sweep is created a moment into the
      // next minute, beside that minute's own (two in one minute, each for its own slot).
      const { rows } = await client.query<{ jobs: number; slots: number }>(
        `select (select count(*)::int from ${schema}_cron.job where name = 'graph-sweep') as jobs,
                (select count(distinct singleton_on)::int from ${schema}_cron.job
                  where name = '__pgboss__send-it' and data->>'name' = 'graph-sweep') as slots`,
      );
      expect(rows[0]?.slots).toBeGreaterThanOrEqual(1);
      expect(rows[0]?.jobs).toBe(rows[0]?.slots);
    } finally {
      await client.end();
    }
  }, 120_000);
});
