import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Seconds from `npm start` to a healthy /api/health, then a clean SIGTERM. */
async function timeStart(dataDir: string, port: number) {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  const deadline = started + 180_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error('the server did not become healthy in 180 s');
    const healthy = await fetch(`http://localhost:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await exited;
  return Number(seconds.toFixed(2));
}

/**
 * Cold start: a data directory that does not exist yet (the embedded cluster is created and every
 * migration applied). Warm starts: the same directory again. The web app is already built.
 */
export async function startup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-'));
  await fs.chmod(dataDir, 0o755);
  try {
    const port = 3197;
    const coldSeconds = await timeStart(path.join(dataDir, 'data'), port);
    const warm: number[] = [];
    for (let run = 0; run < 3; run++) warm.push(await timeStart(path.join(dataDir, 'data'), port));
    warm.sort((a, b) => a - b);
    return { coldSeconds, warmSeconds: warm, warmMedianSeconds: warm[1], cpus: os.cpus().length };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
