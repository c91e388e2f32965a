import fs from 'node:fs';
import http from 'node:http';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createEventRecorder } from './events/record.ts';
import { actionsRoutes } from './features/actions/actions.routes.ts';
import { hubspotRoutes } from './features/integrations/hubspot.routes.ts';
import { chooseHubspotLists } from './features/integrations/hubspot.service.ts';
import { integrationsRoutes } from './features/integrations/integrations.routes.ts';
import { slackRoutes } from './features/integrations/slack.routes.ts';
import { introsRoutes } from './features/intros/intros.routes.ts';
import { accountsRoutes } from './features/lists/accounts/accounts.routes.ts';
import { clientsRoutes } from './features/lists/clients/clients.routes.ts';
import { crmClientsRoutes } from './features/lists/crm-clients/crm-clients.routes.ts';
import { importsRoutes } from './features/lists/imports/imports.routes.ts';
import { networkRoutes } from './features/network/network.routes.ts';
import { createNetworkIndex } from './features/network/network-index/index.ts';
import { publicRoutes } from './features/public/public.routes.ts';
import { googleRoutes } from './features/sources/google/google.routes.ts';
import { googleAccountDeps } from './features/sources/google/google-deps.ts';
import { linkedinRoutes } from './features/sources/linkedin/linkedin.routes.ts';
import { targetingRoutes } from './features/targeting/targeting.routes.ts';
import { invitationsRoutes } from './features/team/invitations.routes.ts';
import { type TrackLimits, trackPreflightRoutes, trackRoutes } from './features/tracking/track.routes.ts';
import { trackingSettingsRoutes } from './features/tracking/tracking.routes.ts';
import { visitLinks } from './features/tracking/visit-link.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { workflowsRoutes } from './features/workflows/workflows.routes.ts';
import { workspaceRoutes } from './features/workspace/workspace.routes.ts';
import { IDP_PATH, type IdentityProvider } from './idp/provider.ts';
import { hubspotAccountDeps } from './integrations/hubspot/hubspot-account.ts';
import { createSlackClient } from './integrations/slack/slack-client.ts';
import type { JobQueue } from './jobs/queue.ts';
import { loggerOptions, QuietRequestLogs } from './lib/logger.ts';
import { createSealer } from './lib/sealing.ts';
import { createStateSigner } from './lib/signed-state.ts';
import { auth, type TokenVerifier } from './plugins/auth.ts';
import { compression } from './plugins/compression.ts';
import { assertRouteHasContract } from './plugins/contract-route.ts';
import { errors } from './plugins/errors.ts';
import { webApp } from './plugins/web-app.ts';

const OPENAPI_DOCUMENT = new URL('../../../docs/openapi.json', import.meta.url);

export type AppDeps = {
  config: Config;
  database: Database;
  verifyToken: TokenVerifier;
  /** The built-in identity provider, served under /idp in local mode. */
  idp?: IdentityProvider | null;
  /** Seals OAuth tokens at rest and signs OAuth state (32 bytes). */
  encryptionKey: Buffer;
  jobs: JobQueue;
  /** The built web app to serve; absent in API-only tests. */
  webDist?: string | null;
  /** Website tracking's rate limits, where not the product's (the benchmark lifts them). */
  trackingLimits?: Partial<TrackLimits>;
};

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { idp } = deps;
  const app = Fastify({
    logger: loggerOptions(deps.config),
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
  // Before the routes: it applies to those registered after it.
  await app.register(compression);
  await app.register(multipart);
  await app.register(auth, {
    verifyToken: deps.verifyToken,
    database: deps.database,
    emailClaim: deps.config.oidc.emailClaim,
  });

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
      await api.register(usersRoutes, { ...domainRules, events: events.events, jobs: deps.jobs });
      const hubspot = {
        ...hubspotAccountDeps(deps.config, deps.database, deps.encryptionKey),
        jobs: deps.jobs,
        states: createStateSigner(deps.encryptionKey, 'hubspot-oauth'),
        publicUrl: deps.config.publicUrl,
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
      await api.register(invitationsRoutes, { database: deps.database, ...events });
      await api.register(linkedinRoutes, { database: deps.database, jobs: deps.jobs });
      const networkIndex = createNetworkIndex(deps.database, {
        onError: (error) => app.log.warn({ err: error }, 'network index: a copy failed to refresh'),
      });
      // A copy being built holds a pooled connection: closing waits for it.
      app.addHook('onClose', () => networkIndex.settled());
      await api.register(networkRoutes, { database: deps.database, networkIndex });
      const lists = { database: deps.database, jobs: deps.jobs, events: events.events };
      await api.register(importsRoutes, lists);
      await api.register(accountsRoutes, lists);
      await api.register(clientsRoutes, lists);
      await api.register(crmClientsRoutes, lists);
      await api.register(actionsRoutes, { database: deps.database, ...events });
      await api.register(introsRoutes, {
        database: deps.database,
        visitLinks: visitLinks(deps.encryptionKey),
        ...events,
      });
      await api.register(workflowsRoutes, { database: deps.database });
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
        states: createStateSigner(deps.encryptionKey, 'slack-oauth'),
        publicUrl: deps.config.publicUrl,
      });
      await api.register(googleRoutes, {
        ...googleAccountDeps(deps.config, deps.database, deps.encryptionKey),
        states: createStateSigner(deps.encryptionKey, 'google-oauth'),
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
