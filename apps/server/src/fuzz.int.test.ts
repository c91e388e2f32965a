import { randomUUID } from 'node:crypto';
import { API_CONTRACTS, type RouteContract, type TAccountsPage, type TClient } from '@warmpath/shared';
import { buildOpenApiDocument } from '@warmpath/shared/openapi';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../test/harness.ts';
import { multipartBody } from '../test/multipart.ts';
import { NAUGHTY_STRINGS } from '../test/naughty-strings.ts';

// An OpenAPI-driven fuzzer: every operation that takes a body, a query or path parameters gets, as the
// admin of a real workspace, bodies shaped by its schema but filled with naughty strings and boundary
// numbers, malformed and oversized bodies, and naughty parameters. Nothing may answer 5xx, no answer
// may show a stack trace or a source path, and the log may not quote what the requests carried.
// Deterministic: each operation takes the next few values of the list in turn.

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema: JsonSchema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
};

const DOCUMENT = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const CONTRACTS = new Map(API_CONTRACTS.map((contract) => [contract.operationId, contract]));

/** Numbers at and past the edges: what a careless client or an attacker types. */
const BOUNDARY_NUMBERS = [0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER, -(2 ** 63), 1e308, 0.5];
const BOUNDARY_TEXTS = ['', '-1', '0', '2147483648', '9007199254740993', 'NaN', 'Infinity', '1e309', '0x10', ' 1'];
const VALUES_PER_OPERATION = 8;

type Fill = { text: string; number: number; arrayLength: number; depth: number };

/** A value of `schema`'s shape with every string `fill.text` and every number `fill.number`. */
function sample(schema: JsonSchema | undefined, fill: Fill, depth = 0): unknown {
  if (!schema || depth > 12) return fill.text;
  if (schema.$ref) return sample(DOCUMENT.components.schemas[schema.$ref.split('/').pop() ?? ''], fill, depth + 1);
  const options = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (options) {
    const chosen = options.find((option) => option.type !== 'null') ?? options[0];
    return sample(chosen, fill, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.enum && fill.depth % 2 === 0) return schema.enum[0];
  // Every other case names real objects and real-looking addresses, so that the naughty text in the
  // other fields gets past validation into the services and the queries.
  if (fill.depth % 2 === 1 && schema.format === 'uuid') return realIds[fill.depth % realIds.length];
  if (fill.depth % 2 === 1 && schema.format === 'email') return `fuzz${fill.depth}@example.test`;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [key, sample(property, fill, depth + 1)]),
      );
    case 'array': {
      // Only the outermost array is long: nested ones would multiply past any body limit.
      const item = sample(schema.items ?? schema.prefixItems?.[0], { ...fill, arrayLength: 1 }, depth + 1);
      return Array.from({ length: fill.arrayLength }, () => item);
    }
    case 'integer':
    case 'number':
      return fill.number;
    case 'boolean':
      return true;
    default:
      return fill.text;
  }
}

/** `{"a":{"a":...}}`, `levels` deep, as text: no JSON library is asked to build it. */
const deeplyNested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

type Case = { label: string; path?: string; query?: Record<string, string>; body?: string | Buffer; type?: string };

let ctx: TestContext;
let app: FastifyInstance;
let token = '';
const realIds: string[] = [];
/** The log's lines, kept short: a line is only searched for what the requests carried. */
const log: string[] = [];
let longestLine = '';

beforeAll(async () => {
  ctx = await createTestContext();
  ({ app } = await ctx.appWith({
    env: {
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // One address and one user make every request: the limits would answer 429 and hide the routes.
      RATE_LIMIT_UPLOAD_PER_USER: '100000/60',
      RATE_LIMIT_UPLOAD_PER_ADDRESS: '100000/60',
      RATE_LIMIT_PUBLIC_PER_ADDRESS: '100000/60',
    },
    logWrite: (line) => {
      if (line.length > longestLine.length) longestLine = line;
      log.push(line.length > 20_000 ? `${line.slice(0, 20_000)}…` : line);
    },
  }));
  const admin = await ctx.registerAdmin();
  token = admin.token;
  await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
  const ally = await app.inject({
    method: 'POST',
    url: '/api/clients/command/create-update-single-client',
    headers: bearer(token),
    payload: {
      firstName: 'Fuzz',
      lastName: 'Ally',
      email: `fuzz@${admin.domain}`,
      companyName: 'Fuzz Co',
      companyDomain: ctx.uniqueDomain(),
      linkedinUrl: `https://www.linkedin.com/in/fuzz-${randomUUID().slice(0, 6)}`,
      tag: 'Investor',
      mapNetwork: true,
    },
  });
  realIds.push(ally.json<TClient>().id);
  const csv = multipartBody({}, [
    { filename: 'a.csv', content: `Company name,Company domain\nFuzz,${ctx.uniqueDomain()}\n` },
  ]);
  await app.inject({
    method: 'POST',
    url: '/api/accounts/command/upload-accounts',
    headers: { ...bearer(token), 'content-type': csv.contentType },
    payload: csv.body,
  });
  const accounts = await app.inject({ url: '/api/accounts/query', headers: bearer(token) });
  realIds.push(accounts.json<TAccountsPage>().rows[0]?.id ?? randomUUID());
}, 60_000);
afterAll(async () => {
  await app.close();
  await ctx.close();
});

const destructive = (contract: RouteContract) =>
  contract.method === 'DELETE' || /\/(delete|remove)/.test(contract.path) || contract.operationId === 'changeRole';

/** The operations that read input, deletions last (they may take away the workspace's objects). */
const OPERATIONS = Object.entries(DOCUMENT.paths)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
  .filter(({ operation }) => operation.requestBody || (operation.parameters ?? []).length > 0)
  .map((entry) => ({ ...entry, contract: CONTRACTS.get(entry.operation.operationId) }))
  .sort((a, b) => Number(a.contract ? destructive(a.contract) : 0) - Number(b.contract ? destructive(b.contract) : 0));

function casesFor(operation: Operation, index: number): Case[] {
  const parameters = operation.parameters ?? [];
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json'];
  const upload = content['multipart/form-data'];
  const cases: Case[] = [];
  for (let j = 0; j < VALUES_PER_OPERATION; j++) {
    const text = NAUGHTY_STRINGS[(index * VALUES_PER_OPERATION + j) % NAUGHTY_STRINGS.length] ?? '';
    const number = BOUNDARY_NUMBERS[(index + j) % BOUNDARY_NUMBERS.length] ?? 0;
    const boundary = BOUNDARY_TEXTS[(index + j) % BOUNDARY_TEXTS.length] ?? '';
    const query: Record<string, string> = {};
    for (const parameter of parameters.filter((p) => p.in === 'query')) {
      const type = parameter.schema.type;
      query[parameter.name] = type === 'integer' || type === 'number' ? boundary : j % 2 === 0 ? text : boundary;
    }
    // Path parameters take a naughty value half the time, otherwise one of the workspace's real ids.
    const pathValue = j % 2 === 0 ? text : (realIds[j % realIds.length] ?? '');
    const fill: Fill = { text, number, arrayLength: j % 4 === 3 ? 10_000 : 1, depth: j };
    const base = { label: `${JSON.stringify(text)}`, path: pathValue, query };
    if (json) cases.push({ ...base, body: JSON.stringify(sample(json.schema, fill)), type: 'application/json' });
    else if (upload) {
      const row = [text, text, `${text}@example.test`, text].map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',');
      const form = multipartBody(j % 2 === 0 ? { mapNetwork: text } : {}, [
        { filename: `${text}.csv`, content: `Company name,Company domain,First name,Email\n${row}\n` },
      ]);
      cases.push({ ...base, body: form.body, type: form.contentType });
    } else cases.push(base);
  }
  if (json) {
    const big = { text: 'A'.repeat(1024 * 1024), number: 1, arrayLength: 1, depth: 1 };
    cases.push(
      { label: 'malformed JSON', body: '{"a": [1, ', type: 'application/json' },
      { label: 'JSON of the wrong type', body: '[null, "x", 1]', type: 'application/json' },
      { label: 'JSON null', body: 'null', type: 'application/json' },
      { label: '1 MB strings', body: JSON.stringify(sample(json.schema, big)), type: 'application/json' },
      { label: 'deep nesting', body: deeplyNested(20_000), type: 'application/json' },
      { label: 'a form where JSON is expected', body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
    );
  }
  if (upload) {
    cases.push(
      { label: 'an empty multipart body', ...emptyForm() },
      {
        label: 'a truncated multipart body',
        body: '--x\r\nContent-Disposition: form-data; name="file"',
        type: 'multipart/form-data; boundary=x',
      },
      { label: 'multipart without a boundary', body: 'whatever', type: 'multipart/form-data' },
      { label: 'JSON where a file is expected', body: '{}', type: 'application/json' },
    );
  }
  if (parameters.some((p) => p.in === 'query')) {
    const long = Object.fromEntries(
      parameters.filter((p) => p.in === 'query').map((p) => [p.name, '9'.repeat(10_000)]),
    );
    cases.push({ label: 'very long query values', query: long });
  }
  return cases;
}

function emptyForm() {
  const form = multipartBody({}, []);
  return { body: form.body, type: form.contentType };
}

/**
 * Percent-encodes every character, lone surrogates included (as WTF-8 bytes, which is what reaches a
 * server from a client that does not check): encodeURIComponent refuses those.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const lone = code >= 0xd800 && code <= 0xdfff;
    const bytes = lone
      ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
      : [...Buffer.from(char, 'utf8')];
    out += /^[A-Za-z0-9_.~-]$/.test(char)
      ? char
      : bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

const STACK_FRAME = /\bat [\w$.<>[\] ]+ \(|\bat (?:file:\/\/)?\/[\w/.-]+:\d+/;
const SOURCE_PATH = /(?:\/[\w.@-]+){2,}\.(?:ts|js|mjs|cjs)\b|node_modules/;

describe('the OpenAPI fuzzer', () => {
  it('gets no 5xx, no stack trace and no logged user data from naughty, huge and malformed input', async () => {
    const failures: string[] = [];
    const inPaths = new Set<string>();
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const [index, { path, method, operation }] of OPERATIONS.entries()) {
      for (const fuzz of casesFor(operation, index)) {
        const hasPathParameter = /\{\w+\}/.test(path);
        if (hasPathParameter && fuzz.path !== undefined) inPaths.add(fuzz.path);
        const search = Object.entries(fuzz.query ?? {})
          .map(([name, value]) => `${name}=${percentEncode(value)}`)
          .join('&');
        const url = `${path.replace(/\{\w+\}/g, percentEncode(fuzz.path ?? randomUUID()))}${search ? `?${search}` : ''}`;
        const headers: Record<string, string> = bearer(token);
        if (fuzz.type) headers['content-type'] = fuzz.type;
        const response = await app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers,
          ...(fuzz.body === undefined ? {} : { payload: fuzz.body }),
        });
        requests++;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const cell = `${method.toUpperCase()} ${path} with ${fuzz.label.slice(0, 60)}`;
        if (response.statusCode >= 500) failures.push(`${cell}: ${response.statusCode} ${response.body.slice(0, 300)}`);
        if (STACK_FRAME.test(response.body) || SOURCE_PATH.test(response.body)) {
          failures.push(`${cell}: shows a stack or a path: ${response.body.slice(0, 300)}`);
        }
      }
    }
    console.info(`longest log line: ${longestLine.length} chars: ${longestLine.slice(0, 600)}`);
    const logged = log.join('');
    // Values that may appear in a log for other reasons: words the log uses anyway, and what was sent
    // as a path parameter (request lines name the path).
    const quoted = NAUGHTY_STRINGS.filter((value) => value.trim().length >= 6 && !inPaths.has(value))
      .filter((value) => !/^[\w-]+$/.test(value))
      .filter((value) => logged.includes(value) || logged.includes(JSON.stringify(value).slice(1, -1)));
    for (const value of quoted) failures.push(`the log quotes ${JSON.stringify(value)}`);
    console.info(`fuzz: ${requests} requests over ${OPERATIONS.length} operations, by status:`, statuses);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(OPERATIONS.length * VALUES_PER_OPERATION);
  }, 240_000);
});
