import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { markDirty } from '../apps/server/src/graph/dirty.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import { type Call, calls, type Ids, prepare } from './load.ts';

/**
 * One machine, two layouts (issue 24): one process doing everything (`--role all`) against two API
 * processes taking turns (a load balancer's round robin) plus one worker. In each, BENCH_USERS (100)
 * users call the pages' routes with no pause for BENCH_SECONDS (20) after a short warm-up, on the
 * small demo workspace, while the worker recomputes the whole workspace's graph every 2 s (the work a
 * sync's writes cause). Requests per second, p50/p99, errors, and each process's memory.
 */
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, '.data-bench-scale');
const USERS = Number(process.env.BENCH_USERS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
const PORT = Number(process.env.BENCH_PORT ?? 3306);
const LIFTED = '1000000/1';
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

type Server = { name: string; port: number | null; child: ChildProcess; stop: () => Promise<void> };

/** `npm start -- --role <role>` as a process of its own; the sandboxes take the ports after `port`. */
async function startProcess(name: string, role: 'all' | 'api' | 'worker', port: number): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', '--role', role], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR,
      PORT: String(port),
      // Behind one address: every process issues and accepts tokens for the same public URL.
      PUBLIC_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PUBLIC_PER_ADDRESS: LIFTED,
      RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: LIFTED,
      RATE_LIMIT_TOKEN_PER_ADDRESS: LIFTED,
      RATE_LIMIT_UPLOAD_PER_ADDRESS: LIFTED,
      RATE_LIMIT_UPLOAD_PER_USER: LIFTED,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  let banner = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    banner += chunk;
    if (/error/i.test(chunk)) process.stderr.write(chunk);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name,
    port: role === 'worker' ? null : port,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The process's resident memory now and at its peak, in MB (Linux). */
async function memoryOf(pid: number | undefined) {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const mb = (field: string) => round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024, 0);
  return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
}

type Answer = { status: number | string; ms: number };

function request(agent: http.Agent, port: number, token: string, call: Call, retried = false): Promise<Answer> {
  const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      {
        agent,
        host: 'localhost',
        port,
        path: call.path,
        method: call.method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) {
        resolve(request(agent, port, token, call, true));
        return;
      }
      resolve({ status: error.code ?? 'network error', ms: performance.now() - started });
    });
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** The users against `ports` in turn; the background work runs meanwhile. */
async function drive(ports: number[], users: { token: string; role: Role }[], ids: Ids) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: USERS * ports.length });
  const ms: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let measuring = false;
  let stopAt = performance.now() + (WARMUP_SECONDS + SECONDS) * 1000;
  setTimeout(() => {
    measuring = true;
  }, WARMUP_SECONDS * 1000);
  let started = 0;
  const user = async (token: string, role: Role) => {
    const routes = calls(ids, role);
    const total = routes.reduce((sum, call) => sum + call.weight, 0);
    while (performance.now() < stopAt) {
      let left = Math.random() * total;
      let call = routes[0] as Call;
      for (const candidate of routes) {
        call = candidate;
        left -= candidate.weight;
        if (left < 0) break;
      }
      const port = ports[next++ % ports.length] as number;
      const answer = await request(agent, port, token, call);
      if (!measuring) continue;
      if (started === 0) started = performance.now();
      ms.push(answer.ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
  };
  await Promise.all(users.map((u) => user(u.token, u.role)));
  stopAt = 0;
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  ms.sort((a, b) => a - b);
  const errors = Object.entries(statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requests: ms.length,
    reqPerSecond: round(ms.length / seconds),
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    errors,
    statuses,
  };
}

export async function scale() {
  await fs.mkdir(DATA_DIR, { recursive: true });
  await fs.chmod(DATA_DIR, 0o755);
  const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
  // The first process opens the embedded PostgreSQL; the bench and the others attach to it.
  const layouts: Record<string, unknown> = {};
  for (const layout of ['one process', 'two API processes and a worker'] as const) {
    const servers: Server[] =
      layout === 'one process' ? [await startProcess('all', 'all', PORT)] : [await startProcess('api 1', 'api', PORT)];
    if (layout !== 'one process') {
      servers.push(await startProcess('api 2', 'api', PORT + 10));
      servers.push(await startProcess('worker', 'worker', PORT + 20));
    }
    const runtime = await openRuntime(config, log);
    const jobs = await startJobQueue(runtime.databaseUrl, () => {}, { role: 'api' });
    try {
      const { users, ids } = await prepare(runtime.database, config);
      const ws = (
        await runtime.database.db.execute<{ id: string }>(
          sql`select workspace_id as id from workspace_domains where domain = ${'load-small.bench.test'}`,
        )
      ).rows[0]?.id;
      if (!ws) throw new Error('the demo workspace is missing');
      // The background: every prospect's neighbourhood marked changed and recomputed, every 2 s.
      let background = true;
      const recomputing = (async () => {
        while (background) {
          await runtime.database.inWorkspace(ws, (tx) =>
            markDirty(tx, ws, sql`select id from people where workspace_id = ${ws}`),
          );
          await jobs.enqueueGraphRecompute(ws);
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      })();
      log(`bench: ${layout}, ${USERS} users, ${SECONDS} s`);
      const ports = servers.flatMap((server) => (server.port === null ? [] : [server.port]));
      const figures = await drive(ports, users.slice(0, USERS), ids);
      background = false;
      await recomputing;
      const memory: Record<string, unknown> = {};
      for (const server of servers) memory[server.name] = await memoryOf(server.child.pid);
      layouts[layout] = { ...figures, memory };
      log(`bench: ${layout}: ${JSON.stringify(layouts[layout])}`);
    } finally {
      await jobs.stop();
      await runtime.close();
      for (const server of servers.reverse()) await server.stop();
    }
  }
  return { size: 'small', users: USERS, seconds: SECONDS, cpus: os.cpus().length, layouts };
}
