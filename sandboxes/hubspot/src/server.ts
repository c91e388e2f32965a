/**
 * The HTTP face of the HubSpot sandbox, everything at its root (HubSpot splits it between
 * app.hubspot.com and api.hubapi.com):
 *
 * - `GET /oauth/authorize` the connect screen (e-mail, account, scopes, Connect app or Cancel),
 *   `POST /oauth/authorize` its form, redirecting back with `code` or `error=access_denied`;
 * - `/oauth/v1/token`, `/oauth/v1/access-tokens/:token`, `/oauth/v1/refresh-tokens/:token`;
 * - `/crm/v3/...` lists, memberships and objects (Bearer token), errors and 429s as HubSpot answers them;
 * - `GET /notes` the notes written, per account, newest first;
 * - `/_control/*` the tests' levers (JSON).
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  batchRead,
  createObject,
  fetchList,
  getObject,
  isRecord,
  type Json,
  listMemberships,
  listOf,
  objectTypeOf,
  searchLists,
  searchObjects,
} from './crm.ts';
import { crmError, HubSpotError, validationError } from './errors.ts';
import { consentPage, errorPage, indexPage, notesPage } from './pages.ts';
import type { ObjectType, Portal } from './portal.ts';
import { type Grant, HubSpotSandbox, type HubSpotSandboxOptions, SCOPE_DESCRIPTIONS } from './state.ts';

export type RunningHubSpotSandbox = {
  /** The sandbox's base URL, e.g. `http://127.0.0.1:40123`: the `basePath` of `new Client({ basePath })`. */
  url: string;
  /** HubSpot's `/oauth/authorize` on the sandbox. */
  authorizeUrl: string;
  state: HubSpotSandbox;
  close: () => Promise<void>;
};

function formParser(
  _request: FastifyRequest,
  body: string,
  done: (error: Error | null, value?: Record<string, string>) => void,
) {
  done(null, Object.fromEntries(new URLSearchParams(body)));
}

function stringFields(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(value)) for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function registerOAuth(app: FastifyInstance, sandbox: HubSpotSandbox) {
  const page = (params: Record<string, string>, email: string, error?: string) => {
    const request = sandbox.checkAuthorizeRequest(params);
    if ('problem' in request) return { status: 400, body: errorPage(request.problem) };
    const kept: Record<string, string> = {};
    for (const key of ['client_id', 'scope', 'optional_scope', 'redirect_uri', 'state']) {
      const value = params[key];
      if (value !== undefined) kept[key] = value;
    }
    const scopes = [...new Set([...request.scopes, ...request.optionalScopes])].map((scope) => ({
      scope,
      description: SCOPE_DESCRIPTIONS[scope] ?? scope,
    }));
    return {
      status: error ? 400 : 200,
      body: consentPage({
        action: '/oauth/authorize',
        clientId: request.clientId,
        params: kept,
        scopes,
        email,
        portal: EMAIL.test(email) ? sandbox.portalFor(email) : null,
        error,
      }),
    };
  };

  app.get('/oauth/authorize', async (request, reply) => {
    const shown = page(stringFields(request.query), '');
    return html(reply, shown.status, shown.body);
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const params = stringFields(request.body);
    const valid = sandbox.checkAuthorizeRequest(params);
    if ('problem' in valid) return html(reply, 400, errorPage(valid.problem));
    const back = new URL(valid.redirectUri);
    if (params.decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const email = (params.email ?? '').trim().toLowerCase();
      if (!EMAIL.test(email)) {
        const shown = page(params, email, 'Enter a valid email address.');
        return html(reply, shown.status, shown.body);
      }
      back.searchParams.set('code', sandbox.issueCode(valid, email));
    }
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    return reply.redirect(back.toString(), 302);
  });

  app.post('/oauth/v1/token', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return sandbox.token(stringFields(request.body));
  });

  app.get<{ Params: { token: string } }>('/oauth/v1/access-tokens/:token', async (request) =>
    sandbox.accessTokenInfo(request.params.token),
  );
  app.get<{ Params: { token: string } }>('/oauth/v1/refresh-tokens/:token', async (request) =>
    sandbox.refreshTokenInfo(request.params.token),
  );
  app.delete<{ Params: { token: string } }>('/oauth/v1/refresh-tokens/:token', async (request, reply) => {
    if (!sandbox.revokeRefreshToken(request.params.token)) {
      throw crmError(404, 'OBJECT_NOT_FOUND', 'Refresh token not found');
    }
    return reply.code(204).send();
  });
}

/** The scopes HubSpot accepts for reading and writing each object type (notes ride on the records they are on). */
const SCOPES: Record<ObjectType, { read: string[]; write: string[] }> = {
  companies: { read: ['crm.objects.companies.read'], write: ['crm.objects.companies.write'] },
  contacts: { read: ['crm.objects.contacts.read'], write: ['crm.objects.contacts.write'] },
  notes: {
    read: ['crm.objects.contacts.read', 'crm.objects.companies.read', 'crm.objects.deals.read'],
    write: ['crm.objects.contacts.write', 'crm.objects.companies.write', 'crm.objects.deals.write'],
  },
};
const LIST_SCOPES = ['crm.lists.read'];

type CrmCall = { grant: Grant; portal: Portal; now: number };

function registerCrm(app: FastifyInstance, sandbox: HubSpotSandbox) {
  /** Every CRM call: the token (401), the rate limit asked for (429), then the scopes (403). */
  const call = (request: FastifyRequest, scopes: readonly string[]): CrmCall => {
    const { grant, portal } = sandbox.authenticate(request.headers.authorization);
    sandbox.checkRateLimit();
    sandbox.requireScope(grant, scopes);
    return { grant, portal, now: sandbox.clock() };
  };
  type ListParams = { Params: { listId: string } };
  type ObjectParams = { Params: { objectType: string; objectId: string } };

  app.post('/crm/v3/lists/search', async (request) => searchLists(call(request, LIST_SCOPES).portal, request.body));
  app.get<ListParams>('/crm/v3/lists/:listId', async (request) =>
    fetchList(call(request, LIST_SCOPES).portal, request.params.listId),
  );
  app.get<ListParams>('/crm/v3/lists/:listId/memberships', async (request) => {
    const { portal } = call(request, LIST_SCOPES);
    const self = `${sandbox.publicUrl}/crm/v3/lists/${encodeURIComponent(request.params.listId)}/memberships`;
    return listMemberships(portal, request.params.listId, isRecord(request.query) ? request.query : {}, self);
  });

  app.post<ObjectParams>('/crm/v3/objects/:objectType/batch/read', async (request, reply) => {
    const type = objectTypeOf(request.params.objectType);
    const { portal, now } = call(request, SCOPES[type].read);
    const answer = batchRead(portal, type, request.body, now);
    return reply.code(answer.statusCode).send(answer.body);
  });
  app.post<ObjectParams>('/crm/v3/objects/:objectType/search', async (request) => {
    const type = objectTypeOf(request.params.objectType);
    return searchObjects(call(request, SCOPES[type].read).portal, type, request.body);
  });
  app.get<ObjectParams>('/crm/v3/objects/:objectType/:objectId', async (request) => {
    const type = objectTypeOf(request.params.objectType);
    const query: Json = isRecord(request.query) ? request.query : {};
    return getObject(call(request, SCOPES[type].read).portal, type, request.params.objectId, query);
  });
  app.post<ObjectParams>('/crm/v3/objects/:objectType', async (request, reply) => {
    const type = objectTypeOf(request.params.objectType);
    const { portal } = call(request, SCOPES[type].write);
    return reply.code(201).send(createObject(portal, type, request.body));
  });
}

function registerPages(app: FastifyInstance, sandbox: HubSpotSandbox) {
  app.get('/', async (_request, reply) => html(reply, 200, indexPage(sandbox.publicUrl, sandbox.knownPortals())));
  app.get('/notes', async (_request, reply) =>
    html(reply, 200, notesPage(sandbox.knownPortals().map((portal) => ({ portal, notes: sandbox.notes(portal) })))),
  );
}

function portalJson(portal: Portal): Json {
  return {
    hubId: portal.hubId,
    name: portal.name,
    domain: portal.domain,
    companies: portal.objects.companies.size,
    contacts: portal.objects.contacts.size,
    notes: portal.objects.notes.size,
    lists: portal.lists.map((list) => ({
      listId: String(list.listId),
      name: list.name,
      objectTypeId: list.objectTypeId,
      processingType: list.processingType,
      size: list.members.size,
    })),
  };
}

function registerControls(app: FastifyInstance, sandbox: HubSpotSandbox) {
  const bad = (message: string) => new HubSpotError(400, { error: message });
  const body = (request: FastifyRequest) => (isRecord(request.body) ? request.body : {});

  /** `{ count = 1, retryAfter = 1 }`: the next `count` CRM calls answer 429 with `Retry-After`. */
  app.post('/_control/rate-limit', async (request) => {
    const { count: rawCount, retryAfter: rawRetry } = body(request);
    const count = rawCount === undefined ? 1 : Number(rawCount);
    const retryAfter = rawRetry === undefined ? 1 : Number(rawRetry);
    if (!Number.isInteger(count) || count < 1) throw bad('count must be a positive integer');
    if (!Number.isInteger(retryAfter) || retryAfter < 0) throw bad('retryAfter must be whole seconds');
    sandbox.rateLimit(count, retryAfter);
    return { ok: true };
  });

  /** `{ refreshToken }`: the user uninstalled the app. */
  app.post('/_control/revoke', async (request, reply) => {
    const { refreshToken } = body(request);
    if (typeof refreshToken !== 'string') throw bad('refreshToken is required');
    if (!sandbox.revokeRefreshToken(refreshToken)) return reply.code(404).send({ error: 'unknown refresh token' });
    return { ok: true };
  });

  /** `{ email? }`: access tokens (all, or one user's) expire now. */
  app.post('/_control/expire-access-tokens', async (request) => {
    const { email } = body(request);
    return { ok: true, expired: sandbox.expireAccessTokens(typeof email === 'string' ? email : undefined) };
  });

  /** `{ listId, add: [id], remove: [id], email? }`: records join or leave a list. */
  app.post('/_control/list-membership', async (request) => {
    const { listId, add = [], remove = [], addDomains = [], email } = body(request);
    if (typeof listId !== 'string' && typeof listId !== 'number') throw bad('listId is required');
    const ids = (value: unknown, field: string) => {
      if (!Array.isArray(value) || value.some((id) => !/^\d+$/.test(String(id)))) {
        throw bad(`${field} must be an array of record ids`);
      }
      return value.map(Number);
    };
    const added = ids(add, 'add');
    const removed = ids(remove, 'remove');
    const portals =
      typeof email === 'string'
        ? [sandbox.portalFor(email).ready()]
        : sandbox.knownPortals().filter((portal) => portal.listById(Number(listId)));
    if (portals.length !== 1) {
      throw bad(portals.length === 0 ? 'no account has that list' : 'several accounts have that list: give email');
    }
    const [portal] = portals as [Portal];
    const list = listOf(portal, String(listId));
    const store = list.objectTypeId === '0-2' ? portal.objects.companies : portal.objects.contacts;
    const unknown = added.filter((id) => !store.has(id));
    if (unknown.length > 0) throw bad(`no such records in the account: ${unknown.join(', ')}`);
    // Companies by domain, created when the account has none (a sales rep adding a company by hand).
    if (!Array.isArray(addDomains) || addDomains.some((domain) => typeof domain !== 'string'))
      throw bad('addDomains must be an array of domains');
    for (const domain of addDomains as string[]) {
      added.push(
        portal.companyIdByDomain(domain) ??
          portal.create('companies', { name: domain.split('.')[0] ?? domain, domain }, {}).id,
      );
    }
    portal.changeMembership(list, added, removed);
    return { ok: true, hubId: portal.hubId, listId: String(list.listId), size: list.members.size };
  });

  /** Every note written, oldest first. */
  app.get('/_control/notes', async () => ({ notes: sandbox.notes() }));

  /** `?email=`: the account that address connects (generated if need be), its lists and their sizes. */
  app.get('/_control/portal', async (request) => {
    const email = isRecord(request.query) && typeof request.query.email === 'string' ? request.query.email : '';
    if (!EMAIL.test(email)) throw bad('email is required');
    const portal = sandbox.portalFor(email);
    portal.signIn(email.trim().toLowerCase());
    return portalJson(portal.ready());
  });

  app.post('/_control/reset', async () => {
    sandbox.reset();
    return { ok: true };
  });
}

export function buildHubSpotSandboxServer(
  sandbox: HubSpotSandbox,
  options: { logger?: boolean } = {},
): FastifyInstance {
  // Access tokens travel in the path of /oauth/v1/access-tokens/:token and run to a few hundred characters.
  const app = Fastify({ logger: options.logger ?? false, routerOptions: { maxParamLength: 2048 } });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, formParser);
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HubSpotError) return reply.code(error.statusCode).headers(error.headers).send(error.body);
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // A body HubSpot cannot read: its VALIDATION_ERROR with the parser's words.
      if (request.url.startsWith('/crm/')) {
        const invalid = validationError(`Invalid input JSON on line 1, column 1: ${(error as Error).message}`);
        return reply.code(400).send(invalid.body);
      }
      return reply.code(status).send({ error: (error as Error).message });
    }
    request.log.error({ err: error }, 'hubspot sandbox: unhandled error');
    return reply.code(500).send(crmError(500, 'INTERNAL_ERROR', 'internal error').body);
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/crm/') || request.url.startsWith('/oauth/v1/')) {
      return reply.code(404).send(crmError(404, 'OBJECT_NOT_FOUND', 'resource not found').body);
    }
    return reply.code(404).type('text/plain').send('Not found');
  });
  registerOAuth(app, sandbox);
  registerCrm(app, sandbox);
  registerPages(app, sandbox);
  registerControls(app, sandbox);
  return app;
}

/** Starts the sandbox on its own port (0: any free one) and answers where it listens. */
export async function listenHubSpotSandbox(
  options: HubSpotSandboxOptions & { host?: string; port?: number; logger?: boolean } = {},
): Promise<RunningHubSpotSandbox> {
  const { host = '127.0.0.1', port = 0, publicUrl, logger, ...sandboxOptions } = options;
  const sandbox = new HubSpotSandbox({ ...sandboxOptions, publicUrl: publicUrl ?? `http://${host}:${port}` });
  const app = buildHubSpotSandboxServer(sandbox, { logger });
  await app.listen({ host, port });
  if (!publicUrl) {
    const address = app.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    sandbox.setPublicUrl(`http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`);
  }
  return {
    url: sandbox.publicUrl,
    authorizeUrl: `${sandbox.publicUrl}/oauth/authorize`,
    state: sandbox,
    close: () => app.close(),
  };
}
