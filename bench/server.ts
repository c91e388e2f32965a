import { spawn } from 'node:child_process';
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
