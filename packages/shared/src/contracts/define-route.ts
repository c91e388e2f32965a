import type { z } from 'zod';

/**
 * Who may call a route:
 * - public: anybody, no token (only under /api/public, and health);
 * - identity: a valid token, whether or not its subject has registered yet (sign-up calls);
 * - read: any member of a workspace;
 * - self: any member, changing only their own account and preferences (names, onboarding progress,
 *   targeting, personas), never the workspace's data;
 * - write: admins and members: a viewer never changes workspace data;
 * - admin: admins only.
 */
export type Access = 'public' | 'identity' | 'read' | 'self' | 'write' | 'admin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The domains of the README's map, one per contracts file; each is its routes' OpenAPI tag. */
export type Domain =
  | 'network'
  | 'intros'
  | 'actions'
  | 'lists'
  | 'team'
  | 'users'
  | 'targeting'
  | 'workspace'
  | 'sources'
  | 'integrations'
  | 'workflows'
  | 'demo'
  | 'public';

/** A success answer without a body (204). */
export type NoContent = { readonly kind: 'no-content' };
export const noContent: NoContent = { kind: 'no-content' };

/** A success answer that is a file to save rather than JSON (the CSV downloads). */
export type FileAnswer = { readonly kind: 'file'; readonly mediaType: string; readonly description: string };
export const fileAnswer = (mediaType: string, description: string): FileAnswer => ({
  kind: 'file',
  mediaType,
  description,
});

/** A success answer sending the browser elsewhere (302, `Location`). */
export type Redirect = { readonly kind: 'redirect'; readonly description: string };
export const redirect = (description: string): Redirect => ({ kind: 'redirect', description });

/**
 * A multipart/form-data body carrying one file: its text fields come first (the server reads them
 * as the body streams in), then the file.
 */
export type Upload = {
  readonly kind: 'upload';
  readonly mediaType: string;
  readonly file: string;
  readonly fields: Readonly<Record<string, string>>;
};
export const upload = (options: { mediaType: string; file: string; fields?: Record<string, string> }): Upload => ({
  kind: 'upload',
  mediaType: options.mediaType,
  file: options.file,
  fields: options.fields ?? {},
});

export type SuccessStatus = 200 | 201 | 202 | 204 | 302;
export type Answer = z.ZodType | NoContent | FileAnswer | Redirect;
/** Failures a route answers besides those its access and input imply, with when they happen. */
export type ErrorStatus = 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429;

type RouteFields = {
  readonly method: HttpMethod;
  /** Under /api, Fastify style (`/imports/query/:id`), exactly as the spec names it. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType | Upload;
  /** The one success answer, by status. */
  readonly responses: { readonly [S in SuccessStatus]?: Answer };
  readonly errors?: { readonly [S in ErrorStatus]?: string };
};

export type RouteContract = RouteFields & {
  /** Unique across the API: the key the route has in its domain's contracts. */
  readonly operationId: string;
  readonly tags: readonly [Domain];
};

/**
 * A domain's routes, each declared once for the server (registration, validation, serialisation,
 * access), the web client (path, input and answer types) and the OpenAPI document. A route's key is
 * its operationId; its domain is its tag.
 */
export function defineRoutes<const D extends Domain, const R extends Record<string, RouteFields>>(
  domain: D,
  routes: R,
): { readonly [K in keyof R & string]: R[K] & { readonly operationId: K; readonly tags: readonly [D] } } {
  return Object.fromEntries(
    Object.entries(routes).map(([operationId, route]) => [operationId, { ...route, operationId, tags: [domain] }]),
  ) as { readonly [K in keyof R & string]: R[K] & { readonly operationId: K; readonly tags: readonly [D] } };
}

/** The status and answer of a route's success. */
export function successOf(contract: RouteContract): { status: SuccessStatus; answer: Answer } {
  const [entry, ...others] = Object.entries(contract.responses);
  if (!entry || others.length > 0) throw new Error(`${contract.operationId} must declare exactly one success answer`);
  const [status, answer] = entry;
  return { status: Number(status) as SuccessStatus, answer: answer as Answer };
}

export function isZodSchema(value: Answer | Upload | undefined): value is z.ZodType {
  return value !== undefined && '_zod' in value;
}

/** A JSON answer in a route's outline, in place of its schema. */
type JsonOutline = { readonly kind: 'json' };

/** A route without its schemas: what a client needs to call it (the path, the method, how it answers). */
export type RouteOutline = Pick<RouteContract, 'operationId' | 'method' | 'path'> & {
  readonly responses: { readonly [S in SuccessStatus]?: Exclude<Answer, z.ZodType> | JsonOutline };
};

/**
 * The route as the web app's production build has it (apps/web/vite.config.ts): the contracts' schemas
 * would bring zod and every schema into the first script, for checks only development makes.
 */
export function outlineOf(contract: RouteContract): RouteOutline {
  const responses = Object.fromEntries(
    Object.entries(contract.responses).map(([status, answer]) => [
      status,
      isZodSchema(answer) ? { kind: 'json' } : answer,
    ]),
  );
  return { operationId: contract.operationId, method: contract.method, path: contract.path, responses };
}

/** How a route answers, from its contract or from its outline (where a JSON answer has no schema). */
export function answerKindOf(answer: Answer): 'json' | Exclude<Answer, z.ZodType>['kind'] {
  return isZodSchema(answer) ? 'json' : answer.kind;
}
