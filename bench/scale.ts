import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import { IMPORT_MERGE_STEPS, type TImportStatus, type TSyncRun } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { vacuumAnalyzeAsOwner } from '../apps/server/src/db/analyze.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { embeddedPostmaster } from '../apps/server/src/db/embedded.ts';
import type { DemoSize } from '../apps/server/src/demo/seed-demo.ts';
import { deletePeopleData } from '../apps/server/src/features/people-rights/people-rights.repo.ts';
import { markDirty, peopleWithIds } from '../apps/server/src/graph/dirty.ts';
import { recomputeAfterWrites } from '../apps/server/src/graph/graph.service.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import { startSandbox } from '../apps/server/src/sandboxes.ts';
import { openCpuLedger } from './cpu-time.ts';
import { HEADER, ROW_EMAIL_PATTERN, row, uploadClientsFile } from './import.ts';
import { demoDomain, memberToken, prepare } from './load.ts';
import { machineProbeMs } from './machine-speed.ts';
import { round, THINK_MS, type UsersMessage, type Window, type WindowFigures } from './users.ts';

/**
 * One machine, two layouts (issue 24): one process doing everything (`--role all`) against two API
 * processes behind one address (BALANCER below) plus one worker. In each, BENCH_USERS (200)
 * users, each with their own token, call the pages' routes in load.ts's mix for BENCH_SECONDS (60)
 * after BENCH_WARMUP_SECONDS (5), on the demo workspace of BENCH_SIZE (large: 1M prospects, 10M edges),
 * while a real Google sync (a new member's sandbox mailbox, +large: about 30,000 messages, run by the
 * job queue's worker) and a real clients import (BENCH_IMPORT_ROWS new rows, 50,000 for large, through
 * POST /api/clients/command/upload-clients) start with the measured window. Per layout and mode:
 * req/s, p50/p99, errors and statuses (and p50/p99 by 10-second slices of the window), when the sync
 * and the import finished (or where they were when the window closed), each process's resident memory
 * (now, at its peak in the window, and its lifetime peak), and where the machine's CPU went (cpu-time.ts: each process, PostgreSQL by pool).
 * After each window the bench waits for the sync, the import and the graph jobs they queued
 * (BENCH_DRAIN_SECONDS at most) so that no layout inherits the previous one's work.
 *
 * Two modes per layout (BENCH_MODES, `pause,no-pause`): with a person's pause between a user's calls
 * (load.ts's BENCH_THINK_MS, 1 s on average), the one compared with the target (no errors, p99 under
 * 1 s, two processes not slower than one), and without: the saturation throughput. Why the no-pause
 * mode cannot meet the target, by Little's law for a closed loop: users = throughput x (latency +
 * pause). With no pause, 200 users always have 200 requests in flight, so the mean latency is
 * 200 / throughput: under 1 s only if the layout serves over 200 req/s (and the p99 lies above the
 * mean, so more still). With a 1 s pause on average the same 200 users ask 200 / (1 s + latency):
 * between 100 and 200 req/s while latency stays under 1 s (near 200 when answers are fast), which is
 * what a layout must sustain to meet the target; below that, the queue grows until latency absorbs it.
 *
 * The workspace is seeded once into BENCH_DATA_DIR (`.data-bench-scale-<size>`) and kept between runs:
 * seeding the large demo takes minutes (the network bench's note; the seed's seconds are recorded when
 * a run seeds). Each window adds a synced member and 50,000 clients to it: delete the directory to
 * start from the bare demo again.
 */
const SIZE = (process.env.BENCH_SIZE ?? 'large') as DemoSize;
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, `.data-bench-scale-${SIZE}`);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** The window's answers are also reported by slices of this many seconds. */
const SLICE_SECONDS = 10;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const MODES = (process.env.BENCH_MODES ?? 'pause,no-pause').split(',').map((mode) => mode.trim());
const LAYOUT_NAMES = { one: 'one process', two: 'two API processes and a worker' } as const;
/**
 * Which layouts run, in this order (BENCH_LAYOUTS, `one,two`): one alone is enough to look into a
 * failure, and `two,one` shows what running second does to a layout's figures.
 */
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'one,two').split(',').map((key) => {
  const name = LAYOUT_NAMES[key.trim() as keyof typeof LAYOUT_NAMES];
  if (!name) throw new Error('BENCH_LAYOUTS: one, two, or both separated by a comma');
  return name;
});
/** The import and mailbox of the large demo by default; a small run keeps both small. */
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? (SIZE === 'large' ? 50_000 : 2_000));
const MAILBOX = process.env.BENCH_MAILBOX ?? (SIZE === 'large' ? 'large' : 'default');
/**
 * The work started with the window (BENCH_BACKGROUND, `sync,import`; `none` for neither): without it,
 * a window measures what the pages alone cost, the floor a layout's jobs add to.
 */
const BACKGROUND = (process.env.BENCH_BACKGROUND ?? 'sync,import').split(',').map((work) => work.trim());
const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 900);
const PORT = Number(process.env.BENCH_PORT ?? 3306);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
/**
 * How the address in front of several API processes spreads the requests (BENCH_BALANCER): `least`,
 * to the process with the fewest requests in flight, in turn among equals (HAProxy's `leastconn`,
 * nginx's `least_conn`, a cloud balancer's least outstanding requests), or `round-robin`, each to the
 * next process whatever its queue.
 */
const BALANCER = (() => {
  const balancer = process.env.BENCH_BALANCER ?? 'least';
  if (balancer !== 'least' && balancer !== 'round-robin') throw new Error('BENCH_BALANCER: least or round-robin');
  return balancer;
})();
const LIFTED = '1000000/1';
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Server = { name: string; port: number | null; child: ChildProcess; stop: () => Promise<void> };

/**
 * The database's connections for requests, shared by the API processes of a layout: each of the two
 * gets half of the one process's pool (as an operator would split `DB_REQUEST_POOL_MAX` over the
 * processes of one database). With a full pool each, the two processes ran twice as many statements
 * at once on the same 2 cores: 73.4 req/s, p99 8.1 s and 21 answers of 503, against 88.4 req/s, p99
 * 4.9 s and none with half each (2026-11-27, the same sync and import).
 */
const REQUEST_POOL_MAX = loadConfig({ DB_REQUEST_POOL_MAX: process.env.DB_REQUEST_POOL_MAX }).requestDatabase.poolMax;

/**
 * `npm start -- --role <role>` as a process of its own; its Slack and HubSpot sandboxes take the
 * ports after `port`. Google is the bench's one sandbox (GOOGLE_SANDBOX_URL): the tokens the API
 * process gets at the connection must be those the worker's sync presents. `apiProcesses`: how many
 * API processes share the database's request connections.
 */
async function startProcess(
  name: string,
  role: 'all' | 'api' | 'worker',
  port: number,
  googleUrl: string,
  apiProcesses = 1,
) {
  // BENCH_CPU_PROFILE: each process writes its CPU profiles (its main thread's and its module
  // loader's, named by Node) into a folder of its own there as it stops (Node's --cpu-prof).
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(CPU_PROFILE_DIR, name)}`] : [];
  // A server left by a bench that crashed would answer the health checks below, and the window would
  // measure it while ours failed to listen.
  const taken = await fetch(`http://localhost:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} already answers: a server left by an earlier bench? Stop it first`);
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts', '--role', role], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR,
      PORT: String(port),
      // Behind one address: every process issues and accepts tokens for the same public URL.
      PUBLIC_URL: `http://localhost:${PORT}`,
      GOOGLE_SANDBOX_URL: googleUrl,
      DB_REQUEST_POOL_MAX: String(Math.max(1, Math.round(REQUEST_POOL_MAX / apiProcesses))),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PUBLIC_PER_ADDRESS: LIFTED,
      RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: LIFTED,
      RATE_LIMIT_TOKEN_PER_ADDRESS: LIFTED,
      RATE_LIMIT_UPLOAD_PER_ADDRESS: LIFTED,
      RATE_LIMIT_UPLOAD_PER_USER: LIFTED,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let banner = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    banner += chunk;
    if (/error/i.test(chunk)) process.stderr.write(chunk);
  });
  // The server's log on stdout (text in local mode, JSON otherwise): its errors are what a 500 leaves
  // behind, its warnings what a failed job attempt does.
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (/\b(WARN|ERROR|FATAL)\b|"level":[456]\d/.test(line)) process.stderr.write(`${name}: ${line}\n`);
    }
  });
  for (let attempt = 0; ; attempt++) {
    const ready =
      role === 'worker'
        ? banner.includes('worker is ready')
        : await fetch(`http://localhost:${port}/api/health`).then(
            (response) => response.ok,
            () => false,
          );
    if (ready) break;
    if (attempt > 3600 || child.exitCode !== null) throw new Error(`${name} did not start`);
    await sleep(50);
  }
  const server: Server = {
    name,
    port: role === 'worker' ? null : port,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
  return server;
}

/** The process's resident memory now and at its lifetime peak, in MB (Linux). */
async function memoryOf(pid: number | undefined) {
  const status = await fsp.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const mb = (field: string) => round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024, 0);
  return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
}

/**
 * drive() (users.ts) in a process of its own, forked for the window: `onMeasuring` gets its pid as the
 * window opens, for the CPU ledger. The users' client shares the machine's cores with the layout it
 * measures, so what it spends is counted, and its heap holds nothing but its own work (users.ts). The
 * process waits, its figures sent, until `release`: the ledger reads its CPU time before it ends.
 */
function driveApart(window: Window, onMeasuring: (pid: number) => void, sample: () => void) {
  const users = fork(path.join(REPO_ROOT, 'bench/users-process.ts'), { execArgv: ['--import', 'tsx'] });
  const exited = once(users, 'exit');
  return new Promise<{ figures: WindowFigures; release: () => Promise<void> }>((resolve, reject) => {
    users.on('message', (message: UsersMessage) => {
      if (message.type === 'measuring') onMeasuring(users.pid ?? 0);
      else if (message.type === 'sample') sample();
      else
        resolve({
          figures: message.figures,
          release: async () => {
            if (users.connected) users.disconnect();
            await exited;
          },
        });
    });
    void exited.then(([code]) => reject(new Error(`the users' process ended (${code}) before its figures`)));
    users.send(window);
  });
}

/** A clients CSV of `IMPORT_ROWS` rows never imported before (the row numbers start at `first`). */
async function clientsFile(first: number) {
  const file = path.join(DATA_DIR, `scale-clients-${first}.csv`);
  const out = fs.createWriteStream(file);
  out.write(`${HEADER.join(',')}\r\n`);
  for (let n = first; n < first + IMPORT_ROWS; n += 2000) {
    let chunk = '';
    for (let i = n; i < Math.min(n + 2000, first + IMPORT_ROWS); i++) chunk += row(i, '');
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

const api = (port: number, token: string, pathname: string, method: 'GET' | 'POST' = 'GET') =>
  fetch(`http://localhost:${port}${pathname}`, { method, headers: { authorization: `Bearer ${token}` } });

/** What a sync's and an import's status say of their progress, without their ids and timestamps. */
const syncProgress = (run: TSyncRun | null) =>
  run && {
    status: run.status,
    phase: run.phase,
    processed: run.processed,
    total: run.total,
    counts: run.counts,
    error: run.error,
  };
const importProgress = (status: TImportStatus | null) =>
  status && {
    status: status.status,
    rowsProcessed: status.rowsProcessed,
    mergeStep: status.mergeStep === null ? null : (IMPORT_MERGE_STEPS.clients[status.mergeStep] ?? status.mergeStep),
    added: status.added,
    updated: status.updated,
    rejected: status.rejected,
    error: status.error,
  };

/**
 * A member connects their Google account as a browser does (authenticate, the sandbox's consent,
 * the callback with the nonce cookie): the callback queues the first sync, which a worker runs.
 */
async function connectGoogle(port: number, token: string, email: string) {
  const start = await api(
    port,
    token,
    `/api/google/authenticate?redirectUrl=${encodeURIComponent('/network')}`,
    'POST',
  );
  if (!start.ok) throw new Error(`google authenticate answered ${start.status}: ${await start.text()}`);
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { url } = (await start.json()) as { url: string };
  const callback = await approveConsent(url, email);
  const back = await fetch(`http://localhost:${port}${callback.pathname}${callback.search}`, {
    headers: { cookie },
    redirect: 'manual',
  });
  if (back.status !== 302) throw new Error(`google callback answered ${back.status}: ${await back.text()}`);
}

/** Jobs of the sync's and import's aftermath still waiting or running (pg-boss's table, as the owner). */
async function pendingJobs(ownerUrl: string) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    // Every job but the schedules' sweeps, which only queue others: a sync's graph jobs, and the first
    // recommendations of the member it brought in (minutes at 1M), are the window's work too.
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pgboss.job
        where state in ('created', 'retry', 'active') and name not like '%-sweep' and name not like '%-purge'`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** The tables forgetting deletes from the most. */
const FORGET_VACUUMED = ['people', 'employments', 'clients', 'edges', 'network_rows', 'graph_dirty'];

/**
 * Forgets the people earlier windows imported (their client records, stints, edges and network rows),
 * so every window measures the workspace as it was seeded. Kept, each window's 50,000 grew the demo's
 * clients to 650,000 over a day of runs, and the clients, allies and tracked-clients lists then took 1
 * to 10 s alone (2026-11-26, 13:29 run: 22 req/s, 988 answers of 503); the people stayed until
 * 2026-11-27, when the "1M" workspace was found at 2.5M people. Erasure's deletions, without its
 * tombstones, then the recompute that removes their rows from the network.
 */
async function forgetEarlierImports(database: Database, databaseUrl: string, workspaceId: string) {
  const forgotten = await database.inWorkspace(workspaceId, async (tx) => {
    const imported = (
      await tx.execute<{ id: string }>(
        sql`select id from people where workspace_id = ${workspaceId} and email like ${ROW_EMAIL_PATTERN}`,
      )
    ).rows.map((row) => row.id);
    if (imported.length === 0) return 0;
    await markDirty(tx, workspaceId, peopleWithIds(imported));
    await deletePeopleData(tx, workspaceId, imported);
    return imported.length;
  });
  // The graph job's own way, statistics first (1.3M marks planned as a handful held one batch for
  // minutes); also what finishes a forgetting an interrupted run left marked.
  const started = performance.now();
  const { people } = await recomputeAfterWrites(database, workspaceId);
  // Their dead rows cleared before the window rather than by autovacuum during it: the pages alone
  // ran at 127 req/s after the first forgetting of 1.2M people, 154 once vacuumed (same probe).
  if (forgotten > 0) await vacuumAnalyzeAsOwner(databaseUrl, FORGET_VACUUMED);
  if (forgotten > 0 || people > 0)
    log(
      `bench: forgot ${forgotten} people earlier windows imported, ${people} recomputed in ${round((performance.now() - started) / 1000)} s`,
    );
}

/** What the window measures on: the workspace's people and members as it starts (each window adds a synced member). */
async function workspaceSize(database: Database, workspaceId: string) {
  const [row] = (
    await database.inWorkspace(workspaceId, (tx) =>
      tx.execute<{ people: number; members: number }>(sql`
        select (select count(*)::int from people where workspace_id = ${workspaceId}) as people,
               (select count(*)::int from users where workspace_id = ${workspaceId}) as members`),
    )
  ).rows;
  return row;
}

type Background = {
  sync: { queuedAtSeconds: number; finishedAtSeconds: number | null; atWindowEnd: unknown; final: unknown };
  import: {
    rows: number;
    finishedAtSeconds: number | null;
    atWindowEnd: unknown;
    final: unknown;
  };
  drainSeconds: number;
};

export async function scale() {
  await fsp.mkdir(DATA_DIR, { recursive: true });
  await fsp.chmod(DATA_DIR, 0o755);
  const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
  // Seeded (or found) before the first layout starts: a seed is no part of a measurement.
  const seeding = await openRuntime(config, log);
  let seedSeconds: number | null;
  try {
    seedSeconds = (await prepare(seeding.database, config, { size: SIZE, count: 0 })).seedSeconds;
  } finally {
    await seeding.close();
  }
  const google = await startSandbox('google', { port: 0, publicUrl: undefined });
  const domain = demoDomain(SIZE);
  const layouts: Record<string, Record<string, unknown>> = {};
  try {
    for (const layout of LAYOUTS) {
      // The first process opens the embedded PostgreSQL; the bench and the others attach to it.
      const servers: Server[] =
        layout === 'one process'
          ? [await startProcess('all', 'all', PORT, google.url)]
          : [await startProcess('api 1', 'api', PORT, google.url, 2)];
      if (layout !== 'one process') {
        servers.push(await startProcess('api 2', 'api', PORT + 10, google.url, 2));
        servers.push(await startProcess('worker', 'worker', PORT + 20, google.url));
      }
      const runtime = await openRuntime(config, log);
      // Whose children PostgreSQL's backends are (the first process started the embedded cluster).
      const postmaster = config.databaseUrl ? null : await embeddedPostmaster(config.dataDir);
      layouts[layout] = {};
      try {
        const { workspaceId, users, ids } = await prepare(runtime.database, config, { size: SIZE, count: USERS });
        const ports = servers.flatMap((server) => (server.port === null ? [] : [server.port]));
        // The import goes to the last API process, the sync's connection to the first: in the
        // two-process layout each carries one.
        const importPort = ports.at(-1) as number;
        const connectPort = ports[0] as number;
        const importer = await memberToken(runtime.database, config, workspaceId, {
          email: `importer@${domain}`,
          firstName: 'Import',
          lastName: 'Admin',
          role: 'admin',
        });
        for (const mode of MODES) {
          const thinkMs = mode === 'no-pause' ? 0 : THINK_MS;
          // What an earlier run left (a drain cut short, jobs retried after a stop) runs first: a window
          // measured beside another's leftovers measures those (10:40 run of 2026-11-26: a recommendations
          // job left from an earlier run ran through both windows).
          await forgetEarlierImports(runtime.database, runtime.databaseUrl, workspaceId);
          const settleDeadline = performance.now() + DRAIN_SECONDS * 1000;
          while (performance.now() < settleDeadline && (await pendingJobs(runtime.databaseUrl)) > 0) await sleep(1000);
          const workspace = await workspaceSize(runtime.database, workspaceId);
          // A mailbox never synced (a first, full sync) and rows never imported, every window.
          const stamp = Date.now();
          const mailboxTag = MAILBOX === 'default' ? '' : `+${MAILBOX}`;
          const syncEmail = `sync-${stamp}${mailboxTag}@${domain}`;
          const syncer = await memberToken(runtime.database, config, workspaceId, {
            email: syncEmail,
            firstName: 'Sync',
            lastName: `${stamp}`,
            role: 'member',
          });
          const file = await clientsFile(stamp * 100);
          const importId = randomUUID();
          let windowStart = 0;
          let windowStartedAt = 0;
          const since = () => round((performance.now() - windowStart) / 1000);
          const background: Background = {
            sync: { queuedAtSeconds: 0, finishedAtSeconds: null, atWindowEnd: null, final: null },
            import: { rows: IMPORT_ROWS, finishedAtSeconds: null, atWindowEnd: null, final: null },
            drainSeconds: 0,
          };
          let importing: Promise<void> = Promise.resolve();
          let connecting: Promise<void> = Promise.resolve();
          const windowPeak: Record<string, number> = {};
          // Opened with the window (a holder: the callbacks below set and read it).
          const cpuTime: { ledger: ReturnType<typeof openCpuLedger> | null } = { ledger: null };
          const sample = () => {
            void cpuTime.ledger?.then((ledger) => ledger.sample());
            for (const server of servers) {
              void memoryOf(server.child.pid).then(({ rssMb }) => {
                windowPeak[server.name] = Math.max(windowPeak[server.name] ?? 0, rssMb);
              });
            }
          };
          const syncStatus = async () =>
            (await api(connectPort, syncer, '/api/google/query/sync-status').then((r) => r.json())) as TSyncRun | null;
          const importStatus = async () =>
            (await api(importPort, importer, `/api/imports/query/${importId}`).then((r) =>
              r.ok ? r.json() : null,
            )) as TImportStatus | null;
          const startBackground = (usersPid: number) => {
            windowStart = performance.now();
            windowStartedAt = Date.now();
            cpuTime.ledger = openCpuLedger(runtime.databaseUrl, postmaster?.pid ?? null, {
              ...Object.fromEntries(servers.map((server) => [server.name, server.child.pid ?? 0])),
              // The users' HTTP client; the sandbox that serves the sync's mail is a process of its own.
              'bench (users)': usersPid,
              'bench (its runner)': process.pid,
              'Google sandbox': google.pid ?? 0,
            });
            if (!BACKGROUND.includes('sync')) background.sync.final = 'not run';
            else
              connecting = connectGoogle(connectPort, syncer, syncEmail).catch((error: unknown) => {
                background.sync.final = { error: String(error) };
              });
            if (!BACKGROUND.includes('import')) {
              background.import.final = 'not run';
              return;
            }
            importing = uploadClientsFile(importPort, file, importer, importId, {
              mapNetwork: 'true',
              trackJobChanges: 'true',
            }).then(
              (answer) => {
                background.import.finishedAtSeconds = since();
                if (answer.status !== 200) background.import.final = { status: answer.status, body: answer.body };
              },
              (error: unknown) => {
                background.import.final = { error: String(error) };
              },
            );
          };
          log(
            `bench: ${layout}, ${mode}, ${users.length} users, ${SECONDS} s, sync ${syncEmail}, import ${IMPORT_ROWS} rows`,
          );
          const machineProbeMsBefore = machineProbeMs();
          const { figures, release: releaseUsers } = await driveApart(
            {
              ports,
              users,
              ids,
              thinkMs,
              warmupSeconds: WARMUP_SECONDS,
              seconds: SECONDS,
              sliceSeconds: SLICE_SECONDS,
              balancer: BALANCER,
            },
            startBackground,
            sample,
          );
          const windowEnd = since();
          const cpu = await cpuTime.ledger?.then((ledger) => ledger.close());
          await releaseUsers();
          const memory: Record<string, unknown> = {};
          for (const server of servers)
            memory[server.name] = {
              ...(await memoryOf(server.child.pid)),
              windowPeakRssMb: windowPeak[server.name] ?? 0,
            };
          background.sync.atWindowEnd = await syncStatus().then(syncProgress, String);
          background.import.atWindowEnd = await importStatus().then(importProgress, String);
          // Both to their end, then the graph jobs they queued: the next window starts from quiet.
          const drainStart = performance.now();
          const drainDeadline = drainStart + DRAIN_SECONDS * 1000;
          await connecting;
          while (background.sync.final === null) {
            const run = await syncStatus().catch(() => null);
            if (run && (run.status === 'succeeded' || run.status === 'failed')) {
              background.sync.final = syncProgress(run);
              // Queued and finished on the server's clock, which is this machine's.
              background.sync.queuedAtSeconds = round((Date.parse(run.createdAt) - windowStartedAt) / 1000);
              background.sync.finishedAtSeconds = run.finishedAt
                ? round((Date.parse(run.finishedAt) - windowStartedAt) / 1000)
                : null;
              break;
            }
            if (performance.now() > drainDeadline) break;
            await sleep(1000);
          }
          await Promise.race([importing, sleep(Math.max(0, drainDeadline - performance.now()))]);
          background.import.final ??= await importStatus().then(importProgress, String);
          while (performance.now() < drainDeadline && (await pendingJobs(runtime.databaseUrl)) > 0) await sleep(1000);
          background.drainSeconds = round((performance.now() - drainStart) / 1000);
          await fsp.rm(file, { force: true });
          const result = {
            ...figures,
            windowSeconds: windowEnd,
            machineProbeMsBefore,
            workspace,
            background,
            memory,
            cpu,
          };
          layouts[layout][mode === 'no-pause' ? 'noPause' : 'withPause'] = result;
          log(`bench: ${layout}, ${mode}: ${JSON.stringify(result)}`);
        }
      } finally {
        await runtime.close();
        for (const server of servers.reverse()) await server.stop();
      }
    }
  } finally {
    await google.stop();
  }
  type Figures = { errors: number; p99Ms: number; reqPerSecond: number } | undefined;
  const one = layouts['one process']?.withPause as Figures;
  const two = layouts['two API processes and a worker']?.withPause as Figures;
  return {
    size: SIZE,
    users: USERS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    thinkMs: THINK_MS,
    importRows: IMPORT_ROWS,
    mailbox: MAILBOX,
    background: BACKGROUND,
    cpus: os.cpus().length,
    balancer: BALANCER,
    seedSeconds,
    layouts,
    target: 'with a pause: no errors, p99 under 1 s, the two-process layout not slower than one',
    ...(one && two
      ? {
          met: {
            noErrors: one.errors === 0 && two.errors === 0,
            p99Under1s: one.p99Ms < 1000 && two.p99Ms < 1000,
            twoNotSlower: { reqPerSecond: two.reqPerSecond >= one.reqPerSecond, p99: two.p99Ms <= one.p99Ms },
          },
        }
      : {}),
  };
}
