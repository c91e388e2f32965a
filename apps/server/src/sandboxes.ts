/**
 * Local mode's stand-ins for outside services, each its own server in a child process. They are
 * started by file path, never imported: the product reaches them only through their URLs, as it
 * reaches the real services.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './config.ts';

export type SandboxProcess = {
  /** Where the sandbox answers, as it reported once listening. */
  url: string;
  /** Its process (the scale bench accounts for its CPU). */
  pid: number | undefined;
  stop(): Promise<void>;
};

const SANDBOXES = {
  google: { label: 'Google', main: 'sandboxes/google/src/main.ts', portVariable: 'GOOGLE_SANDBOX_PORT' },
  slack: { label: 'Slack', main: 'sandboxes/slack/src/main.ts', portVariable: 'SLACK_SANDBOX_PORT' },
  hubspot: { label: 'HubSpot', main: 'sandboxes/hubspot/src/main.ts', portVariable: 'HUBSPOT_SANDBOX_PORT' },
} as const;
export type SandboxName = keyof typeof SANDBOXES;

/**
 * Starts a sandbox on loopback and resolves once it answers; rejects if it exits first (a port in
 * use, say) or does not answer within `timeoutMs`.
 */
export async function startSandbox(
  name: SandboxName,
  options: { port: number; publicUrl: string | undefined },
  timeoutMs = 30_000,
): Promise<SandboxProcess> {
  const sandbox = SANDBOXES[name];
  const main = path.join(REPO_ROOT, sandbox.main);
  const args = ['--import', 'tsx', main, '--host', '127.0.0.1', '--port', String(options.port)];
  if (options.publicUrl) args.push('--public-url', options.publicUrl);
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await readyUrl(child, sandbox.label, timeoutMs).catch((error: unknown) => {
      throw new Error(`The ${sandbox.label} sandbox did not start on port ${options.port} (${sandbox.portVariable})`, {
        cause: error,
      });
    });
    const answer = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!answer.ok) throw new Error(`the ${sandbox.label} sandbox answered ${answer.status} at ${url}`);
    return { url, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function readyUrl(child: ChildProcess, label: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the ${label} sandbox did not start in ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('message', (message: unknown) => {
      clearTimeout(timer);
      const url = typeof message === 'object' && message !== null ? Reflect.get(message, 'ready') : undefined;
      if (typeof url === 'string') resolve(url);
      else reject(new Error(`the ${label} sandbox sent an unexpected message`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the ${label} sandbox exited before it was ready (${signal ?? `code ${code}`})`));
    });
  });
}
