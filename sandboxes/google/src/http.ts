/**
 * What every route of the sandbox's server shares: reading params and bodies, the form and upload
 * parsers, and errors in Google's shapes (API errors, OAuth errors, 404s for unknown paths).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GoogleApiError, OAuthError } from './errors.ts';
import type { Query } from './params.ts';

type Params = Record<string, string>;

export const paramsOf = (request: FastifyRequest): Params => {
  const params = request.params;
  const out: Params = {};
  if (typeof params === 'object' && params !== null) {
    for (const [key, value] of Object.entries(params)) if (typeof value === 'string') out[key] = value;
  }
  return out;
};

export const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null && !Buffer.isBuffer(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

export const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

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

export function installParsersAndErrors(app: FastifyInstance) {
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
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const error = new GoogleApiError(404, `The requested URL ${path} was not found on this server.`, {
      reason: 'notFound',
    });
    return reply.code(404).send(error.toBody());
  });
}
