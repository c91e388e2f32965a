import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { loadIdpSecrets, publicJwks } from './idp/secrets.ts';
import { createTokenVerifier } from './plugins/auth.ts';
import { openRuntime, type Runtime } from './runtime.ts';

const run = promisify(execFile);
const CLI = path.join(import.meta.dirname, 'cli.ts');

// These tests run the CLI on its own embedded data directory, as an operator would.
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-cli-'));
  await fs.chmod(dataDir, 0o755);
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '3998' });
const cli = (...args: string[]) => run('node', ['--import', 'tsx', CLI, ...args], { env: env() });

async function postmasterPid() {
  const lock = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
  return lock ? Number(lock.split('\n')[0]) : null;
}

describe('npm run cli', () => {
  it('lists its commands', async () => {
    const { stdout } = await cli('--help');
    expect(stdout).toContain('token --email <e> [--name <n>]');
  });

  it('prints a valid access token with no server running, and leaves no database behind', async () => {
    const { stdout } = await cli('token', '--email', 'Ops@Example.test', '--name', 'Ops Person');
    expect(await postmasterPid()).toBeNull();

    let runtime: Runtime | undefined;
    try {
      const config = loadConfig({ DATA_DIR: dataDir, PORT: '3998', LOG_LEVEL: 'silent' });
      runtime = await openRuntime(config, () => {});
      const verify = createTokenVerifier({
        issuer: config.oidc.issuer,
        audience: 'backend',
        localKeys: publicJwks(await loadIdpSecrets(runtime.database.db)),
      });
      const claims = await verify(stdout.trim());
      expect(claims).toMatchObject({ email: 'ops@example.test', aud: 'backend', iss: 'http://localhost:3998/idp' });
    } finally {
      await runtime?.close();
    }
  });

  it('attaches to the database a running server owns instead of starting a second one', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '3998', LOG_LEVEL: 'silent' });
    const server = await openRuntime(config, () => {});
    try {
      const ownerPid = await postmasterPid();
      expect(ownerPid).not.toBeNull();
      const { stdout } = await cli('token', '--email', 'second@example.test');
      expect(stdout.trim().split('.')).toHaveLength(3);
      expect(await postmasterPid()).toBe(ownerPid);
      // The CLI left the server's database running.
      const { rows } = await server.database.pool.query('select count(*)::int as n from idp_accounts');
      expect(rows[0].n).toBe(2);
    } finally {
      await server.close();
    }
  });
});
