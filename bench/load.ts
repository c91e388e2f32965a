import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { type DemoSize, seedDemo } from '../apps/server/src/demo/seed-demo.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { mintAccessToken } from '../apps/server/src/idp/provider.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import { type Call, calls, type Ids, percentile, personPause, request, round, routePicker, THINK_MS } from './users.ts';

/**
 * A busy Monday (issue 23): BENCH_USERS (200) people, each with their own token, use the product at
 * once for BENCH_SECONDS (60): every read route of the app's pages in the proportions the pages call
 * them, and some writes, with no pause between calls, on a seeded demo workspace (BENCH_SIZE, small by
 * default, kept in BENCH_DATA_DIR between runs). Requests per second, p50/p99 and errors per route;
 * /api/health in the same mix is the floor: what any answer costs under this concurrency. Before the
 * load, each route alone (BENCH_SOLO_RUNS sequential calls): its latency without queueing.
 * BENCH_SOLO_ONLY=1 measures only that.
 */
const SIZE = (process.env.BENCH_SIZE ?? 'small') as DemoSize;
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, `.data-bench-load-${SIZE}`);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const SOLO_RUNS = Number(process.env.BENCH_SOLO_RUNS ?? 20);
const SOLO_ONLY = process.env.BENCH_SOLO_ONLY === '1';
/** One admin in five, as a sales team has: the admins' pages (clients, allies, CRM) are in their mix only. */
const ADMIN_SHARE = 0.2;
const PORT = Number(process.env.BENCH_PORT ?? 3197);
/** The demo workspace's domain: one workspace per size, in the load and scale benches alike. */
export const demoDomain = (size: DemoSize) => `load-${size}.bench.test`;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The server as `npm start` runs it, with the rate limits lifted: 200 users from one address are not an attack. */
async function startServer() {
  const lifted = '1000000/1';
  // BENCH_CPU_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (where its time goes).
  const profile = process.env.BENCH_CPU_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PUBLIC_PER_ADDRESS: lifted,
      RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: lifted,
      RATE_LIMIT_TOKEN_PER_ADDRESS: lifted,
      RATE_LIMIT_UPLOAD_PER_ADDRESS: lifted,
      RATE_LIMIT_UPLOAD_PER_USER: lifted,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  for (let attempt = 0; ; attempt++) {
    const healthy = await fetch(`http://localhost:${PORT}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 3600 || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A member of the workspace with `email` (added on first use) and an access token of the built-in
 * identity provider for them.
 */
export async function memberToken(
  database: Database,
  config: ReturnType<typeof loadConfig>,
  workspaceId: string,
  member: { email: string; firstName: string; lastName: string; role: Role },
) {
  const token = await mintAccessToken(config, database.db, {
    email: member.email,
    name: `${member.firstName} ${member.lastName}`,
  });
  const subject = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
  await database.inWorkspace(workspaceId, async (tx) => {
    const known = await tx.execute(
      sql`select 1 from users where workspace_id = ${workspaceId} and idp_subject = ${subject}`,
    );
    if (known.rows.length === 0) await insertUser(tx, { workspaceId, idpSubject: subject, ...member });
  });
  return token;
}

/**
 * The demo workspace of `size` (seeded once per data directory; a seed cut short is completed on the
 * next run, the generator adding nothing twice) and `count` members with their tokens.
 */
export async function prepare(
  database: Database,
  config: ReturnType<typeof loadConfig>,
  { size = SIZE, count = USERS }: { size?: DemoSize; count?: number } = {},
) {
  const domain = demoDomain(size);
  const found = await database.db.execute<{ id: string }>(
    sql`select workspace_id as id from workspace_domains where domain = ${domain}`,
  );
  const ws = found.rows[0]?.id ?? randomUUID();
  const seeded = found.rows[0]
    ? await database.inWorkspace(ws, (tx) =>
        tx.execute<{ seeded: boolean }>(
          sql`select exists (select 1 from network_rows where workspace_id = ${ws}) as seeded`,
        ),
      )
    : null;
  let seedSeconds: number | null = null;
  if (!seeded?.rows[0]?.seeded) {
    const seedUserId = await database.inWorkspace(ws, async (tx) => {
      if (!found.rows[0])
        await insertWorkspace(tx, { id: ws, name: 'Load bench', domains: [domain], allowDomainJoin: false });
      const seedUser = await tx.execute<{ id: string }>(
        sql`select id from users where workspace_id = ${ws} and idp_subject = ${`load-bench|${size}`}`,
      );
      return (
        seedUser.rows[0]?.id ??
        insertUser(tx, {
          workspaceId: ws,
          idpSubject: `load-bench|${size}`,
          firstName: 'Seed',
          lastName: 'Admin',
          email: `seed@${domain}`,
          role: 'admin',
        })
      );
    });
    log(`bench: seeding a ${size} demo workspace (minutes for large; kept for the next runs)`);
    const report = await seedDemo(database, { workspaceId: ws, seedUserId, size, log });
    seedSeconds = Math.round(report.ms / 1000);
    log(`bench: seeded in ${seedSeconds} s`);
  }
  // The seed admin can sign in through the built-in identity provider with its e-mail: the web bench
  // times the network page on this workspace (BENCH_EMAIL=seed@<domain>, BENCH_DATA_DIR).
  // Its workspace is set up: it lands in the product, not in the onboarding's steps.
  await database.db.execute(
    sql`insert into idp_accounts (subject, email, name) values (${`load-bench|${size}`}, ${`seed@${domain}`}, 'Seed Admin')
        on conflict (email) do update set subject = excluded.subject`,
  );
  await database.inWorkspace(ws, (tx) =>
    tx.execute(sql`update users set has_completed_onboarding = true, onboarding_step = 'ACCOUNTS_IMPORT_DONE'
                    where workspace_id = ${ws} and idp_subject = ${`load-bench|${size}`}`),
  );
  const users: { token: string; role: Role }[] = [];
  for (let n = 0; n < count; n++) {
    const role: Role = n < count * ADMIN_SHARE ? 'admin' : 'member';
    const email = `user-${n}@${domain}`;
    const token = await memberToken(database, config, ws, { email, firstName: 'User', lastName: `${n}`, role });
    users.push({ token, role });
  }
  const ids = await database.inWorkspace(ws, async (tx) => {
    const prospect = await tx.execute<{ id: string }>(
      sql`select prospect_id as id from network_rows where workspace_id = ${ws} order by proximity desc limit 1`,
    );
    const accounts = await tx.execute<{ id: string }>(
      sql`select id from accounts where workspace_id = ${ws} order by id limit 3`,
    );
    return { prospectId: prospect.rows[0]?.id ?? randomUUID(), accountIds: accounts.rows.map((row) => row.id) };
  });
  return { workspaceId: ws, users, ids, seedSeconds };
}

/** Each route alone, one call after another: what it costs without anybody else. */
async function solo(agent: http.Agent, token: string, routes: Call[]) {
  const figures: Record<string, { p50Ms: number; status: number | string }> = {};
  for (const call of routes) {
    if (call.method !== 'GET' && call.name.endsWith('(write)')) continue;
    const ms: number[] = [];
    let status: number | string = 0;
    for (let run = 0; run < SOLO_RUNS; run++) {
      const answer = await request(agent, PORT, token, call);
      ms.push(answer.ms);
      status = answer.status;
    }
    figures[call.name] = {
      p50Ms: round(
        percentile(
          ms.sort((a, b) => a - b),
          50,
        ),
      ),
      status,
    };
  }
  return figures;
}

async function load(agent: http.Agent, users: { token: string; role: Role }[], ids: Ids, thinkMs: number) {
  const byRoute = new Map<string, { ms: number[]; statuses: Record<string, number> }>();
  let measuring = false;
  let stopAt = performance.now() + WARMUP_SECONDS * 1000;
  const user = async (token: string, role: Role) => {
    const pick = routePicker(calls(ids, role));
    while (performance.now() < stopAt) {
      const call = pick();
      const answer = await request(agent, PORT, token, call);
      await personPause(thinkMs);
      if (!measuring) continue;
      const entry = byRoute.get(call.name) ?? { ms: [], statuses: {} };
      entry.ms.push(answer.ms);
      entry.statuses[answer.status] = (entry.statuses[answer.status] ?? 0) + 1;
      byRoute.set(call.name, entry);
    }
  };
  log(`bench: ${users.length} users, ${thinkMs} ms between calls, ${WARMUP_SECONDS} s warm-up`);
  await Promise.all(users.map((u) => user(u.token, u.role)));
  measuring = true;
  const started = performance.now();
  stopAt = started + SECONDS * 1000;
  log(`bench: ${SECONDS} s measured`);
  await Promise.all(users.map((u) => user(u.token, u.role)));
  const seconds = (performance.now() - started) / 1000;
  const routes: Record<string, unknown> = {};
  const all: number[] = [];
  let errors = 0;
  for (const [name, entry] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = entry.ms.sort((a, b) => a - b);
    all.push(...sorted);
    const failed = Object.entries(entry.statuses)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0);
    errors += failed;
    routes[name] = {
      requests: sorted.length,
      reqPerSecond: round(sorted.length / seconds),
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? 0),
      errors: failed,
      statuses: entry.statuses,
    };
  }
  all.sort((a, b) => a - b);
  return {
    thinkMs,
    seconds: round(seconds),
    requests: all.length,
    reqPerSecond: round(all.length / seconds),
    errors,
    p50Ms: round(percentile(all, 50)),
    p99Ms: round(percentile(all, 99)),
    routes,
  };
}

export async function loadBench() {
  await fs.mkdir(DATA_DIR, { recursive: true });
  await fs.chmod(DATA_DIR, 0o755);
  const server = await startServer();
  const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, log);
  const agent = new http.Agent({ keepAlive: true, maxSockets: USERS });
  try {
    const { users, ids } = await prepare(runtime.database, config);
    const admin = users[0];
    if (!admin) throw new Error('BENCH_USERS must be at least 1');
    log('bench: each route alone');
    const alone = await solo(agent, admin.token, calls(ids, 'admin'));
    if (SOLO_ONLY) return { size: SIZE, soloP50: alone };
    const saturated = await load(agent, users, ids, 0);
    const paced = THINK_MS > 0 ? await load(agent, users, ids, THINK_MS) : null;
    return {
      size: SIZE,
      users: USERS,
      admins: Math.ceil(USERS * ADMIN_SHARE),
      cpus: os.cpus().length,
      soloP50: alone,
      noPause: saturated,
      ...(paced ? { withPause: paced } : {}),
    };
  } finally {
    agent.destroy();
    await runtime.close();
    await server.stop();
  }
}
