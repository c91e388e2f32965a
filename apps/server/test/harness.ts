import { randomBytes, randomUUID } from 'node:crypto';
import { listenGoogleSandbox } from '@warmpath/sandbox-google';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import type { Role, TMe } from '@warmpath/shared';
import { and, eq, lte, sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { deliveries } from '../src/db/schema/index.ts';
import { type DeliveryDeps, deliverEvent } from '../src/events/deliver.ts';
import { deliveryDeps as deliveryDepsFor } from '../src/events/delivery-deps.ts';
import { createEventRecorder } from '../src/events/record.ts';
import { mergeHandedOverImport } from '../src/features/lists/imports/imports.service.ts';
import { saveGoogleConnection } from '../src/features/sources/google/google.repo.ts';
import { insertUser } from '../src/features/users/users.repo.ts';
import { createIdentityProvider, mintAccessToken } from '../src/idp/provider.ts';
import { loadIdpSecrets, publicJwks } from '../src/idp/secrets.ts';
import { type DeliveryRecovery, startJobQueue } from '../src/jobs/queue.ts';
import type { RequestsFirst } from '../src/jobs/requests-first.ts';
import { createSealer } from '../src/lib/sealing.ts';
import { createTokenVerifier } from '../src/plugins/auth.ts';
import { listenHubSpotSandbox, submitHubspotConsent } from './hubspot-sandbox.ts';
import { listenSlackSandbox, submitConsent } from './slack-sandbox.ts';

export const ALLOWLISTED_DOMAIN = 'partner-allowed.test';

/** The Google sandbox's consent form, approved as `email`: tests under src reach the sandbox through here. */
export const approveGoogleConsent = approveConsent;

/** The whole API on the test database, through `app.inject`, with the built-in provider's keys. */
export async function createTestContext({
  deliveryRecovery,
  requestsFirst,
  mergeImports = true,
}: {
  deliveryRecovery?: DeliveryRecovery;
  requestsFirst?: RequestsFirst;
  /**
   * Whether this process merges the imports it receives, as a worker does (`--role all`); without, an
   * upload waits for a worker of the context's queues (`--role api`).
   */
  mergeImports?: boolean;
} = {}) {
  // Google is the built-in sandbox, on its own port, driven through the official clients.
  const google = await listenGoogleSandbox();
  const slack = await listenSlackSandbox({ port: 0 });
  const hubspot = await listenHubSpotSandbox();
  const configEnv = {
    GOOGLE_SANDBOX_URL: google.url,
    SLACK_SANDBOX_URL: slack.url,
    HUBSPOT_SANDBOX_URL: hubspot.url,
    // The sandbox has no limit of its own: tests go as fast as it answers.
    HUBSPOT_CALLS_PER_SECOND: '1000',
    PUBLIC_URL: 'http://localhost:3999',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WORKSPACE_DOMAIN_ALLOWLIST: ALLOWLISTED_DOMAIN,
    // Webhook receivers in tests listen on loopback.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const config = loadConfig(configEnv);
  const database = createDatabase(inject('databaseUrl'), { max: 4 });
  const jobsSchema = `pgboss_test_${randomBytes(4).toString('hex')}`;
  const jobs = await startJobQueue(inject('databaseUrl'), () => {}, {
    schema: jobsSchema,
    recovery: deliveryRecovery,
  });
  const secrets = await loadIdpSecrets(database.db);
  const encryptionKey = randomBytes(32);
  const app = await buildApp({
    config,
    database,
    encryptionKey,
    jobs,
    requestsFirst,
    verifyToken: createTokenVerifier({
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      localKeys: publicJwks(secrets),
    }),
  });
  if (mergeImports) {
    const imports = { database, jobs, events: createEventRecorder(jobs), pacer: requestsFirst?.pacer };
    await jobs.workImportMerges(async (job, attempt) => {
      await mergeHandedOverImport(imports, job, attempt);
    });
  }
  const tokenFor = (email: string, name = 'Test Person') => mintAccessToken(config, database.db, { email, name });

  return {
    app,
    config,
    database,
    secrets,
    tokenFor,
    /** A company domain nobody has used yet. */
    uniqueDomain: () => `acme-${randomUUID().slice(0, 8)}.test`,
    /** Signs up an admin with a new workspace, as the sign-up screens do. */
    async registerAdmin(domain = `acme-${randomUUID().slice(0, 8)}.test`) {
      const email = `admin@${domain}`;
      const token = await tokenFor(email, 'Ada Admin');
      const response = await app.inject({
        method: 'POST',
        url: '/api/users/command/create-workspace-admin',
        headers: { authorization: `Bearer ${token}` },
        payload: registration(token, { email, workspaceDomains: [domain] }),
      });
      if (response.statusCode !== 201) throw new Error(`registration failed: ${response.body}`);
      return { token, email, domain, me: response.json<TMe>() };
    },
    /** Adds a user with a role to a workspace directly (the invitation flow is tested on its own). */
    async addUser(workspaceId: string, role: Role, domain: string) {
      const email = `${role}-${randomUUID().slice(0, 6)}@${domain}`;
      const token = await tokenFor(email);
      const subject = subjectOf(token);
      await database.inWorkspace(workspaceId, (tx) =>
        insertUser(tx, { workspaceId, idpSubject: subject, firstName: 'Test', lastName: role, email, role }),
      );
      return { token, email };
    },
    encryptionKey,
    jobs,
    /** This context's pg-boss schema and configuration: a worker in another process joins its queues. */
    jobsSchema,
    configEnv,
    /**
     * Connects a member's Google account the way a browser does: our consent URL, the sandbox's
     * consent form (Allow), then our callback with the code.
     */
    async connectGoogle(token: string, email: string) {
      const start = await app.inject({
        method: 'POST',
        url: '/api/google/authenticate?redirectUrl=%2Fnetwork',
        headers: { authorization: `Bearer ${token}` },
      });
      const callback = await approveConsent(start.json<{ url: string }>().url, email);
      const back = await app.inject({
        url: `${callback.pathname}${callback.search}`,
        headers: { cookie: nonceCookie(start) },
      });
      if (back.statusCode !== 302) throw new Error(`Google callback failed: ${back.body}`);
      return back.headers.location as string;
    },
    /** Records a Google connection with placeholder tokens: enough to queue e-mail, not to send it. */
    async recordGoogleConnection(workspaceId: string, userId: string, email: string) {
      const sealer = createSealer(encryptionKey);
      await database.inWorkspace(workspaceId, (tx) =>
        saveGoogleConnection(tx, workspaceId, userId, {
          sealedTokens: sealer.seal(JSON.stringify({ access_token: 'test', refresh_token: 'test' })),
          settings: { email, reconnectRequired: false },
        }),
      );
    },
    google: google.sandbox,
    slack,
    /** Connects Slack as an admin does: our connect call, Slack's install screen (a channel, Allow), our callback. */
    async connectSlack(token: string, channel = '#sales') {
      const start = await app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-slack?redirectUrl=%2Fadmin%2Fintegrations',
        headers: { authorization: `Bearer ${token}` },
      });
      const callback = await submitConsent(slack, start.json<{ url: string }>().url, { channel });
      const back = await app.inject({
        url: `${callback.pathname}${callback.search}`,
        headers: { cookie: nonceCookie(start) },
      });
      if (back.statusCode !== 302) throw new Error(`Slack callback failed: ${back.body}`);
      return back.headers.location as string;
    },
    hubspot,
    /**
     * Connects HubSpot as an admin does: our connect call, HubSpot's connect screen (signed in as
     * `email`, Connect app), then the callback route's `POST /hubspot/integrate` with code and state.
     */
    async connectHubspot(token: string, email: string) {
      const start = await app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-hubspot',
        headers: { authorization: `Bearer ${token}` },
      });
      const callback = await submitHubspotConsent(hubspot, start.json<{ url: string }>().url, { email });
      return app.inject({
        method: 'POST',
        url: '/api/hubspot/integrate',
        headers: { authorization: `Bearer ${token}`, cookie: nonceCookie(start) },
        payload: { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') },
      });
    },
    /**
     * Another app on this context's database, keys and sandboxes, with more configuration (`env`, as
     * the process environment would give it), a built web app to serve, or the built-in provider
     * mounted under /idp, or its own database (a request pool with limits): for tests of what the
     * configuration changes. The caller closes it (and the database it gave).
     */
    async appWith(
      options: {
        env?: Record<string, string>;
        webDist?: string;
        idp?: boolean;
        /** Receives the app's log records (JSON lines) instead of standard output. */
        logWrite?: (line: string) => void;
        /** The database the routes use (a pool with its own limits); the context's by default. */
        database?: Database;
        /** The database of the jobs and the lists' routes; the context's by default. */
        backgroundDatabase?: Database;
      } = {},
    ) {
      const custom = loadConfig({ ...configEnv, ...options.env });
      const idp = options.idp ? await createIdentityProvider(custom, database.db) : null;
      const other = await buildApp({
        config: custom,
        database: options.database ?? database,
        backgroundDatabase: options.backgroundDatabase ?? database,
        encryptionKey,
        jobs,
        idp,
        webDist: options.webDist ?? null,
        logWrite: options.logWrite,
        verifyToken: createTokenVerifier({
          issuer: custom.oidc.issuer,
          audience: custom.oidc.audience,
          localKeys: publicJwks(secrets),
        }),
      });
      return { app: other, config: custom };
    },
    close: async () => {
      await app.close();
      await google.close();
      await slack.close();
      await hubspot.close();
      await jobs.stop();
      await database.close();
    },
  };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/** What the delivery worker needs, as main.ts gives it, on a test context (webhooks may reach loopback). */
export function deliveryDeps(ctx: TestContext): DeliveryDeps {
  return deliveryDepsFor(ctx.config, ctx.database, ctx.encryptionKey, ctx.jobs);
}

/**
 * Makes the next attempt of a workspace's pending deliveries now, in this process, as a worker does
 * with their jobs (which stay queued, unworked): what tests use instead of waiting for pg-boss.
 * `dueOnly: false` also attempts those whose retry is scheduled later.
 */
export async function deliverPending(
  ctx: TestContext,
  workspaceId: string,
  { dueOnly = true, deps = deliveryDeps(ctx) }: { dueOnly?: boolean; deps?: DeliveryDeps } = {},
) {
  const pending = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx
      .select({ id: deliveries.id, attempts: deliveries.attempts })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.workspaceId, workspaceId),
          eq(deliveries.status, 'pending'),
          dueOnly ? lte(deliveries.nextAttemptAt, sql`now()`) : undefined,
        ),
      ),
  );
  for (const { id, attempts } of pending) await deliverEvent(deps, { workspaceId, deliveryId: id, attempt: attempts });
  return pending.length;
}

export function subjectOf(token: string): string {
  const [, payload = ''] = token.split('.');
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub;
}

export function registration(token: string, overrides: Record<string, unknown> = {}) {
  return {
    idpId: subjectOf(token),
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'admin@example.test',
    workspaceName: 'Acme',
    workspaceDomains: ['example.test'],
    allowDomainJoin: false,
    ...overrides,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The `name=value` an OAuth flow's start answer sets (its nonce cookie), as the browser that started
 * it sends it back to the callback: what the flows' browser binding checks.
 */
export function nonceCookie(start: { headers: Record<string, unknown> }): string {
  const header = start.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  if (typeof first !== 'string') throw new Error('the OAuth flow set no cookie');
  return first.split(';')[0] ?? '';
}
