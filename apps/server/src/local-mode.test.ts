import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from './config.ts';
import { assertLocalModeIsLocal, isLoopbackHost, localModeProblems } from './local-mode.ts';

const PRODUCTION = {
  OIDC_ISSUER: 'https://tenant.eu.auth0.com/',
  GOOGLE_CLIENT_ID: 'id',
  GOOGLE_CLIENT_SECRET: 'secret',
  PUBLIC_URL: 'https://app.example.com',
  HOST: '0.0.0.0',
};

describe('the startup check of local mode', () => {
  it("lets `npm start`'s embedded defaults start, and a production configuration", () => {
    expect(localModeProblems(loadConfig({}))).toEqual([]);
    expect(localModeProblems(loadConfig({ HOST: '::1', PUBLIC_URL: 'http://127.0.0.1:3000' }))).toEqual([]);
    expect(localModeProblems(loadConfig(PRODUCTION))).toEqual([]);
    // Slack and HubSpot may stay unconfigured outside local mode: they are off, not sandboxed.
    expect(loadConfig(PRODUCTION).slack.available).toBe(false);
  });

  it('refuses the built-in sign-in and the sandboxes on an address other machines reach', () => {
    expect(() => assertLocalModeIsLocal(loadConfig({ HOST: '0.0.0.0' }))).toThrow(
      /Warmpath cannot start[\s\S]*HOST=0\.0\.0\.0 is not a loopback address[\s\S]*HOST=127\.0\.0\.1/,
    );
    expect(localModeProblems(loadConfig({ HOST: '192.168.1.20' }))).toHaveLength(1);
    // Behind a reverse proxy the socket is loopback, but the public address is not.
    expect(localModeProblems(loadConfig({ PUBLIC_URL: 'http://warmpath.example.com' }))[0]).toMatch(
      /PUBLIC_URL=http:\/\/warmpath\.example\.com names another host/,
    );
  });

  it('refuses local mode beside an external identity provider, and the built-in provider outside local mode', () => {
    expect(localModeProblems(loadConfig({ ...PRODUCTION, LOCAL_MODE: 'true' })).join('\n')).toMatch(
      /LOCAL_MODE=true cannot be combined with an external identity provider/,
    );
    const builtInOutside = localModeProblems(loadConfig({ LOCAL_MODE: 'false' }));
    expect(builtInOutside.join('\n')).toMatch(/LOCAL_MODE=false needs an external identity provider: set OIDC_ISSUER/);
    expect(builtInOutside.join('\n')).toMatch(
      /Google must be configured: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/,
    );
  });

  it('refuses an external provider without Google credentials: the Google sandbox is not served beside it', () => {
    const { GOOGLE_CLIENT_ID: _id, GOOGLE_CLIENT_SECRET: _secret, ...withoutGoogle } = PRODUCTION;
    expect(localModeProblems(loadConfig(withoutGoogle))).toEqual([
      'Outside local mode Google must be configured: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (the Google sandbox is served in local mode only).',
    ]);
  });

  it('asks for TRUST_PROXY when the built-in provider is served over https', () => {
    const https = { PUBLIC_URL: 'https://localhost:8443' };
    expect(localModeProblems(loadConfig(https))[0]).toMatch(/set TRUST_PROXY/);
    expect(localModeProblems(loadConfig({ ...https, TRUST_PROXY: 'loopback' }))).toEqual([]);
  });

  it('knows loopback addresses and names', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'app.localhost']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', 'localhost.example.com']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  // Loading the server's code with tsx takes seconds on a busy machine.
  it('makes the server exit non-zero with the message, before it starts anything', { timeout: 60_000 }, () => {
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      // Nothing else from this environment: no database, and a data directory that is never created.
      env: { PATH: process.env.PATH, HOST: '0.0.0.0', DATA_DIR: path.join(os.tmpdir(), 'warmpath-never-created') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('Warmpath cannot start with this configuration:');
    expect(started.stderr).toContain('HOST=0.0.0.0 is not a loopback address');
    expect(started.stderr).not.toMatch(/\n\s+at /);
  });
});
