/**
 * The HTTP face of the Slack sandbox, everything at its root as Slack serves it:
 *
 * - `GET /oauth/v2/authorize` the install screen (pick the incoming webhook's channel, Allow or
 *   Cancel), `POST /oauth/v2/authorize` its form, redirecting back with `code` or `error=access_denied`;
 * - `GET|POST /api/<method>` the Web API (form-encoded or JSON; token as `Authorization: Bearer` or a
 *   `token` argument), errors as HTTP 200 `{ ok: false, error }`, rate limits as HTTP 429 `Retry-After`;
 * - `POST /services/<team>/<bot>/<secret>` the incoming webhook an install created;
 * - `GET /messages` what was posted, per channel, newest first;
 * - `/_control/*` the tests' levers (JSON): `rate-limit`, `revoke`, `archive`, `messages`, `reset`.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Args, type BasicAuth, METHODS, messageJson } from './methods.ts';
import { consentPage, errorPage, indexPage, KNOWN_SCOPES, messagesPage } from './pages.ts';
import { SlackApiError, SlackRateLimited, SlackSandbox, type SlackSandboxOptions, TEAM } from './state.ts';

export type RunningSlackSandbox = {
  /** The sandbox's base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** What to give `new WebClient(token, { slackApiUrl })`. */
  apiUrl: string;
  /** Slack's `/oauth/v2/authorize` on the sandbox. */
  authorizeUrl: string;
  state: SlackSandbox;
  close: () => Promise<void>;
};

/** `application/x-www-form-urlencoded` as a flat record; a repeated field keeps its last value, as Slack reads it. */
function formParser(_request: FastifyRequest, body: string, done: (error: Error | null, value?: Args) => void) {
  done(null, Object.fromEntries(new URLSearchParams(body)));
}

const recordOf = (value: unknown): Args =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Args) : {};

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** oauth.v2.access also takes the client's id and secret as HTTP Basic credentials. */
function basicAuth(request: FastifyRequest): BasicAuth | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

const splitScopes = (value: string | undefined) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((scope) => scope.trim())
    .filter(Boolean);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

function stringArgs(args: Args): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) if (typeof value === 'string') out[key] = value;
  return out;
}

function registerOAuth(app: FastifyInstance, sandbox: SlackSandbox) {
  /** Validates an authorization request; answers the error page (and null) when it cannot go on. */
  const authorizeRequest = (params: Record<string, string>, reply: FastifyReply) => {
    const clientId = params.client_id ?? '';
    const problem = sandbox.checkAuthorizeRequest(clientId, params.redirect_uri ?? '');
    if (problem) {
      void html(reply, 400, errorPage(problem));
      return null;
    }
    const scopes = splitScopes(params.scope);
    const userScopes = splitScopes(params.user_scope);
    const unknown = [...scopes, ...userScopes].filter((scope) => !KNOWN_SCOPES.includes(scope));
    if (scopes.length + userScopes.length === 0 || unknown.length > 0) {
      void html(
        reply,
        400,
        errorPage(`Invalid permissions requested${unknown.length ? `: ${unknown.join(', ')}` : ''}`),
      );
      return null;
    }
    return {
      clientId,
      redirectUri: sandbox.effectiveRedirectUri(clientId, params.redirect_uri ?? ''),
      scopes,
      userScopes,
    };
  };

  app.get('/oauth/v2/authorize', async (request, reply) => {
    const params = stringArgs(recordOf(request.query));
    const valid = authorizeRequest(params, reply);
    if (!valid) return reply;
    // The installing member sees the public channels and the private ones they are in: all of them here.
    const webhookChannels = valid.scopes.includes('incoming-webhook')
      ? sandbox.listChannels().filter((channel) => !channel.isArchived)
      : null;
    const kept: Record<string, string> = {};
    for (const key of ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state', 'team']) {
      const value = params[key];
      if (value !== undefined) kept[key] = value;
    }
    return html(
      reply,
      200,
      consentPage({
        action: '/oauth/v2/authorize',
        teamName: TEAM.name,
        clientId: valid.clientId,
        params: kept,
        scopes: valid.scopes,
        userScopes: valid.userScopes,
        webhookChannels,
      }),
    );
  });

  app.post('/oauth/v2/authorize', async (request, reply) => {
    const params = stringArgs(recordOf(request.body));
    const valid = authorizeRequest(params, reply);
    if (!valid) return reply;
    const back = new URL(valid.redirectUri);
    if (params.decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
    } else {
      let webhookChannelId: string | null = null;
      if (valid.scopes.includes('incoming-webhook')) {
        const channel = params.channel ? sandbox.channelById(params.channel) : undefined;
        if (!channel || channel.isArchived)
          return html(reply, 400, errorPage('Pick a channel for the app to post to.'));
        webhookChannelId = channel.id;
      }
      back.searchParams.set('code', sandbox.issueCode({ ...valid, webhookChannelId }));
    }
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    return reply.redirect(back.toString(), 302);
  });
}

function registerApi(app: FastifyInstance, sandbox: SlackSandbox) {
  const handle = async (request: FastifyRequest<{ Params: { method: string } }>, reply: FastifyReply) => {
    const { method } = request.params;
    const args: Args = { ...recordOf(request.query), ...recordOf(request.body) };
    const run = METHODS[method];
    if (!run) return reply.code(404).send({ ok: false, error: 'unknown_method', req_method: method });
    try {
      sandbox.checkRateLimit(method);
      const token = bearer(request) ?? (typeof args.token === 'string' ? args.token : undefined);
      return reply.send(run({ sandbox, args, token, basicAuth: basicAuth(request) }));
    } catch (error) {
      if (error instanceof SlackRateLimited) {
        return reply
          .code(429)
          .header('retry-after', String(error.retryAfterSeconds))
          .send({ ok: false, error: 'ratelimited' });
      }
      if (error instanceof SlackApiError) return reply.send({ ok: false, error: error.error, ...error.extra });
      throw error;
    }
  };
  app.post('/api/:method', handle);
  app.get('/api/:method', handle);

  app.post<{ Params: { secret: string } }>('/services/:team/:bot/:secret', async (request, reply) => {
    const installation = sandbox.webhook(request.params.secret);
    if (!installation?.webhookChannelId) return reply.code(404).type('text/plain').send('no_service');
    const body = recordOf(request.body);
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? (body.blocks as unknown[]) : undefined;
    if (!text && !blocks?.length) return reply.code(400).type('text/plain').send('no_text');
    sandbox.post({
      channel: installation.webhookChannelId,
      text,
      blocks,
      metadata: undefined,
      via: 'incoming-webhook',
    });
    return reply.type('text/plain').send('ok');
  });
}

function registerPages(app: FastifyInstance, sandbox: SlackSandbox) {
  app.get('/', async (_request, reply) => html(reply, 200, indexPage(sandbox.publicUrl)));
  app.get('/messages', async (_request, reply) =>
    html(
      reply,
      200,
      messagesPage(sandbox.listChannels().map((channel) => ({ channel, messages: sandbox.history(channel.id) }))),
    ),
  );
}

function registerControls(app: FastifyInstance, sandbox: SlackSandbox) {
  const bad = (reply: FastifyReply, message: string) => reply.code(400).send({ error: message });

  /** `{ method, count = 1, retryAfter = 30 }`: the next `count` calls of `method` answer 429. */
  app.post('/_control/rate-limit', async (request, reply) => {
    const body = recordOf(request.body);
    const count = body.count === undefined ? 1 : Number(body.count);
    const retryAfter = body.retryAfter === undefined ? 30 : Number(body.retryAfter);
    if (typeof body.method !== 'string' || !METHODS[body.method]) return bad(reply, 'method must be a Web API method');
    if (!Number.isInteger(count) || count < 1) return bad(reply, 'count must be a positive integer');
    if (!Number.isInteger(retryAfter) || retryAfter < 0) return bad(reply, 'retryAfter must be whole seconds');
    sandbox.rateLimit(body.method, count, retryAfter);
    return { ok: true };
  });

  /** `{ token }`: the user removed the app; the token answers token_revoked from now on. */
  app.post('/_control/revoke', async (request, reply) => {
    const { token } = recordOf(request.body);
    if (typeof token !== 'string') return bad(reply, 'token is required');
    if (!sandbox.revoke(token)) return reply.code(404).send({ error: 'unknown token' });
    return { ok: true };
  });

  /** `{ channel }` (id or name): archived channels refuse posts with is_archived. */
  app.post('/_control/archive', async (request, reply) => {
    const { channel } = recordOf(request.body);
    if (typeof channel !== 'string') return bad(reply, 'channel is required');
    try {
      return { ok: true, channel: sandbox.archive(channel).id };
    } catch {
      return reply.code(404).send({ error: 'unknown channel' });
    }
  });

  /** Everything posted, oldest first: `{ messages: [{ channel, channel_name, ts, text, blocks, metadata }] }`. */
  app.get('/_control/messages', async () => ({
    messages: sandbox.messages().map((message) => ({
      channel: message.channel,
      channel_name: sandbox.channelById(message.channel)?.name ?? null,
      ...messageJson(message, true),
    })),
  }));

  app.post('/_control/reset', async () => {
    sandbox.reset();
    return { ok: true };
  });
}

export function buildSlackSandboxServer(sandbox: SlackSandbox, options: { logger?: boolean } = {}): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, formParser);
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    // A body Slack cannot read is still answered the Slack way, on HTTP 200.
    if (request.url.startsWith('/api/') && status === 400)
      return reply.code(200).send({ ok: false, error: 'invalid_form_data' });
    if (status && status >= 400 && status < 500) return reply.code(status).send({ error: (error as Error).message });
    request.log.error({ err: error }, 'slack sandbox: unhandled error');
    return reply.code(500).send({ ok: false, error: 'internal_error' });
  });
  registerOAuth(app, sandbox);
  registerApi(app, sandbox);
  registerPages(app, sandbox);
  registerControls(app, sandbox);
  return app;
}

/** Starts the sandbox on its own port (0: any free one) and answers where it listens. */
export async function listenSlackSandbox(
  options: SlackSandboxOptions & { host?: string; port?: number; logger?: boolean } = {},
): Promise<RunningSlackSandbox> {
  const { host = '127.0.0.1', port = 0, publicUrl, logger, ...sandboxOptions } = options;
  const sandbox = new SlackSandbox({ ...sandboxOptions, publicUrl: publicUrl ?? `http://${host}:${port}` });
  const app = buildSlackSandboxServer(sandbox, { logger });
  await app.listen({ host, port });
  if (!publicUrl) {
    const address = app.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    sandbox.setPublicUrl(`http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`);
  }
  return {
    url: sandbox.publicUrl,
    apiUrl: `${sandbox.publicUrl}/api/`,
    authorizeUrl: `${sandbox.publicUrl}/oauth/v2/authorize`,
    state: sandbox,
    close: () => app.close(),
  };
}
