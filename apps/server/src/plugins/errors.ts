import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';

/** The one place errors become HTTP responses: `{ code, message }` with the status of the code. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send({ code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = first
        ? field
          ? `${field}: ${first.message}`
          : (first.message ?? 'Invalid request')
        : 'Invalid request';
      return reply.code(400).send({ code: 'BAD_REQUEST', message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send({ code: 'INTERNAL', message: 'Internal server error' });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500 && error instanceof Error) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large.
      return reply.code(status).send({ code: 'BAD_REQUEST', message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ code: 'INTERNAL', message: 'Internal server error' });
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });
