import { describe, expect, it } from 'vitest';
import { loadConfig, processRole } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with no configuration', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.oidc).toMatchObject({ builtIn: true, issuer: 'http://localhost:3000/idp', audience: 'backend' });
    expect(config.dataDir.endsWith('.data')).toBe(true);
  });

  it('switches to an external identity provider and database by configuration', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://app.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/warmpath',
      OIDC_ISSUER: 'https://tenant.eu.auth0.com/',
      OIDC_CLIENT_ID: 'abc',
      WORKSPACE_DOMAIN_ALLOWLIST: ' Acme.com, ,partner.io',
    });
    expect(config.publicUrl).toBe('https://app.example.com');
    expect(config.oidc).toMatchObject({ builtIn: false, issuer: 'https://tenant.eu.auth0.com', clientId: 'abc' });
    expect(config.workspaceDomainAllowlist).toEqual(['acme.com', 'partner.io']);
  });

  it('talks to the Slack sandbox unless both Slack credentials are set', () => {
    expect(loadConfig({ PORT: '4000' }).slack).toEqual({
      real: false,
      available: true,
      clientId: 'warmpath-sandbox-client',
      clientSecret: 'warmpath-sandbox-secret',
      apiUrl: 'http://localhost:4002/api/',
      authorizeUrl: 'http://localhost:4002/oauth/v2/authorize',
      sandboxPort: 4002,
    });
    expect(loadConfig({ SLACK_SANDBOX_URL: 'http://127.0.0.1:5555/', SLACK_CLIENT_ID: 'only-id' }).slack).toMatchObject(
      {
        real: false,
        apiUrl: 'http://127.0.0.1:5555/api/',
        sandboxPort: null,
      },
    );
    expect(loadConfig({ SLACK_CLIENT_ID: '123.456', SLACK_CLIENT_SECRET: 's3cret' }).slack).toEqual({
      real: true,
      available: true,
      clientId: '123.456',
      clientSecret: 's3cret',
      apiUrl: 'https://slack.com/api/',
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
      sandboxPort: null,
    });
  });

  it('logs text for a person in local mode, JSON in production, as LOG_FORMAT may override', () => {
    expect(loadConfig({}).logFormat).toBe('text');
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/warmpath' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'text' }).logFormat).toBe('text');
  });

  it('refuses invalid values with a readable message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RATE_LIMIT_SIGN_IN_PER_USER: 'ten' })).toThrow(
      /<requests>\/<seconds>[\s\S]*RATE_LIMIT_SIGN_IN_PER_USER/,
    );
  });

  it('is in local mode unless an external identity provider is configured, or LOCAL_MODE says otherwise', () => {
    expect(loadConfig({}).localMode).toBe(true);
    const external = loadConfig({ OIDC_ISSUER: 'https://tenant.eu.auth0.com/' });
    expect(external.localMode).toBe(false);
    // Outside local mode no sandbox is started, and a service without credentials is off.
    expect([external.google.sandboxPort, external.slack.sandboxPort, external.hubspot.sandboxPort]).toEqual([
      null,
      null,
      null,
    ]);
    expect(external.slack.available).toBe(false);
    expect(external.hubspot.available).toBe(false);
    expect(loadConfig({ LOCAL_MODE: 'false' }).localMode).toBe(false);
    expect(loadConfig({ OIDC_ISSUER: 'https://tenant.eu.auth0.com/', LOCAL_MODE: 'true' }).localMode).toBe(true);
  });

  it('reads the rate limits as requests per seconds, with documented defaults', () => {
    const { rateLimits } = loadConfig({ RATE_LIMIT_UPLOAD_PER_USER: '3/60' });
    expect(rateLimits.uploadPerUser).toEqual({ burst: 3, perSecond: 0.05 });
    expect(rateLimits.signInPerUser).toEqual({ burst: 10, perSecond: 10 / 60 });
  });

  it('trusts no proxy unless told which', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).https).toBe(true);
    expect(loadConfig({}).https).toBe(false);
  });
});

describe('processRole', () => {
  it('reads --role api|worker|all, in either spelling, and defaults to all', () => {
    expect(processRole([], {})).toBe('all');
    expect(processRole(['--role', 'api'], {})).toBe('api');
    expect(processRole(['--role=worker'], {})).toBe('worker');
    expect(processRole([], { WARMPATH_ROLE: 'worker' })).toBe('worker');
    expect(() => processRole(['--role', 'apis'], {})).toThrow(/--role apis/);
  });
});
