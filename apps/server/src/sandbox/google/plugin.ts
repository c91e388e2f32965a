/**
 * The HTTP face of the Google sandbox.
 *
 * - `googleSandbox` (register with `{ prefix: '/sandbox/google', publicUrl, sandbox }`): OAuth
 *   (consent page, token, revoke, tokeninfo, certificates), the APIs, the sent-mail page and the
 *   test controls.
 * - `googleSandboxApis` (register at the server root, `{ sandbox }`): Gmail, Calendar and People at
 *   the paths Google serves them. googleapis builds each request URL as `new URL(path, rootUrl)` with
 *   an absolute path, so the path of a `rootUrl` is dropped: the clients can only reach the APIs at
 *   the root of an origin (`rootUrl: 'http://localhost:3000/'`).
 */
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { z } from 'zod';
import { GoogleApiError, OAuthError } from './errors.ts';
import { authErrorPage, consentPage, indexPage, sentMailPage } from './pages.ts';
import { asQuery, type Query, stringParam } from './params.ts';
import { createGoogleSandbox, type GoogleSandbox, type GoogleSandboxOptions } from './sandbox.ts';

export type GoogleSandboxPluginOptions = {
  /** The externally visible base of the server, e.g. `http://localhost:3000`. */
  publicUrl: string;
  /** The state to serve; created from `publicUrl` when absent. */
  sandbox?: GoogleSandbox;
  /** Also serve the APIs under the prefix (default true), for curl and tests. */
  apis?: boolean;
};

/** What to give the official clients. */
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
    /** `google.gmail({ version: 'v1', auth, rootUrl })` (and people, calendar): the origin only. */
    rootUrl: `${new URL(base).origin}/`,
  };
}

type Params = Record<string, string>;

const paramsOf = (request: FastifyRequest): Params => {
  const params = request.params;
  const out: Params = {};
  if (typeof params === 'object' && params !== null) {
    for (const [key, value] of Object.entries(params)) if (typeof value === 'string') out[key] = value;
  }
  return out;
};

const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null && !Buffer.isBuffer(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

function formParser(_request: FastifyRequest, body: string, done: (error: Error | null, value?: Query) => void) {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const held = out[key];
    if (held === undefined) out[key] = value;
    else if (Array.isArray(held)) held.push(value);
    else out[key] = [held, value];
  }
  done(null, out);
}

function installParsersAndErrors(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, formParser);
  app.addContentTypeParser(['message/rfc822', 'multipart/related'], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof GoogleApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return reply.code(error.code).send(error.toBody());
    }
    if (error instanceof OAuthError) {
      return reply.code(error.statusCode).header('cache-control', 'no-store').send(error.toBody());
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const message =
        status === 400 && error instanceof Error && /JSON/i.test(error.message)
          ? `Invalid JSON payload received. ${error.message}`
          : error instanceof Error
            ? error.message
            : 'Bad Request';
      const wrapped = new GoogleApiError(status, message, { reason: status === 400 ? 'parseError' : 'badRequest' });
      return reply.code(status).send(wrapped.toBody());
    }
    request.log.error({ err: error }, 'google sandbox: unhandled error');
    return reply
      .code(500)
      .send(new GoogleApiError(500, 'Internal error encountered.', { reason: 'backendError' }).toBody());
  });
}

/** The raw RFC 5322 message of a send or draft call: JSON `raw`, or an upload (media or multipart). */
function rawOf(request: FastifyRequest, path: 'message' | 'root'): { raw?: Buffer; threadId?: string; id?: string } {
  if (Buffer.isBuffer(request.body)) {
    const type = String(request.headers['content-type'] ?? '');
    if (type.startsWith('multipart/related')) return multipartRaw(request.body, type, path);
    return { raw: request.body };
  }
  const body = bodyOf(request);
  const message = path === 'message' ? body.message : body;
  const record = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
  const raw = typeof record.raw === 'string' ? Buffer.from(record.raw, 'base64') : undefined;
  return {
    raw,
    threadId: typeof record.threadId === 'string' ? record.threadId : undefined,
    id: typeof body.id === 'string' ? body.id : undefined,
  };
}

function multipartRaw(body: Buffer, type: string, path: 'message' | 'root') {
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary)
    throw new GoogleApiError(400, 'Missing boundary in multipart/related upload', { reason: 'badContent' });
  const text = body.toString('latin1');
  const parts = text.split(`--${boundary}`).slice(1, -1);
  let metadata: Record<string, unknown> = {};
  let raw: Buffer | undefined;
  for (const part of parts) {
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) continue;
    const head = part.slice(0, split.index).toLowerCase();
    const content = part.slice(split.index + split[0].length).replace(/\r?\n$/, '');
    if (head.includes('application/json')) {
      try {
        const parsed: unknown = JSON.parse(Buffer.from(content, 'latin1').toString('utf8'));
        if (typeof parsed === 'object' && parsed !== null) metadata = parsed as Record<string, unknown>;
      } catch {
        throw new GoogleApiError(400, 'Invalid JSON payload received.', { reason: 'parseError' });
      }
    } else {
      raw = Buffer.from(content, 'latin1');
    }
  }
  const holder = path === 'message' ? metadata.message : metadata;
  const record = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>) : {};
  return {
    raw,
    threadId: typeof record.threadId === 'string' ? record.threadId : undefined,
    id: typeof metadata.id === 'string' ? metadata.id : undefined,
  };
}

/** Gmail, Calendar and People at Google's paths (relative to where this is registered). */
function registerApiRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  const auth = (request: FastifyRequest) => request.headers.authorization;
  const query = (request: FastifyRequest) => asQuery(request.query);
  const sendLimit = { bodyLimit: 36 * 1024 * 1024 };

  app.get('/gmail/v1/users/:userId/profile', async (request) =>
    sandbox.gmailProfile(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/messages', async (request) =>
    sandbox.gmailListMessages(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/messages/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetMessage(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  const sendMessage = async (request: FastifyRequest) => {
    const { raw, threadId } = rawOf(request, 'root');
    return sandbox.gmailSendMessage(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, threadId });
  };
  app.post('/gmail/v1/users/:userId/messages/send', sendLimit, sendMessage);
  app.post('/upload/gmail/v1/users/:userId/messages/send', sendLimit, sendMessage);
  app.get('/gmail/v1/users/:userId/threads', async (request) =>
    sandbox.gmailListThreads(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/threads/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetThread(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  app.get('/gmail/v1/users/:userId/history', async (request) =>
    sandbox.gmailHistory(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  const createDraft = async (request: FastifyRequest) => {
    const { raw, threadId } = rawOf(request, 'message');
    return sandbox.gmailCreateDraft(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, threadId });
  };
  app.post('/gmail/v1/users/:userId/drafts', sendLimit, createDraft);
  app.post('/upload/gmail/v1/users/:userId/drafts', sendLimit, createDraft);
  app.get('/gmail/v1/users/:userId/drafts', async (request) =>
    sandbox.gmailListDrafts(auth(request), query(request), paramsOf(request).userId ?? 'me'),
  );
  app.get('/gmail/v1/users/:userId/drafts/:id', async (request) => {
    const params = paramsOf(request);
    return sandbox.gmailGetDraft(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
  });
  app.delete('/gmail/v1/users/:userId/drafts/:id', async (request, reply) => {
    const params = paramsOf(request);
    sandbox.gmailDeleteDraft(auth(request), query(request), params.userId ?? 'me', params.id ?? '');
    return reply.code(204).send();
  });
  const sendDraft = async (request: FastifyRequest) => {
    const { raw, id } = rawOf(request, 'message');
    return sandbox.gmailSendDraft(auth(request), query(request), paramsOf(request).userId ?? 'me', { raw, id });
  };
  app.post('/gmail/v1/users/:userId/drafts/send', sendLimit, sendDraft);
  app.post('/upload/gmail/v1/users/:userId/drafts/send', sendLimit, sendDraft);

  app.get('/calendar/v3/calendars/:calendarId/events', async (request) =>
    sandbox.calendarEvents(auth(request), query(request), paramsOf(request).calendarId ?? 'primary'),
  );
  app.get('/calendar/v3/users/me/calendarList', async (request) => sandbox.calendarList(auth(request), query(request)));

  app.get('/v1/people/:person/connections', async (request) =>
    sandbox.peopleConnections(auth(request), query(request), `people/${paramsOf(request).person ?? ''}`),
  );
  app.get('/v1/people/me', async (request) => sandbox.peopleMe(auth(request), query(request)));
  app.get('/v1/otherContacts', async (request) => sandbox.otherContacts(auth(request), query(request)));
  app.get('/oauth2/v2/userinfo', async (request) => sandbox.userinfo(auth(request), query(request)));
}

/** The APIs at the root of the server: register without a prefix (see the module comment). */
export const googleSandboxApis: FastifyPluginAsync<{ sandbox: GoogleSandbox }> = async (app, options) => {
  installParsersAndErrors(app);
  registerApiRoutes(app, options.sandbox);
};

const ZAddress = z.union([z.string().min(3), z.object({ name: z.string(), email: z.string().min(3) })]);
const ZEmail = z.object({ email: z.string().min(3) });
const ZTime = z.union([z.string(), z.number()]);

const CONTROLS = {
  mail: z.object({
    email: z.string().min(3),
    count: z.number().int().min(1).max(1000).optional(),
    from: ZAddress.optional(),
    to: z.array(ZAddress).optional(),
    cc: z.array(ZAddress).optional(),
    subject: z.string().optional(),
    at: ZTime.optional(),
    labelIds: z.array(z.string()).optional(),
  }),
  meetings: z.object({
    email: z.string().min(3),
    count: z.number().int().min(1).max(500).optional(),
    summary: z.string().optional(),
    start: ZTime.optional(),
    durationMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
    attendees: z.array(ZAddress).optional(),
    organizer: z.string().optional(),
  }),
  cancel: z.object({ email: z.string().min(3), eventId: z.string().min(1) }),
  optionalEmail: z.object({ email: z.string().min(3).optional() }),
  rateLimit: z.object({
    count: z.number().int().min(0).max(10_000),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    email: z.string().min(3).optional(),
  }),
  sentMail: z.object({ to: z.string().optional() }),
};

function parseControl<T extends z.ZodType>(schema: T, request: FastifyRequest): z.infer<T> {
  const type = String(request.headers['content-type'] ?? '');
  if (request.body !== undefined && request.body !== null && !type.startsWith('application/json')) {
    throw new GoogleApiError(415, 'Controls take JSON only (Content-Type: application/json).', {
      reason: 'badContent',
    });
  }
  const parsed = schema.safeParse(request.body ?? {});
  if (!parsed.success) throw new GoogleApiError(400, z.prettifyError(parsed.error), { reason: 'invalid' });
  return parsed.data;
}

function registerControls(app: FastifyInstance, sandbox: GoogleSandbox) {
  const messageJson = (message: {
    id: string;
    threadId: string;
    historyId: number;
    internalDate: number;
    labelIds: string[];
    subject: string;
    from: { name: string; email: string };
  }) => ({
    id: message.id,
    threadId: message.threadId,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
    labelIds: message.labelIds,
    from: message.from,
    subject: message.subject,
  });

  app.post('/_control/mail', async (request) => {
    const { email, ...input } = parseControl(CONTROLS.mail, request);
    const messages = sandbox.addMail(email, input);
    return { messages: messages.map(messageJson), historyId: String(sandbox.user(email).mailbox.historyId) };
  });
  app.post('/_control/meetings', async (request) => {
    const { email, ...input } = parseControl(CONTROLS.meetings, request);
    const { calendar } = sandbox.user(email);
    return { events: sandbox.addMeetings(email, input).map((event) => calendar.serialize(event)) };
  });
  app.post('/_control/meetings/cancel', async (request) => {
    const { email, eventId } = parseControl(CONTROLS.cancel, request);
    const event = sandbox.cancelMeeting(email, eventId);
    return { event: sandbox.user(email).calendar.serialize(event) };
  });
  app.post('/_control/history/drop', async (request) => sandbox.dropHistory(parseControl(ZEmail, request).email));
  app.post('/_control/calendar/invalidate-sync-tokens', async (request) =>
    sandbox.invalidateCalendarSyncTokens(parseControl(ZEmail, request).email),
  );
  app.post('/_control/people/invalidate-sync-tokens', async (request) =>
    sandbox.invalidatePeopleSyncTokens(parseControl(ZEmail, request).email),
  );
  app.post('/_control/tokens/expire', async (request) =>
    sandbox.expireAccessTokens(parseControl(CONTROLS.optionalEmail, request).email),
  );
  app.post('/_control/grants/revoke', async (request) => sandbox.revokeGrants(parseControl(ZEmail, request).email));
  app.post('/_control/rate-limit', async (request) => {
    const { count, ...options } = parseControl(CONTROLS.rateLimit, request);
    sandbox.rateLimitNextCalls(count, options);
    return { count };
  });
  app.post('/_control/sent-mail', async (request) => ({
    messages: sandbox.sentMail(parseControl(CONTROLS.sentMail, request)),
  }));
  app.post('/_control/stats', async (request) => sandbox.stats(parseControl(ZEmail, request).email));
  app.post('/_control/reset', async (request) => {
    parseControl(z.object({}), request);
    sandbox.reset();
    return { reset: true };
  });
}

function registerOAuth(app: FastifyInstance, sandbox: GoogleSandbox) {
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  app.get('/o/oauth2/v2/auth', async (request, reply) => {
    const result = sandbox.authorize(asQuery(request.query));
    if (result.kind === 'error') return html(reply, result.status, authErrorPage(result.error, result.message));
    if (result.kind === 'redirect') return reply.redirect(result.url, 302);
    return html(
      reply,
      200,
      consentPage({ action: 'auth', params: result.params, scopes: result.scopes, email: result.loginHint }),
    );
  });

  app.post('/o/oauth2/v2/auth', async (request, reply) => {
    const result = sandbox.consent(bodyOf(request));
    if (result.kind === 'error') return html(reply, result.status, authErrorPage(result.error, result.message));
    if (result.kind === 'redirect') return reply.redirect(result.url, 302);
    if (result.kind === 'invalid-email' && result.page.kind === 'consent') {
      return html(
        reply,
        400,
        consentPage({
          action: 'auth',
          params: result.page.params,
          scopes: result.page.scopes,
          email: result.email,
          error: result.message,
        }),
      );
    }
    return html(reply, 400, authErrorPage('invalid_request', 'The consent form was incomplete.'));
  });

  app.post('/token', async (request, reply) => {
    const form = bodyOf(request);
    const field = (name: string) => stringParam(form, name);
    let clientId = field('client_id');
    let clientSecret = field('client_secret');
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, ...secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      clientId = clientId ?? (id ? decodeURIComponent(id) : undefined);
      clientSecret = clientSecret ?? decodeURIComponent(secret.join(':'));
    }
    const grantType = field('grant_type');
    reply.header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate').header('pragma', 'no-cache');
    if (grantType === 'authorization_code') {
      return sandbox.oauth.exchangeCode({
        code: field('code'),
        clientId,
        clientSecret,
        redirectUri: field('redirect_uri'),
        codeVerifier: field('code_verifier'),
      });
    }
    if (grantType === 'refresh_token') {
      return sandbox.oauth.refresh({ refreshToken: field('refresh_token'), clientId, clientSecret });
    }
    if (!grantType) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: grant_type');
    throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  });

  const revoke = async (request: FastifyRequest) => {
    sandbox.oauth.revoke(stringParam(asQuery(request.query), 'token') ?? stringParam(bodyOf(request), 'token'));
    return {};
  };
  app.post('/revoke', revoke);
  app.get('/revoke', revoke);

  const tokenInfo = async (request: FastifyRequest) => {
    const token =
      stringParam(asQuery(request.query), 'access_token') ??
      stringParam(bodyOf(request), 'access_token') ??
      /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const info = sandbox.tokenInfo(token);
    if (!info) throw new OAuthError(400, 'invalid_token', 'Invalid Value');
    return info;
  };
  app.get('/tokeninfo', tokenInfo);
  app.post('/tokeninfo', tokenInfo);

  app.get('/oauth2/v1/certs', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send(sandbox.oauth.pemCerts()),
  );
  app.get('/oauth2/v3/certs', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send(sandbox.oauth.jwks()),
  );
}

/** The sandbox under its prefix: OAuth, the APIs, the sent-mail page and the test controls. */
export const googleSandbox: FastifyPluginAsync<GoogleSandboxPluginOptions> = async (app, options) => {
  const sandbox = options.sandbox ?? createGoogleSandbox({ publicUrl: options.publicUrl, prefix: app.prefix });
  installParsersAndErrors(app);
  registerOAuth(app, sandbox);
  if (options.apis !== false) registerApiRoutes(app, sandbox);
  registerControls(app, sandbox);

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
    const { endpoints, rootUrl } = googleSandboxEndpoints(sandbox.baseUrl);
    return reply.type('text/html; charset=utf-8').send(
      indexPage(
        {
          'OAuth2Client endpoints.oauth2AuthBaseUrl': endpoints.oauth2AuthBaseUrl,
          'OAuth2Client endpoints.oauth2TokenUrl': endpoints.oauth2TokenUrl,
          'OAuth2Client endpoints.oauth2RevokeUrl': endpoints.oauth2RevokeUrl,
          'OAuth2Client endpoints.tokenInfoUrl': endpoints.tokenInfoUrl,
          'googleapis rootUrl (gmail, calendar, people)': rootUrl,
          'Sent mail (JSON)': `${sandbox.baseUrl}/mail.json`,
        },
        `${app.prefix}/mail`,
      ),
    );
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new GoogleApiError(
      404,
      `The requested URL ${request.url.split('?')[0]} was not found on this server.`,
      {
        reason: 'notFound',
      },
    );
    return reply.code(404).send(error.toBody());
  });
};

export type RunningGoogleSandbox = {
  sandbox: GoogleSandbox;
  /** The sandbox base: `http://127.0.0.1:PORT/sandbox/google`. */
  url: string;
  /** For the googleapis clients: `http://127.0.0.1:PORT/`. */
  rootUrl: string;
  endpoints: ReturnType<typeof googleSandboxEndpoints>['endpoints'];
  close(): Promise<void>;
};

/**
 * The sandbox on its own port (tests, or a separate process): the prefixed plugin plus the APIs at
 * the root, on a fresh Fastify instance.
 */
export async function listenGoogleSandbox(
  options: Omit<GoogleSandboxOptions, 'publicUrl'> & { host?: string; port?: number; sandbox?: GoogleSandbox } = {},
): Promise<RunningGoogleSandbox> {
  const { host = '127.0.0.1', port = 0, sandbox: given, ...sandboxOptions } = options;
  const prefix = sandboxOptions.prefix ?? '/sandbox/google';
  const sandbox = given ?? createGoogleSandbox({ ...sandboxOptions, publicUrl: `http://${host}:${port}`, prefix });
  const app = Fastify({ logger: false });
  await app.register(googleSandbox, { prefix, publicUrl: sandbox.publicUrl, sandbox, apis: prefix !== '' });
  await app.register(googleSandboxApis, { sandbox });
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  sandbox.setPublicUrl(`http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`);
  const { endpoints, rootUrl } = googleSandboxEndpoints(sandbox.baseUrl);
  return { sandbox, url: sandbox.baseUrl, rootUrl, endpoints, close: () => app.close() };
}
