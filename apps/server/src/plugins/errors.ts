import type { TError, TErrorCode } from '@warmpath/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { limitError } from '../db/client.ts';
import { AppError, ERROR_STATUS } from '../lib/app-error.ts';

/** Seconds a client waits before trying a 503 again: long enough for a queue of requests to drain. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

function sendError(reply: FastifyReply, code: TErrorCode, message: string) {
  const body: TError = { code, message };
  if (ERROR_STATUS[code] === 503) reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
  return reply.code(ERROR_STATUS[code]).send(body);
}

/** Fastify's own client errors by status; each keeps the status it had before it had a code. */
function clientErrorCode(status: number): TErrorCode {
  if (status === ERROR_STATUS.NOT_FOUND) return 'NOT_FOUND';
  if (status === ERROR_STATUS.TOO_LARGE) return 'TOO_LARGE';
  if (status === ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE) return 'UNSUPPORTED_MEDIA_TYPE';
  return 'VALIDATION_FAILED';
}

/** A stream of the request or its answer ended because the client closed the connection. */
const clientWentAway = (error: unknown) =>
  (error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
  (error as { code?: unknown }).code === 'ECONNRESET';

/** The one place errors become HTTP responses: `{ code, message }` with the status of the code. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error.code, error.message);
    // The request database's limits met outside a workspace transaction (the sign-in's identity lookup).
    const limited = limitError(error);
    if (limited) return sendError(reply, limited.code, limited.message);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = first
        ? field
          ? `${field}: ${first.message}`
          : (first.message ?? 'Invalid request')
        : 'Invalid request';
      return sendError(reply, 'VALIDATION_FAILED', message);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return sendError(reply, 'INTERNAL', 'Internal server error');
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500 && error instanceof Error) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large.
      return sendError(reply, clientErrorCode(status), error.message);
    }
    if (clientWentAway(error)) {
      // A page left mid-upload or mid-download: nobody is waiting for the answer, and nothing broke.
      request.log.info({ err: error }, 'the client closed the request');
      return sendError(reply, 'INTERNAL', 'The request was closed before its end');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 'INTERNAL', 'Internal server error');
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });
