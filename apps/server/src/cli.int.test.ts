import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
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
    expect(stdout).toContain('seed-demo --email <e> [--size small|medium|large]');
    expect(stdout).toContain('recompute [--email <e>] [--from-evidence]');
    expect(stdout).toContain('recommend [--email <e>] [--explain]');
    expect(stdout).toContain('workflows <list|show|create|activate|deactivate|dry-run> --email <e>');
  });

  it('refuses a size it does not know, before touching any data', async () => {
    const refused = await cli('seed-demo', '--email', 'ops@example.test', '--size', 'huge').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--size must be one of small, medium, large'),
    });
    expect(await postmasterPid()).toBeNull();
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

  // Last: it adds a sign-in account, which the tests above count.
  it('seeds a demo workspace for a new e-mail, whose owner can sign in, and recomputes it', async () => {
    const { stdout } = await cli('seed-demo', '--email', 'Demo.Owner@demo-cli.test');
    const workspaceId = /^workspace: (\S+)$/m.exec(stdout)?.[1];
    expect(Number(/^network rows: (\d+)$/m.exec(stdout)?.[1])).toBeGreaterThan(2500);

    let runtime: Runtime | undefined;
    try {
      runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, PORT: '3998', LOG_LEVEL: 'silent' }), () => {});
      // The built-in provider's account signs in as the workspace's admin, onboarding done.
      const { rows } = await runtime.database.pool.query(
        `select i.workspace_id from idp_accounts a join user_identities i on i.idp_subject = a.subject
          where a.email = 'demo.owner@demo-cli.test'`,
      );
      expect(rows).toEqual([{ workspace_id: workspaceId }]);
      const me = await runtime.database.inWorkspace(workspaceId ?? '', (tx) =>
        tx.execute(sql`
          select w.name, u.first_name, u.last_name, u.role, u.has_completed_onboarding
            from users u join workspaces w on w.id = u.workspace_id
           where u.email = 'demo.owner@demo-cli.test'`),
      );
      expect(me.rows).toEqual([
        { name: 'Demo Cli', first_name: 'Demo', last_name: 'Owner', role: 'admin', has_completed_onboarding: true },
      ]);
    } finally {
      await runtime?.close();
    }

    const recomputed = await cli('recompute', '--email', 'demo.owner@demo-cli.test');
    expect(recomputed.stdout).toMatch(new RegExp(`^workspace ${workspaceId}: .* rows written`, 'm'));

    // The seed ended with today's recommendations: running them again adds none, and says why each was kept.
    const again = await cli('recommend', '--email', 'demo.owner@demo-cli.test');
    // Ten of their own, and those their teammates' runs found at the accounts they share.
    const already = /demo\.owner@demo-cli\.test: 0 kept, 0 dropped, (\d+) already recommended today/.exec(again.stdout);
    expect(Number(already?.[1])).toBeGreaterThanOrEqual(10);
    const explained = await cli('recommend', '--explain', '--email', 'demo.owner@demo-cli.test');
    expect(
      explained.stdout.match(/^ {2}kept {4}.+: (warm|medium|cold) \(.+\): (direct message|ask .+ for an intro)/gm),
    ).toHaveLength(10);

    // The seed made the agents a provider would; the provider manages them here.
    const owner = ['--email', 'demo.owner@demo-cli.test'];
    const listed = (await cli('workflows', 'list', ...owner)).stdout;
    expect(listed).toMatch(
      /^\S+ {2}active {4}Warm visit at a target account: VISITED_PRICING_PAGE, VISITED_MANY_PAGES -> PUSH_TO_SLACK$/m,
    );
    const created = (await cli('workflows', 'create', '--from-template', 'met-colleague-at-icp', ...owner)).stdout;
    const id = /^(\S+) {2}inactive {2}Already met a colleague at an ICP company/.exec(created)?.[1] ?? '';
    expect((await cli('workflows', 'activate', id, ...owner)).stdout).toBe(`${id} activated\n`);
    const dry = (await cli('workflows', 'dry-run', id, ...owner)).stdout;
    expect(dry).toMatch(
      /^Already met a colleague at an ICP company \(active\): \d+ pushes today, from \d+ prospects holding its signals$/m,
    );
    const unknown = await cli('workflows', 'create', '--from-template', 'nope', ...owner).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('--from-template is one of') });
  }, 180_000);
});
