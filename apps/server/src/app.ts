import fs from 'node:fs';
import http from 'node:http';
import { setTimeout } from 'node:timers/promises';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { integrationsApi, publicApi, sourcesApi } from '@warmpath/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { busyError, type Database } from './db/client.ts';
import { createEventRecorder } from './events/record.ts';
import { actionsRoutes } from './features/actions/actions.routes.ts';
import { alliesRoutes, allySharePublicRoutes } from './features/allies/allies.routes.ts';
import { auditRoutes } from './features/audit/audit.routes.ts';
import { demoRoutes } from './features/demo/demo.routes.ts';
import { hubspotRoutes } from './features/integrations/hubspot.routes.ts';
import { chooseHubspotLists } from './features/integrations/hubspot.service.ts';
import { integrationsRoutes } from './features/integrations/integrations.routes.ts';
import { slackRoutes } from './features/integrations/slack.routes.ts';
import { SLACK_CALLBACK_PATH } from './features/integrations/slack.service.ts';
import { introsRoutes } from './features/intros/intros.routes.ts';
import { accountsRoutes } from './features/lists/accounts/accounts.routes.ts';
import { clientsRoutes } from './features/lists/clients/clients.routes.ts';
import { crmClientsRoutes } from './features/lists/crm-clients/crm-clients.routes.ts';
import { importsRoutes } from './features/lists/imports/imports.routes.ts';
import { networkRoutes } from './features/network/network.routes.ts';
import { createNetworkIndex } from './features/network/network-index/index.ts';
import { peopleRightsRoutes } from './features/people-rights/people-rights.routes.ts';
import { publicRoutes } from './features/public/public.routes.ts';
import { googleRoutes } from './features/sources/google/google.routes.ts';
import { createGoogleClientFactory } from './features/sources/google/google-client.ts';
import { googleAccountDeps } from './features/sources/google/google-deps.ts';
import { linkedinRoutes } from './features/sources/linkedin/linkedin.routes.ts';
import { targetingRoutes } from './features/targeting/targeting.routes.ts';
import { invitationsRoutes } from './features/team/invitations.routes.ts';
import { type TrackLimits, trackPreflightRoutes, trackRoutes } from './features/tracking/track.routes.ts';
import { trackingSettingsRoutes } from './features/tracking/tracking.routes.ts';
import { visitLinks } from './features/tracking/visit-link.ts';
import { listWorkspaceIds } from './features/users/users.repo.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { workflowsRoutes } from './features/workflows/workflows.routes.ts';
import { workspaceRoutes } from './features/workspace/workspace.routes.ts';
import { IDP_PATH, type IdentityProvider } from './idp/provider.ts';
import { hubspotAccountDeps } from './integrations/hubspot/hubspot-account.ts';
import { createSlackClient } from './integrations/slack/slack-client.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { RequestsFirst } from './jobs/requests-first.ts';
import { loggerOptions, QuietRequestLogs } from './lib/logger.ts';
import { compileProxyTrust } from './lib/proxy-trust.ts';
import { createSealer } from './lib/sealing.ts';
import { createOAuthFlow } from './lib/signed-state.ts';
import { auth, type TokenVerifier } from './plugins/auth.ts';
import { compression } from './plugins/compression.ts';
import { assertRouteHasContract } from './plugins/contract-route.ts';
import { errors } from './plugins/errors.ts';
import { rateLimits } from './plugins/rate-limits.ts';
import { securityHeadersHook } from './plugins/security-headers.ts';
import { createSessionCache, MEMBERS_CHANNEL } from './plugins/session-cache.ts';
import { webApp } from './plugins/web-app.ts';

const OPENAPI_DOCUMENT = new URL('../../../docs/openapi.json', import.meta.url);
/** How often an API process looks for workspaces whose network copy has fallen behind their rows. */
const NETWORK_COPIES_CHECK_MS = 2_000;
/** How long a starting API process waits for its network copies before it takes traffic. */
const NETWORK_COPIES_WARM_WAIT_MS = 8_000;

export type AppDeps = {
  config: Config;
  /** The requests' database: its statement time-out and queue limit keep one route from holding the pool. */
  database: Database;
  /**
   * Work a request starts that runs long by design and may outlive it (an import's merge, seeding the
   * demo, building the network index): on the jobs' database, without the requests' time-out. The
   * request database when absent (tests).
   */
  backgroundDatabase?: Database;
  /**
   * Build the large workspaces' network copies before listening, and keep them current from then on
   * (`npm start`'s API processes); tests' apps build and catch them up on demand.
   */
  warmNetworkCopies?: boolean;
  verifyToken: TokenVerifier;
  /** The built-in identity provider, served under /idp in local mode. */
  idp?: IdentityProvider | null;
  /** Seals OAuth tokens at rest and signs OAuth state (32 bytes). */
  encryptionKey: Buffer;
  jobs: JobQueue;
  /** Paces the work a request starts that runs long by design (an import's merge); full speed when absent. */
  requestsFirst?: RequestsFirst;
  /** The built web app to serve; absent in API-only tests. */
  webDist?: string | null;
  /** Website tracking's rate limits, where not the product's (the benchmark lifts them). */
  trackingLimits?: Partial<TrackLimits>;
  /** Where log records go instead of standard output (tests read them). */
  logWrite?: (line: string) => void;
};

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { idp } = deps;
  const app = Fastify({
    logger: loggerOptions(deps.config, deps.logWrite),
    // Local mode's terminal gets no line per request below `debug` (lib/logger.ts).
    ...(deps.config.logFormat === 'text' ? { logController: new QuietRequestLogs() } : {}),
    // The identity provider is a Koa app: it gets its requests before Fastify parses them.
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (idp && (req.url === IDP_PATH || req.url?.startsWith(`${IDP_PATH}/`))) idp.handle(req, res);
        else handler(req, res);
      });
      // A CSV upload of up to 1 GB streams for many minutes: Node's default 5-minute limit on receiving
      // a request would cut it (Fastify's own default, no limit, applies only to servers it creates).
      server.requestTimeout = 0;
      return server;
    },
    bodyLimit: 1024 * 1024,
    // request.ip (the rate limits' address) and request.host believe the proxies TRUST_PROXY names only.
    trustProxy: deps.config.trustProxy === false ? false : compileProxyTrust(deps.config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The committed document, generated from the contracts (npm run openapi): the one CI checks.
  await app.register(swagger, {
    mode: 'static',
    specification: { document: JSON.parse(fs.readFileSync(OPENAPI_DOCUMENT, 'utf8')) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(errors);
  // Refused before any work, sign-in included: a request that would only queue behind a full pool.
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/') && deps.database.busy()) {
      throw busyError();
    }
  });
  await app.register(securityHeadersHook, { config: deps.config });
  // Before the routes: it applies to those registered after it.
  await app.register(compression);
  await app.register(multipart);
  // Before auth: an address refused for its bad tokens costs no verification.
  await app.register(rateLimits, { limits: deps.config.rateLimits });
  // The members this process verified, forgotten as soon as PostgreSQL notifies a change of theirs.
  const sessions = createSessionCache();
  const unlisten = await deps.database.listen(
    MEMBERS_CHANNEL,
    (payload) => {
      const [workspaceId = '', userId = ''] = payload.split(':');
      sessions.forgetMember(workspaceId, userId);
    },
    // Whatever was notified while the connection was down is unknown: nobody is trusted from memory.
    { onLost: sessions.forgetMembers, onReset: sessions.forgetMembers },
  );
  app.addHook('onClose', async () => unlisten());
  await app.register(auth, {
    verifyToken: deps.verifyToken,
    database: deps.database,
    emailClaim: deps.config.oidc.emailClaim,
    sessions,
  });

  // Every OAuth flow's state is signed and bound by a cookie to the browser that started it.
  const oauthFlow = (purpose: string, callbackPath: string) =>
    createOAuthFlow(deps.encryptionKey, { purpose, callbackPath, secure: deps.config.https });

  await app.register(
    async (api) => {
      api.addHook('onRoute', assertRouteHasContract);
      // One recorder for every feature: an event is recorded in the transaction of the change it tells.
      const events = { events: createEventRecorder(deps.jobs), publicUrl: deps.config.publicUrl };
      await api.register(publicRoutes, { config: deps.config, database: deps.database });
      await api.register(trackRoutes, {
        database: deps.database,
        encryptionKey: deps.encryptionKey,
        jobs: deps.jobs,
        limits: deps.trackingLimits,
      });
      const domainRules = { database: deps.database, workspaceDomainAllowlist: deps.config.workspaceDomainAllowlist };
      await api.register(usersRoutes, {
        ...domainRules,
        events: events.events,
        jobs: deps.jobs,
        memberChanged: sessions.forgetMember,
      });
      const hubspot = {
        ...hubspotAccountDeps(deps.config, deps.database, deps.encryptionKey),
        jobs: deps.jobs,
        flow: oauthFlow('hubspot-oauth', `/api${integrationsApi.integrateHubspot.path}`),
        publicUrl: deps.config.publicUrl,
        available: deps.config.hubspot.available,
      };
      await api.register(workspaceRoutes, {
        ...domainRules,
        chooseHubspotLists: (member, lists) => chooseHubspotLists(hubspot, member, lists),
      });
      await api.register(hubspotRoutes, hubspot);
      await api.register(trackingSettingsRoutes, {
        database: deps.database,
        jobs: deps.jobs,
        publicUrl: deps.config.publicUrl,
      });
      await api.register(targetingRoutes, { database: deps.database });
      await api.register(auditRoutes, { database: deps.database });
      // An erasure rolls the network up again at once: the background pool, without the request time-out.
      await api.register(peopleRightsRoutes, { database: deps.backgroundDatabase ?? deps.database });
      await api.register(invitationsRoutes, { database: deps.database, ...events });
      await api.register(linkedinRoutes, { database: deps.database, jobs: deps.jobs });
      const background = deps.backgroundDatabase ?? deps.database;
      const networkIndex = createNetworkIndex(background, {
        ...deps.config.networkCache,
        onError: (error) => app.log.warn({ err: error }, 'network index: a copy failed to refresh'),
        onRefresh: (refresh) => app.log.debug({ networkIndex: refresh }, 'network index: a copy refreshed'),
      });
      if (deps.warmNetworkCopies) {
        const stopFollowing = networkIndex.follow(NETWORK_COPIES_CHECK_MS);
        app.addHook('onClose', async () => stopFollowing());
      }
      // A copy being built holds a pooled connection: closing waits for it.
      app.addHook('onClose', () => networkIndex.settled());
      if (deps.warmNetworkCopies) {
        app.addHook('onReady', async () => {
          const started = performance.now();
          const warming = networkIndex
            .warm(await listWorkspaceIds(background))
            .then((built) => {
              if (built.length === 0) return;
              const mb = Math.round(built.reduce((sum, copy) => sum + copy.bytes, 0) / 2 ** 20);
              const seconds = ((performance.now() - started) / 1000).toFixed(1);
              app.log.info(`network copies: ${built.length} built on start (${mb} MB) in ${seconds} s`);
            })
            .catch((error: unknown) => app.log.warn({ err: error }, 'network copies: warming failed'));
          // Traffic waits for the copies a while, not for ever: Fastify gives up on a start whose hooks
          // take over its plugin time-out (10 s), and a 1M copy on a busy machine can take longer. What is
          // not built by then goes on in the background, PostgreSQL answering those requests meanwhile.
          await Promise.race([warming, setTimeout(NETWORK_COPIES_WARM_WAIT_MS, undefined, { ref: false })]);
        });
      }
      await api.register(networkRoutes, { database: deps.database, networkIndex });
      // The lists' uploads stream a whole file into one import (minutes for 1 GB): the background pool,
      // without the request pool's statement time-out.
      const lists = { database: background, jobs: deps.jobs, events: events.events, pacer: deps.requestsFirst?.pacer };
      await api.register(importsRoutes, lists);
      await api.register(accountsRoutes, lists);
      await api.register(clientsRoutes, lists);
      await api.register(crmClientsRoutes, lists);
      const allies = {
        database: background,
        events: events.events,
        encryptionKey: deps.encryptionKey,
        publicUrl: deps.config.publicUrl,
        google: createGoogleClientFactory(deps.config),
        flow: oauthFlow('ally-google-oauth', `/api${publicApi.finishAllyGoogleConnection.path}`),
      };
      await api.register(alliesRoutes, allies);
      await api.register(allySharePublicRoutes, allies);
      await api.register(actionsRoutes, { database: deps.database, ...events });
      await api.register(introsRoutes, {
        database: deps.database,
        visitLinks: visitLinks(deps.encryptionKey),
        ...events,
      });
      await api.register(workflowsRoutes, { database: deps.database });
      await api.register(demoRoutes, { database: background, log: (line) => app.log.debug(line) });
      await api.register(integrationsRoutes, {
        database: deps.database,
        sealer: createSealer(deps.encryptionKey),
        events: events.events,
        queue: deps.jobs,
        allowPrivateTargets: deps.config.webhookAllowPrivateTargets,
      });
      await api.register(slackRoutes, {
        database: deps.database,
        sealer: createSealer(deps.encryptionKey),
        slack: createSlackClient(deps.config.slack),
        flow: oauthFlow('slack-oauth', SLACK_CALLBACK_PATH),
        publicUrl: deps.config.publicUrl,
        available: deps.config.slack.available,
      });
      await api.register(googleRoutes, {
        ...googleAccountDeps(deps.config, deps.database, deps.encryptionKey),
        flow: oauthFlow('google-oauth', `/api${sourcesApi.finishGoogleConnection.path}`),
        publicUrl: deps.config.publicUrl,
        jobs: deps.jobs,
      });
    },
    { prefix: '/api' },
  );
  await app.register(trackPreflightRoutes, { prefix: '/api', database: deps.database });

  // Last: its not-found handler gives every other GET outside /api to the web app's router.
  await app.register(webApp, { root: deps.webDist ?? null });
  return app;
}
