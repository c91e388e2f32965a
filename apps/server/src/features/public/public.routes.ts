import { publicApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { COUNTRIES } from '../../datasets/countries.ts';
import { type Database, limitError } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../plugins/contract-route.ts';
import { pingDatabase } from './public.repo.ts';

export const publicRoutes: FastifyPluginAsyncZod<{ config: Config; database: Database }> = async (app, deps) => {
  route(app, publicApi.getHealth, async () => {
    try {
      await pingDatabase(deps.database);
    } catch (error) {
      // A busy server is not a broken one: a full queue or a timed-out ping answers 503 with Retry-After,
      // as every route does (a load balancer takes the process out for a while, not for good).
      throw limitError(error) ?? new AppError('INTERNAL', 'The database cannot be reached');
    }
    return { status: 'ok' as const, database: 'ok' as const };
  });

  route(app, publicApi.listCountries, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').send(COUNTRIES),
  );

  route(app, publicApi.getPublicConfig, async () => {
    const { oidc } = deps.config;
    // Auth0 picks the API by `audience`; the built-in provider defaults its resource instead.
    const extraQueryParams: Record<string, string> = oidc.builtIn ? {} : { audience: oidc.audience };
    return {
      oidc: {
        authority: oidc.issuer,
        clientId: oidc.clientId,
        audience: oidc.audience,
        extraQueryParams,
      },
      demoCalendarUrl: deps.config.demoCalendarUrl,
      posthogKey: deps.config.posthogKey,
    };
  });
};
