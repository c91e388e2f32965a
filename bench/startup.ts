import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server.ts';

/** Seconds from `npm start` to a healthy /api/health, then a clean SIGTERM. */
async function timeStart(dataDir: string, port: number) {
  const started = performance.now();
  const server = await startServer(dataDir, port);
  const seconds = (performance.now() - started) / 1000;
  await server.stop();
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
