import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoutes } from './define-route.ts';
import { API_CONTRACTS } from './index.ts';
import { buildOpenApiDocument } from './openapi.ts';

const document = buildOpenApiDocument();
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema?: unknown }> }>;
};
const paths = document.paths as Record<string, Record<string, Operation>>;
const operations = Object.entries(paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);
const responses = (document.components as { responses: Record<string, { content: unknown }> }).responses;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    // Its JSON round trip is what the file holds and what /api/docs/json serves.
    const result = await validate(JSON.parse(JSON.stringify(document)));
    expect(result.valid ? '' : compileErrors(result)).toBe('');
  });

  it('is the committed docs/openapi.json (npm run openapi writes it)', () => {
    const committed: unknown = JSON.parse(
      readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(document);
  });

  it('has one operation per contract and only those: no identity provider, no sandbox', () => {
    expect(operations).toHaveLength(API_CONTRACTS.length);
    expect(Object.keys(paths).filter((path) => !path.startsWith('/api/') || path.startsWith('/api/docs'))).toEqual([]);
  });

  it('names, sums up, tags and secures every operation, and describes every answer', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { name, operation } of operations) {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags, name).toHaveLength(1);
      expect(operation.security, name).toBeDefined();
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((status) => /^[23]/.test(status));
      expect(success, name).toHaveLength(1);
      const answer = operation.responses[success[0] ?? ''];
      expect(answer?.description, name).toBeTruthy();
      if (success[0] !== '204' && success[0] !== '302') expect(answer?.content, name).toBeDefined();
      for (const status of statuses.filter((status) => !success.includes(status))) {
        const failure = operation.responses[status];
        const content = failure?.$ref ? responses[failure.$ref.split('/').at(-1) ?? '']?.content : failure?.content;
        expect(content, `${name} ${status}`).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
    }
  });

  it('names the shared schemas as components', () => {
    const schemas = Object.keys((document.components as { schemas: Record<string, unknown> }).schemas);
    expect(schemas).toEqual(expect.arrayContaining(['Error', 'Me', 'Account', 'NetworkRow', 'TargetingScheme']));
  });
});

describe('a component whose request form differs from its answer form', () => {
  it('is named twice, the request side as <Name>Input, and private schemas are inlined', () => {
    const ZPage = z.object({ page: z.number().default(1) });
    const routes = defineRoutes('lists', {
      savePage: {
        method: 'POST',
        path: '/pages/command/save',
        summary: 'Saves a page',
        access: 'write',
        body: ZPage,
        responses: { 200: z.object({ saved: ZPage }) },
      },
    });
    const built = buildOpenApiDocument(Object.values(routes), { Page: ZPage });
    const operation = (built.paths as Record<string, Record<string, Operation & { requestBody: unknown }>>)[
      '/api/pages/command/save'
    ]?.post;
    expect(operation?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/PageInput' } } },
    });
    expect(operation?.responses['200']?.content?.['application/json']?.schema).toEqual({
      type: 'object',
      properties: { saved: { $ref: '#/components/schemas/Page' } },
      required: ['saved'],
    });
    const schemas = (built.components as { schemas: Record<string, { required?: string[] }> }).schemas;
    expect(Object.keys(schemas)).toEqual(['Error', 'Page', 'PageInput']);
    expect(schemas.Page?.required).toEqual(['page']);
    expect(schemas.PageInput?.required).toBeUndefined();
  });
});

describe('the contracts', () => {
  it('declare each method and path once', () => {
    const routes = API_CONTRACTS.map((contract) => `${contract.method} ${contract.path}`);
    expect(routes.filter((route, index) => routes.indexOf(route) !== index)).toEqual([]);
  });

  it('keep public access to /public paths and health, as the server requires', () => {
    const misfiled = API_CONTRACTS.filter(
      (contract) =>
        (contract.access === 'public') !== (contract.path.startsWith('/public/') || contract.path === '/health'),
    );
    expect(misfiled.map((contract) => contract.operationId)).toEqual([]);
  });
});
