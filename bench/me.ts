import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { mintAccessToken } from '../apps/server/src/idp/provider.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * The cost of a request (issue 24): in one run, with BENCH_CONNECTIONS (50) connections for
 * BENCH_SECONDS (10) each, a Fastify hello-world (the floor: HTTP and Fastify alone), /api/health (one
 * database round trip) and /api/users/query/me with a member's token (authentication, tenancy and
 * the user's row). The target: /me at least half of health's requests per second. The machine is
 * shared: the three take turns in BENCH_ROUNDS (3) rounds, so a burst of other work weighs on each
 * alike, and each round's /me share of health is recorded beside the whole run's.
 */
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, '.data-bench-me');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3286);
// Past the sandboxes, which take the ports after PORT.
const HELLO_PORT = PORT + 10;
const DOMAIN = 'me.bench.test';
const log = (line: string) => process.stderr.write(`${line}\n`);

const LIFTED = '1000000/1';

async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; ; attempt++) {
    const up = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    if (attempt > 3600 || child.exitCode !== null) throw new Error(`${url} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function spawnNode(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  return {
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const HELLO_WORLD = `
const app = (await import('fastify')).default();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: ${HELLO_PORT}, host: '127.0.0.1' });
`;

async function measure(name: string, url: string, token?: string) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS / ROUNDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  log(`bench: ${name} ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${errors} errors`);
  return {
    reqPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors,
  };
}

export async function meBench() {
  await fs.mkdir(DATA_DIR, { recursive: true });
  await fs.chmod(DATA_DIR, 0o755);
  const server = spawnNode(['--import', 'tsx', 'apps/server/src/main.ts'], {
    DATA_DIR,
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PUBLIC_PER_ADDRESS: LIFTED,
    RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: LIFTED,
    RATE_LIMIT_TOKEN_PER_ADDRESS: LIFTED,
  });
  // From the server's directory, where fastify resolves.
  const hello = spawnNode(['--input-type=module', '-e', HELLO_WORLD], {});
  try {
    await waitFor(`http://localhost:${PORT}/api/health`, server.child);
    await waitFor(`http://127.0.0.1:${HELLO_PORT}/`, hello.child);
    const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent' });
    const runtime = await openRuntime(config, log);
    let token: string;
    try {
      const email = `member@${DOMAIN}`;
      token = await mintAccessToken(config, runtime.database.db, { email, name: 'Me Bench' });
      const subject = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
      const found = await runtime.database.db.execute(
        sql`select 1 from user_identities where idp_subject = ${subject}`,
      );
      if (found.rows.length === 0) {
        const id = randomUUID();
        await runtime.database.inWorkspace(id, async (tx) => {
          await insertWorkspace(tx, { id, name: 'Me bench', domains: [DOMAIN], allowDomainJoin: false });
          await insertUser(tx, {
            workspaceId: id,
            idpSubject: subject,
            firstName: 'Me',
            lastName: 'Bench',
            email,
            role: 'member',
          });
        });
      }
    } finally {
      await runtime.close();
    }
    const check = await fetch(`http://localhost:${PORT}/api/users/query/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!check.ok) throw new Error(`/me answered ${check.status}`);
    type Figures = Awaited<ReturnType<typeof measure>>;
    const runs: Record<'helloWorld' | 'health' | 'me', Figures[]> = { helloWorld: [], health: [], me: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.helloWorld.push(await measure('hello world', `http://127.0.0.1:${HELLO_PORT}/`));
      runs.health.push(await measure('health', `http://localhost:${PORT}/api/health`));
      runs.me.push(await measure('me', `http://localhost:${PORT}/api/users/query/me`, token));
    }
    const whole = (figures: Figures[]) => ({
      reqPerSecond: Math.round(figures.reduce((sum, f) => sum + f.reqPerSecond, 0) / figures.length),
      p50Ms: Math.max(...figures.map((f) => f.p50Ms)),
      p99Ms: Math.max(...figures.map((f) => f.p99Ms)),
      errors: figures.reduce((sum, f) => sum + f.errors, 0),
    });
    const health = whole(runs.health);
    const me = whole(runs.me);
    return {
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      cpus: os.cpus().length,
      helloWorld: whole(runs.helloWorld),
      health,
      me,
      meShareOfHealth: Number((me.reqPerSecond / health.reqPerSecond).toFixed(2)),
      meShareOfHealthByRound: runs.me.map((f, n) =>
        Number((f.reqPerSecond / (runs.health[n]?.reqPerSecond ?? 1)).toFixed(2)),
      ),
    };
  } finally {
    await hello.stop();
    await server.stop();
  }
}
