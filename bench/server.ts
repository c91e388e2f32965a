import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** `npm start` on `dataDir`, resolved once /api/health answers; `stop` ends it with a clean SIGTERM. */
export async function startServer(dataDir: string, port: number, timeoutMs = 180_000) {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the server did not become healthy in ${timeoutMs / 1000} s`);
    }
    const healthy = await fetch(`http://localhost:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url: `http://localhost:${port}`, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The server as `npm start` runs it (without the web build check), in its own process group so that
 * one signal ends all of it (its embedded PostgreSQL and sandboxes too); resolved once healthy.
 * `env` adds to the environment (rate limits lifted, sandboxes placed, ...).
 */
export async function startServerGroup(options: { dataDir: string; port: number; env?: Record<string, string> }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    detached: true,
    env: { ...process.env, DATA_DIR: options.dataDir, PORT: String(options.port), LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (name: 'SIGKILL' | 'SIGTERM') => {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, name);
    await exited;
  };
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    const healthy = await fetch(`http://localhost:${options.port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (performance.now() - started > 180_000) {
      await signal('SIGKILL');
      throw new Error('the server did not start in 180 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    startSeconds: (performance.now() - started) / 1000,
    /** The API process's resident memory (its PostgreSQL is apart), in MB. */
    rssMb: async () => {
      const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    /** A power cut: SIGKILL to the whole group. */
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}
export type ServerGroup = Awaited<ReturnType<typeof startServerGroup>>;
