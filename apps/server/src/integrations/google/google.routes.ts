import { ZGoogleAuthenticateQuery, ZGoogleAuthenticateResponse } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { memberOf } from '../../plugins/auth.ts';
import { finishGoogleConnection, type GoogleDeps, startGoogleConnection } from './google.service.ts';

export const googleRoutes: FastifyPluginAsyncZod<GoogleDeps> = async (app, deps) => {
  app.post(
    '/google/authenticate',
    {
      config: { access: 'self' },
      schema: {
        tags: ['google'],
        querystring: ZGoogleAuthenticateQuery,
        response: { 200: ZGoogleAuthenticateResponse },
      },
    },
    async (request) => startGoogleConnection(deps, memberOf(request), request.query.redirectUrl),
  );

  // Google sends the browser here, without our bearer token: the signed state says who it is.
  app.get(
    '/public/google/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['google'],
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      const { redirectTo } = await finishGoogleConnection(deps, request.query);
      return reply.redirect(`${deps.publicUrl}${redirectTo}`);
    },
  );
};
