import { API_CONTRACTS, publicApi } from '@warmpath/shared';
import { buildOpenApiDocument } from '@warmpath/shared/openapi';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { assertRouteHasContract, route } from './contract-route.ts';

let ctx: TestContext;

beforeAll(async () => {
  // Building the app registers every route: one under /api without a contract would make it fail here.
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('routes and contracts', () => {
  it('registers a route for every contract', () => {
    const missing = API_CONTRACTS.filter(
      (contract) => !ctx.app.hasRoute({ method: contract.method, url: `/api${contract.path}` }),
    ).map((contract) => `${contract.method} ${contract.path}`);
    expect(missing).toEqual([]);
  });

  it('refuses to start an /api route without a contract', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const start = async () => {
      await app.register(
        async (api) => {
          api.addHook('onRoute', assertRouteHasContract);
          route(api, publicApi.getHealth, async () => ({ status: 'ok' as const, database: 'ok' as const }));
          api.get('/users/query/undeclared', { config: { access: 'read' } }, async () => ({}));
        },
        { prefix: '/api' },
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow('Route GET /api/users/query/undeclared has no contract in packages/shared');
  });

  it('serves the committed OpenAPI document, which is the contracts', async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(buildOpenApiDocument());
    const ui = await ctx.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});
