import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createIngest, type TrackedEvent } from '../apps/server/src/features/tracking/ingest.ts';
import { insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import type { LoadOrder, LoadReport } from './track-load.ts';

const SECONDS = Number(process.env.BENCH_TRACK_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_TRACK_CONCURRENCY ?? 64);
const BATCH = 10;
const WARMUP_SECONDS = 3;
/** The ceiling and the storage floor are steady within seconds: they need not run as long. */
const SHORT_SECONDS = Math.min(SECONDS, 20);
const ORIGIN = 'https://www.track-bench.test';
/** The product's rate limits would cap one site at 200 events a second: the benchmark measures what is behind them. */
const UNLIMITED = { perSecond: 1e9, burst: 1e9 };

/**
 * Page views at `POST /api/public/track`, batches of 10 from `CONCURRENCY` keep-alive connections of a
 * forked load generator, for `BENCH_TRACK_SECONDS` (default 60; the memory check is 300):
 * - ceiling: a bare Fastify on the same machine parsing the same bodies and answering 202, storing nothing;
 * - product: the whole app (every plugin and hook, validation, key and origin, bots, group commit into
 *   the embedded PostgreSQL), one site, the rate limits lifted; RSS and heap sampled every second;
 * - storage floor: the group commit alone, fed in process at the same concurrency, no HTTP: what the
 *   database writes cost.
 */
export async function track() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-track-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, () => {});
  const jobs = await startJobQueue(runtime.databaseUrl, () => {});
  let app: FastifyInstance | null = null;
  try {
    const workspaceId = randomUUID();
    const key = `wp_${randomBytes(12).toString('hex')}`;
    await runtime.database.inWorkspace(workspaceId, (tx) =>
      insertWorkspace(tx, { id: workspaceId, name: 'Bench', domains: ['track-bench.test'], allowDomainJoin: false }),
    );
    await runtime.database.db.execute(
      sql`insert into tracking_sites (key, workspace_id, origins) values (${key}, ${workspaceId}, ${sql.param([ORIGIN])}::text[])`,
    );
    const order = (url: string, seconds: number): LoadOrder => ({
      url,
      key,
      origin: ORIGIN,
      batchSize: BATCH,
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP_SECONDS,
      seconds,
    });

    const bare = await listenBare();
    const ceiling = await load(order(`${bare.url}/api/public/track`, SHORT_SECONDS));
    await bare.app.close();

    app = await buildApp({
      config,
      database: runtime.database,
      encryptionKey: randomBytes(32),
      jobs,
      verifyToken: async () => {
        throw new Error('no tokens in this benchmark');
      },
      trackingLimits: { perKey: UNLIMITED, perAddress: UNLIMITED },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/public/track`;
    const memory = sampleMemory();
    const cpu = cpuMeter(dataDir);
    const product = await load(order(url, SECONDS));
    const cpuShares = await cpu.stop();
    const samples = memory.stop();
    const stored = await runtime.database.inWorkspace(workspaceId, (tx) =>
      tx.execute<{ count: number }>(
        sql`select count(*)::int as count from website_events where workspace_id = ${workspaceId}`,
      ),
    );

    const floor = await storageFloor(runtime.database, workspaceId);

    const ceilingRate = ceiling.accepted / ceiling.seconds;
    const productRate = product.accepted / product.seconds;
    const measuredSamples = samples.slice(WARMUP_SECONDS);
    const rss = measuredSamples.map((sample) => sample.rssMb);
    const heap = measuredSamples.map((sample) => sample.heapMb);
    return {
      batchSize: BATCH,
      concurrency: CONCURRENCY,
      cpus: os.cpus().length,
      ceiling: { ...summary(ceiling), eventsPerSecond: Math.round(ceilingRate) },
      product: {
        ...summary(product),
        eventsPerSecond: Math.round(productRate),
        ratioToCeiling: Number((productRate / ceilingRate).toFixed(3)),
        eventsPerSecondByTenth: product.eventsPerSecondByTenth,
        rowsStored: stored.rows[0]?.count ?? 0,
        /** Cores busy on average, warm-up included: this process (the server) and PostgreSQL's. */
        cpuCores: cpuShares,
        memory: {
          rssMb: { start: rss[0], end: rss.at(-1), max: Math.max(...rss) },
          heapMb: { start: heap[0], end: heap.at(-1), max: Math.max(...heap) },
          /** RSS at each tenth of the measured run: flat is what the issue asks. */
          rssMbByTenth: Array.from({ length: 10 }, (_, i) => rss[Math.floor(((i + 1) * rss.length) / 10) - 1]),
        },
      },
      storageFloor: floor,
      targets: {
        halfTheCeiling: productRate >= ceilingRate / 2,
        p99Under50Ms: product.latencyMs.p99 < 50,
      },
    };
  } finally {
    await app?.close();
    await jobs.stop();
    await runtime.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function summary(report: LoadReport) {
  return {
    seconds: report.seconds,
    requests: report.requests,
    accepted: report.accepted,
    statuses: report.statuses,
    latencyMs: report.latencyMs,
  };
}

/** Runs the load generator in a process of its own and waits for its report. */
function load(order: LoadOrder): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'track-load.ts'), { stdio: 'inherit' });
    child.once('message', (message: { report?: LoadReport; error?: string }) => {
      if (message.report) resolve(message.report);
      else reject(new Error(`the load generator failed: ${message.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load generator exited with ${code}`));
    });
    child.send(order);
  });
}

/** The ceiling: Fastify parsing the snippet's text/plain JSON and answering 202, nothing else. */
async function listenBare() {
  const app = Fastify({ bodyLimit: 64 * 1024 });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.post('/api/public/track', async (request, reply) =>
    reply.code(202).send({ accepted: (request.body as { events: unknown[] }).events.length }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** RSS and heap of this process (the server's) every second. */
function sampleMemory() {
  const samples: { rssMb: number; heapMb: number }[] = [];
  const sample = () => {
    const usage = process.memoryUsage();
    samples.push({ rssMb: Math.round(usage.rss / 2 ** 20), heapMb: Math.round(usage.heapUsed / 2 ** 20) });
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return samples;
    },
  };
}

/** CPU time of this process and of the embedded PostgreSQL's processes (the postmaster's children), in cores. */
function cpuMeter(dataDir: string) {
  const ticksPerSecond = 100;
  const postgresTicks = async () => {
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    let ticks = 0;
    for (const entry of await fs.readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // Fields after the command name (which may hold spaces): state, ppid, ..., utime, stime, cutime,
      // cstime (the 14th to 17th): the postmaster's cutime and cstime hold the backends that have exited.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      if (pid === postmaster) ticks += Number(fields[13]) + Number(fields[14]);
      if (pid === postmaster || Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks;
  };
  const started = performance.now();
  const ownStart = process.cpuUsage();
  const postgresStart = postgresTicks();
  return {
    stop: async () => {
      const seconds = (performance.now() - started) / 1000;
      const own = process.cpuUsage(ownStart);
      const postgres = (await postgresTicks()) - (await postgresStart);
      return {
        server: Number(((own.user + own.system) / 1e6 / seconds).toFixed(2)),
        postgres: Number((postgres / ticksPerSecond / seconds).toFixed(2)),
      };
    },
  };
}

/** The group commit fed directly by `CONCURRENCY` callers of 10 events each: the database's share alone. */
async function storageFloor(database: Parameters<typeof createIngest>[0], workspaceId: string) {
  const ingest = createIngest(database);
  const batch = (): TrackedEvent[] =>
    Array.from({ length: BATCH }, () => ({
      type: 'page',
      anonymousId: randomBytes(16).toString('base64url'),
      path: '/pricing',
      referrer: 'https://www.google.com/',
      personId: null,
      occurredAt: new Date(),
    }));
  let events = 0;
  const started = performance.now();
  const stopAt = started + SHORT_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < stopAt) {
        await ingest.submit(workspaceId, batch());
        events += BATCH;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds: Number(seconds.toFixed(1)), events, eventsPerSecond: Math.round(events / seconds) };
}
