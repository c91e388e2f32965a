import {
  API_CONTRACTS,
  isSafeText,
  isZodSchema,
  type RouteContract,
  UNSAFE_TEXT_MESSAGE,
  withSafeText,
} from '@warmpath/shared';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's contract in packages/shared, set by `route`. */
    contract?: RouteContract;
  }
}

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type ZodOf<T> = T extends z.ZodType ? T : undefined;

/** The Fastify schema a contract makes: what validates the request and serialises the answer. */
export type ContractSchema<C extends RouteContract> = {
  params: ZodOf<C['params']>;
  querystring: ZodOf<C['query']>;
  body: ZodOf<C['body']>;
  response: { [S in keyof C['responses'] as C['responses'][S] extends z.ZodType ? S : never]: C['responses'][S] };
};

/** A handler whose request and reply are typed by its contract. */
export type ContractHandler<C extends RouteContract> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  ContractSchema<C>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/**
 * Registers a route from its contract: method, path, validation of params, query and body (each
 * string first by the shared text rule, packages/shared/src/schemas/text.ts),
 * serialisation of the answer, and who may call it. Only the handler is the server's own.
 */
export function route<C extends RouteContract>(app: ZodApp, contract: C, handler: ContractHandler<C>): void {
  // Every string sent passes the shared rule first (no NUL, no unpaired surrogate): 400 naming the field.
  const schema: FastifySchema = {};
  if (contract.params) schema.params = withSafeText(contract.params);
  if (contract.query) schema.querystring = withSafeText(contract.query);
  if (contract.body && isZodSchema(contract.body)) schema.body = withSafeText(contract.body);
  const response = Object.entries(contract.responses).filter(([, answer]) => isZodSchema(answer));
  if (response.length > 0) schema.response = Object.fromEntries(response);
  app.route({
    method: contract.method,
    url: contract.path,
    schema,
    config: { access: contract.access, contract },
    // The schema built above is the one ContractSchema<C> describes, which Fastify cannot see through.
    handler: handler as RouteHandlerMethod,
  });
}

const declared = new Set(API_CONTRACTS);

/**
 * An onRoute hook for the API's scope: a route registered without a declared contract does not
 * start, so the OpenAPI document and the web client can never miss one.
 */
export function assertRouteHasContract(routeOptions: RouteOptions): void {
  const contract = routeOptions.config?.contract;
  const method = routeOptions.method === 'HEAD' ? 'GET' : routeOptions.method;
  if (!contract || !declared.has(contract) || contract.method !== method) {
    throw new Error(`Route ${String(routeOptions.method)} ${routeOptions.url} has no contract in packages/shared`);
  }
}

/**
 * The shared text rule for what a multipart body carries outside the contract's schemas: its text
 * fields and the uploaded file's name. Refused as a schema would refuse them: 400 naming the field.
 */
export function assertSafeText(field: string, value: string): void {
  if (!isSafeText(value)) throw new AppError('VALIDATION_FAILED', `${field}: ${UNSAFE_TEXT_MESSAGE}`);
}
