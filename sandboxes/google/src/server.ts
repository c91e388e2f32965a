/**
 * The sandbox's own server. Everything is at its root, as Google serves it: the clients build each API
 * URL as `new URL('/gmail/v1/...', rootUrl)`, which drops any path in `rootUrl`, so the APIs can only
 * be reached at the root of an origin. The OAuth endpoints, the pages (consent, sent mail) and the
 * test controls (`/_control/*`) are beside them on the same server.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { registerCalendarRoutes, registerPeopleRoutes } from './calendar-people.routes.ts';
import { registerControlRoutes } from './controls.routes.ts';
import { registerGmailRoutes } from './gmail.routes.ts';
import { installParsersAndErrors } from './http.ts';
import { registerOAuthRoutes } from './oauth.routes.ts';
import { indexPage, sentMailPage } from './pages.ts';
import { asQuery, stringParam } from './params.ts';
import { createGoogleSandbox, type GoogleSandbox, type GoogleSandboxOptions } from './sandbox.ts';

/** What to give the official clients, for a sandbox served at `sandboxUrl`. */
export function googleSandboxEndpoints(sandboxUrl: string) {
  const base = sandboxUrl.replace(/\/+$/, '');
  return {
    /** `new OAuth2Client({ clientId, clientSecret, redirectUri, endpoints })` */
    endpoints: {
      oauth2AuthBaseUrl: `${base}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${base}/token`,
      oauth2RevokeUrl: `${base}/revoke`,
      tokenInfoUrl: `${base}/tokeninfo`,
      oauth2FederatedSignonPemCertsUrl: `${base}/oauth2/v1/certs`,
      oauth2FederatedSignonJwkCertsUrl: `${base}/oauth2/v3/certs`,
    },
    /** `gmail({ version: 'v1', auth, rootUrl })` (and people, calendar): the origin only. */
    rootUrl: `${new URL(base).origin}/`,
  };
}

function registerPages(app: FastifyInstance, sandbox: GoogleSandbox) {
  app.get('/mail', async (request, reply) => {
    const to = stringParam(asQuery(request.query), 'to');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(sentMailPage(sandbox.sentMail({ to }), to));
  });
  app.get('/mail.json', async (request, reply) => {
    const to = stringParam(asQuery(request.query), 'to');
    return reply.header('cache-control', 'no-store').send({ messages: sandbox.sentMail({ to }) });
  });
  app.get('/', async (_request, reply) => {
    const { endpoints, rootUrl } = googleSandboxEndpoints(sandbox.publicUrl);
    return reply.type('text/html; charset=utf-8').send(
      indexPage(
        {
          'OAuth2Client endpoints.oauth2AuthBaseUrl': endpoints.oauth2AuthBaseUrl,
          'OAuth2Client endpoints.oauth2TokenUrl': endpoints.oauth2TokenUrl,
          'OAuth2Client endpoints.oauth2RevokeUrl': endpoints.oauth2RevokeUrl,
          'OAuth2Client endpoints.tokenInfoUrl': endpoints.tokenInfoUrl,
          'Client rootUrl (gmail, calendar, people)': rootUrl,
          'Sent mail (JSON)': `${sandbox.publicUrl}/mail.json`,
        },
        '/mail',
      ),
    );
  });
}

/** The whole sandbox on a fresh Fastify instance, not listening yet (tests can `inject`). */
export function buildGoogleSandboxServer(sandbox: GoogleSandbox, options: { logger?: boolean } = {}): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false });
  installParsersAndErrors(app);
  registerOAuthRoutes(app, sandbox);
  registerGmailRoutes(app, sandbox);
  registerCalendarRoutes(app, sandbox);
  registerPeopleRoutes(app, sandbox);
  registerControlRoutes(app, sandbox);
  registerPages(app, sandbox);
  return app;
}

export type RunningGoogleSandbox = {
  sandbox: GoogleSandbox;
  /** Where the sandbox is reached, e.g. `http://127.0.0.1:PORT`: the base of its OAuth endpoints and pages. */
  url: string;
  /** For the clients' `rootUrl`: `http://127.0.0.1:PORT/`. */
  rootUrl: string;
  endpoints: ReturnType<typeof googleSandboxEndpoints>['endpoints'];
  close(): Promise<void>;
};

/**
 * The sandbox listening on its own port (0: any free one). Without `publicUrl` it is reached at the
 * address it listens on.
 */
export async function listenGoogleSandbox(
  options: Omit<GoogleSandboxOptions, 'publicUrl'> & {
    host?: string;
    port?: number;
    publicUrl?: string;
    sandbox?: GoogleSandbox;
    logger?: boolean;
  } = {},
): Promise<RunningGoogleSandbox> {
  const { host = '127.0.0.1', port = 0, publicUrl, sandbox: given, logger, ...sandboxOptions } = options;
  const sandbox = given ?? createGoogleSandbox({ ...sandboxOptions, publicUrl: publicUrl ?? `http://${host}:${port}` });
  const app = buildGoogleSandboxServer(sandbox, { logger });
  await app.listen({ host, port });
  if (!publicUrl) {
    const address = app.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    sandbox.setPublicUrl(`http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`);
  }
  const { endpoints, rootUrl } = googleSandboxEndpoints(sandbox.publicUrl);
  return { sandbox, url: sandbox.publicUrl, rootUrl, endpoints, close: () => app.close() };
}
