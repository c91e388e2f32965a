import { z } from 'zod';
import { eventComponentName, WEBHOOK_EVENT_TYPES } from '../events.ts';
import { ZError } from '../schemas/common.ts';
import { API_COMPONENTS } from './components.ts';
import {
  type Access,
  type Domain,
  type ErrorStatus,
  isZodSchema,
  type RouteContract,
  successOf,
  type Upload,
} from './define-route.ts';
import { API_CONTRACTS } from './index.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type OpenApiDocument = JsonObject;

const DOMAINS: Record<Domain, string> = {
  network: 'The network table, its filters, report cards, proximity explanations and CSV export',
  intros: 'Asking a connector for an intro, messaging a prospect, thanking a connector',
  actions: 'The daily recommended actions, and the past, pending and skipped ones',
  lists: 'Accounts, clients and allies, CRM customers, and the CSV imports that fill them',
  team: 'Teammates, roles and invitations',
  users: 'The signed-in user: who they are, registration, onboarding progress',
  targeting: 'Targeting schemes and personas',
  workspace: "The workspace's settings",
  sources: "Where the network comes from: the member's Google account and LinkedIn export",
  integrations: "Where the product's events go: the webhook, the team chat and the CRM",
  workflows: 'The workflow agents, which push the signals they listen to, and what they did',
  demo: "A member's demo workspace of made-up data, opened from the app and acted in with the x-warmpath-workspace: demo header",
  public: 'What answers without a token',
};

const ACCESS: Record<Access, string> = {
  public: 'Anybody, without a token.',
  identity: 'Any valid token, whether or not its holder has registered yet.',
  read: 'Any member of the workspace.',
  self: "Any member, changing only their own account and preferences, never the workspace's data.",
  write: 'Admins and members (never viewers).',
  admin: 'Admins only.',
};

const SUCCESS_REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found',
};

const COMPONENT_REF = '#/components/schemas/';
const ref = (id: string): JsonObject => ({ $ref: `${COMPONENT_REF}${id}` });
const errorAnswer = (description: string): JsonObject => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/** Answers every route may give, by its access and whether it reads input; referenced, not repeated. */
const COMMON_ERRORS = {
  BadRequest: errorAnswer('The request is invalid; the message names the first field at fault'),
  Unauthorized: errorAnswer('No bearer token, or an invalid or expired one'),
  Forbidden: errorAnswer('The caller is not a member of a workspace, or their role does not allow this'),
  Unexpected: errorAnswer('Any other failure: 500 for an internal error'),
} satisfies Record<string, JsonObject>;
const commonError = (name: keyof typeof COMMON_ERRORS): JsonObject => ({ $ref: `#/components/responses/${name}` });

/**
 * The OpenAPI 3.1 document of the product's API, from its contracts alone (no server, no database).
 * Schemas are JSON Schema 2020-12 as zod writes them; a shared schema whose request form differs
 * from its answer form (defaults, transforms) gets a second component, `<Name>Input`.
 */
export function buildOpenApiDocument(
  contracts: readonly RouteContract[] = API_CONTRACTS,
  components: Readonly<Record<string, z.ZodType>> = API_COMPONENTS,
): OpenApiDocument {
  // Every error answer refers to `Error`, whatever else is named.
  const schemas = convertSchemas(contracts, { Error: ZError, ...components });
  const paths: Record<string, JsonObject> = {};
  for (const contract of contracts) {
    const path = `/api${contract.path.replace(/:(\w+)/g, '{$1}')}`;
    paths[path] = { ...paths[path], [contract.method.toLowerCase()]: operation(contract, schemas) };
  }
  const webhooks = eventWebhooks(components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Warmpath API',
      version: '1.0.0',
      description:
        'Warm introductions for B2B sales and partnership teams. Every failure answers `{ code, message }` (the `Error` schema).',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(DOMAINS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: reachableComponents([paths, COMMON_ERRORS, webhooks], schemas.components),
      responses: COMMON_ERRORS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

/**
 * What the product sends to a workspace's webhook endpoint, one entry per event type: a POST of
 * `{ type, timestamp, data }`, signed per Standard Webhooks; any 2xx answer counts as delivered.
 */
function eventWebhooks(components: Readonly<Record<string, z.ZodType>>): JsonObject {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.filter((type) => eventComponentName(type) in components).map((type) => [
      type,
      {
        post: {
          operationId: `on${eventComponentName(type)}`,
          summary: `The ${type} event`,
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}${eventComponentName(type)}` } } },
          },
          responses: { '2XX': { description: 'Received; any other answer is retried on the schedule' } },
        },
      },
    ]),
  );
}

function operation(contract: RouteContract, schemas: ConvertedSchemas): JsonObject {
  const { status } = successOf(contract);
  const parameters = [...parametersOf(contract, 'params', schemas), ...parametersOf(contract, 'query', schemas)];
  const responses: JsonObject = { [status]: successAnswer(contract, status, schemas) };
  if (parameters.length > 0 || contract.body) responses[400] = commonError('BadRequest');
  if (contract.access !== 'public') responses[401] = commonError('Unauthorized');
  if (contract.access !== 'public' && contract.access !== 'identity') responses[403] = commonError('Forbidden');
  for (const [code, description] of Object.entries(contract.errors ?? {}) as [`${ErrorStatus}`, string][]) {
    responses[code] = errorAnswer(description);
  }
  responses.default = commonError('Unexpected');

  const result: JsonObject = {
    operationId: contract.operationId,
    summary: contract.summary,
    description: [contract.description, `Access: ${ACCESS[contract.access]}`].filter(Boolean).join('\n\n'),
    tags: [...contract.tags],
    security: contract.access === 'public' ? [] : [{ bearer: [] }],
  };
  if (parameters.length > 0) result.parameters = parameters;
  if (contract.body) result.requestBody = requestBody(contract, contract.body, schemas);
  result.responses = responses;
  result['x-access'] = contract.access;
  return result;
}

function successAnswer(contract: RouteContract, status: number, schemas: ConvertedSchemas): JsonObject {
  const { answer } = successOf(contract);
  if (isZodSchema(answer)) {
    return {
      description: SUCCESS_REASONS[status] ?? 'Success',
      content: { 'application/json': { schema: schemas.output(contract, 'response') } },
    };
  }
  switch (answer.kind) {
    case 'no-content':
      return { description: 'No content' };
    case 'file':
      return {
        description: answer.description,
        headers: {
          'Content-Disposition': { description: 'attachment, with the file name', schema: { type: 'string' } },
        },
        content: { [answer.mediaType]: { schema: { type: 'string', contentMediaType: answer.mediaType } } },
      };
    case 'redirect':
      return {
        description: answer.description,
        headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
      };
  }
}

function requestBody(contract: RouteContract, body: z.ZodType | Upload, schemas: ConvertedSchemas): JsonObject {
  if (isZodSchema(body)) {
    return { required: true, content: { 'application/json': { schema: schemas.input(contract, 'body') } } };
  }
  const properties: JsonObject = {};
  for (const [name, description] of Object.entries(body.fields)) properties[name] = { type: 'string', description };
  properties.file = { type: 'string', contentMediaType: body.mediaType, description: body.file };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', properties, required: ['file'] },
        encoding: { file: { contentType: body.mediaType } },
      },
    },
  };
}

function parametersOf(contract: RouteContract, where: 'params' | 'query', schemas: ConvertedSchemas): JsonObject[] {
  if (!contract[where]) return [];
  const object = schemas.input(contract, where);
  const properties = isObject(object.properties) ? object.properties : {};
  const required = Array.isArray(object.required) ? object.required : [];
  return Object.entries(properties).map(([name, schema]) => {
    const parameter: JsonObject = {
      name,
      in: where === 'params' ? 'path' : 'query',
      required: where === 'params' || required.includes(name),
      schema,
    };
    if (isObject(schema) && typeof schema.description === 'string') parameter.description = schema.description;
    return parameter;
  });
}

type Part = 'params' | 'query' | 'body' | 'response';
type ConvertedSchemas = {
  input: (contract: RouteContract, part: Part) => JsonObject;
  output: (contract: RouteContract, part: Part) => JsonObject;
  /** Components by name, the request forms that differ under `<Name>Input`. */
  components: Record<string, JsonObject>;
};

/**
 * Converts every schema of the contracts in one pass per direction, so that the shared ones become
 * `$ref`s to their components: zod's registry conversion names a schema by its id in the registry.
 */
function convertSchemas(
  contracts: readonly RouteContract[],
  components: Readonly<Record<string, z.ZodType>>,
): ConvertedSchemas {
  const registry = z.registry<{ id: string }>();
  const idOf = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(components)) {
    registry.add(schema, { id });
    idOf.set(schema, id);
  }
  // An operation's own schema (not a component) gets a private id, resolved back inline below.
  const partIds = new Map<string, string>();
  let counter = 0;
  const partKey = (contract: RouteContract, part: Part) => `${contract.operationId}:${part}`;
  for (const contract of contracts) {
    const body = contract.body && isZodSchema(contract.body) ? contract.body : undefined;
    const { answer } = successOf(contract);
    const parts: [Part, z.ZodType | undefined][] = [
      ['params', contract.params],
      ['query', contract.query],
      ['body', body],
      ['response', isZodSchema(answer) ? answer : undefined],
    ];
    for (const [part, schema] of parts) {
      if (!schema) continue;
      let id = idOf.get(schema);
      if (!id) {
        id = `~${counter++}`;
        registry.add(schema, { id });
        idOf.set(schema, id);
      }
      partIds.set(partKey(contract, part), id);
    }
  }

  const convert = (io: 'input' | 'output') => {
    const { schemas } = z.toJSONSchema(registry, {
      io,
      target: 'draft-2020-12',
      uri: (id) => `${COMPONENT_REF}${id}`,
      // Request-only schemas (transforms) are converted for answers too, and never used there.
      unrepresentable: io === 'output' ? 'any' : 'throw',
    });
    const result: Record<string, JsonObject> = {};
    for (const [id, schema] of Object.entries(schemas)) {
      const { $schema: _schema, $id: _id, ...rest } = schema as JsonObject;
      result[id] = io === 'output' ? withoutClosedObjects(rest) : rest;
    }
    return result;
  };
  const input = convert('input');
  const output = convert('output');
  const partId = (contract: RouteContract, part: Part) => {
    const id = partIds.get(partKey(contract, part));
    if (!id) throw new Error(`${contract.operationId} has no ${part} schema`);
    return id;
  };
  const inputParts: Part[] = ['params', 'query', 'body'];
  const roots = (parts: readonly Part[]) =>
    contracts.flatMap((contract) => parts.flatMap((part) => partIds.get(partKey(contract, part)) ?? []));
  const inRequests = reachable(roots(inputParts), input);
  const inAnswers = reachable(roots(['response']), output);

  // A component used by requests and answers whose request form differs (defaults, transforms) keeps
  // both forms, the request's as `<Name>Input`. Each side's private schemas are inlined where used.
  const renamed = new Set(
    Object.keys(components).filter(
      (id) => inRequests.has(id) && inAnswers.has(id) && JSON.stringify(input[id]) !== JSON.stringify(output[id]),
    ),
  );
  const inputRefs = (value: Json): Json =>
    mapRefs(value, (id) =>
      id.startsWith('~') ? inputRefs(input[id] ?? {}) : ref(renamed.has(id) ? `${id}Input` : id),
    );
  const outputRefs = (value: Json): Json =>
    mapRefs(value, (id) => (id.startsWith('~') ? outputRefs(output[id] ?? {}) : ref(id)));

  const all: Record<string, JsonObject> = {};
  for (const id of Object.keys(components)) {
    const requestOnly = inRequests.has(id) && !inAnswers.has(id);
    all[id] = (requestOnly ? inputRefs(input[id] ?? {}) : outputRefs(output[id] ?? {})) as JsonObject;
    if (renamed.has(id)) all[`${id}Input`] = inputRefs(input[id] ?? {}) as JsonObject;
  }
  return {
    input: (contract, part) => inputRefs(ref(partId(contract, part))) as JsonObject,
    output: (contract, part) => outputRefs(ref(partId(contract, part))) as JsonObject,
    components: all,
  };
}

/** The ids `roots` use, directly or through each other. */
function reachable(roots: readonly string[], schemas: Record<string, JsonObject>): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    mapRefs(schemas[id] ?? {}, (child) => {
      visit(child);
      return null;
    });
  };
  roots.forEach(visit);
  return seen;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replaces every `$ref` to a converted schema by what `replace` makes of its id. */
function mapRefs(value: Json, replace: (id: string) => Json): Json {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, replace));
  if (!isObject(value)) return value;
  if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_REF)) {
    const { $ref, ...siblings } = value;
    const replaced = replace($ref.slice(COMPONENT_REF.length));
    return Object.keys(siblings).length === 0
      ? replaced
      : { ...(mapRefs(siblings, replace) as JsonObject), allOf: [replaced] };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapRefs(item, replace)]));
}

/**
 * Answers are serialised through their schema, so no other property ever leaves; saying it with
 * `additionalProperties: false` on every answer would only make each request form differ from it.
 */
function withoutClosedObjects(value: Json): JsonObject {
  const strip = (item: Json): Json => {
    if (Array.isArray(item)) return item.map(strip);
    if (!isObject(item)) return item;
    return Object.fromEntries(
      Object.entries(item)
        .filter(([key, child]) => !(key === 'additionalProperties' && child === false && item.type === 'object'))
        .map(([key, child]) => [key, strip(child)]),
    );
  };
  return strip(value) as JsonObject;
}

/** The components the paths use, directly or through other components, in name order. */
function reachableComponents(roots: Json, all: Record<string, JsonObject>): Record<string, JsonObject> {
  const used = new Set<string>();
  const visit = (value: Json) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_REF)) {
        const id = value.$ref.slice(COMPONENT_REF.length);
        if (!used.has(id)) {
          used.add(id);
          visit(all[id] ?? null);
        }
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(roots);
  return Object.fromEntries(
    [...used].sort().map((id) => {
      const schema = all[id];
      if (!schema) throw new Error(`The document refers to an unknown component ${id}`);
      return [id, schema];
    }),
  );
}
