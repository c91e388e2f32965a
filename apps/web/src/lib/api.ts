import {
  answerKindOf,
  isErrorCode,
  isZodSchema,
  publicApi,
  type RouteContract,
  successOf,
  type TErrorCode,
  type Upload,
} from '@warmpath/shared';
import { z } from 'zod';
import { setAppStatus } from './appStatus.ts';
import { demoHeaders } from './demoMode.ts';

const API_BASE = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Codes of failures the server did not describe: calls that never reached it (spec section 8), and
 * answers that are not the API's `{ code, message }` (a proxy's error page, or a code newer than this
 * build, whose message is still shown).
 */
export const CLIENT_ERROR_CODES = {
  network: 'ERR_NETWORK',
  timeout: 'ECONNABORTED',
  unexpected: 'UNEXPECTED_RESPONSE',
} as const;

export type TApiErrorCode = TErrorCode | (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/**
 * A failed call: what went wrong as a code, which the app decides on, and a message to show. No HTTP
 * status: the server maps its codes to statuses, and the app never reasons from one.
 */
export class ApiError extends Error {
  readonly code: TApiErrorCode;
  /** How long the server asked to wait before asking again (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | null;

  constructor(code: TApiErrorCode, message: string, retryAfterMs: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Whether a failure is one of these codes (any other error, a bug in the app, is none of them). */
export function hasErrorCode(error: unknown, ...codes: readonly TApiErrorCode[]): boolean {
  return error instanceof ApiError && codes.includes(error.code);
}

const TRANSIENT_ERROR_CODES: readonly TApiErrorCode[] = [
  CLIENT_ERROR_CODES.network,
  CLIENT_ERROR_CODES.timeout,
  CLIENT_ERROR_CODES.unexpected,
  'INTERNAL',
  // The server refused before doing anything, its pool full: a read asked again a moment later succeeds.
  'SERVER_BUSY',
];

/** Whether asking again may succeed: a refusal will not change, a network or server failure (or a bug of ours) might. */
export function isTransientFailure(error: unknown): boolean {
  return !(error instanceof ApiError) || hasErrorCode(error, ...TRANSIENT_ERROR_CODES);
}

/** The longest wait before a read is asked again, whatever `Retry-After` says: the page is open. */
const MAX_RETRY_DELAY_MS = 10_000;

/** When to ask again: when the server said (`Retry-After`), else React Query's doubling from 1 s. */
export function retryDelayMs(failureCount: number, error: unknown): number {
  const asked = error instanceof ApiError ? error.retryAfterMs : null;
  return Math.min(asked ?? 1000 * 2 ** failureCount, MAX_RETRY_DELAY_MS);
}

/**
 * The error body as read (the contract's ZError with whatever code, so that one this build does not know
 * yet still brings its message). Checked by hand: zod is not in the first script (issue 26).
 */
function readErrorAnswer(payload: unknown): { code: string; message: string } | null {
  if (typeof payload !== 'object' || payload === null) return null;
  if (!('code' in payload) || !('message' in payload)) return null;
  const { code, message } = payload;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

/** The contract's ZHealth, checked by hand as the error body is. */
function isHealthy(payload: unknown): boolean {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    'status' in payload &&
    payload.status === 'ok' &&
    'database' in payload &&
    payload.database === 'ok'
  );
}

type AccessTokenProvider = () => Promise<string>;
let accessTokenProvider: AccessTokenProvider | null = null;

/** Installed by the auth provider once the identity provider's settings are known. */
export function setAccessTokenProvider(provider: AccessTokenProvider | null): void {
  accessTokenProvider = provider;
}

type RequestOptions = {
  /** Path under /api, as pathOf builds it from a contract. */
  path: string;
  method?: HttpMethod;
  /** Sent as JSON, or as multipart/form-data when it is a FormData. */
  body?: unknown;
  /** The spec's gateway message for this call, shown instead of the server's. */
  errorMessage?: string;
  /** Show the server's message when it sent one (invite, create-user, update-workspace calls). */
  preferServerMessage?: boolean;
  signal?: AbortSignal;
};

/** The public routes (sign-up's, a share link's) take no token. */
const isPublic = (request: RequestOptions) => request.path.includes('/public/');

/** `schema` checks the answer while developing; production trusts the server and its build has none. */
export type ApiRequest<T> = RequestOptions & { schema?: z.ZodType<T> };

/** A call answering with a file rather than JSON (the CSV export); `accept` is the file's media type. */
export type ApiFileRequest = RequestOptions & { accept: string };

/** A path with its query string; absent and empty values are left out. */
export function withSearchParams(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** The one way the web app calls the API. No time-out, by the spec. */
export async function apiRequest<T>(request: ApiRequest<T>): Promise<T> {
  const response = await send(request, 'application/json');
  const payload = await readJson(response);
  // Responses are checked against the shared contract while developing; production trusts the server.
  return import.meta.env.DEV && request.schema ? request.schema.parse(payload) : (payload as T);
}

/** A call whose answer is a file: the same authorization and failures as apiRequest, the body as a Blob. */
export async function apiFileRequest(request: ApiFileRequest): Promise<Blob> {
  const response = await send(request, request.accept);
  return response.blob();
}

/** How much of an upload's body has gone out. */
export type UploadProgress = { loaded: number; total: number };

export type ApiUploadRequest<T> = Omit<RequestOptions, 'method' | 'body'> & {
  body: FormData;
  schema?: z.ZodType<T>;
  onProgress?: (progress: UploadProgress) => void;
};

/**
 * A multipart POST that reports the bytes sent as they go (a CSV of up to 1GB): XMLHttpRequest, since
 * fetch cannot tell an upload's progress. Same authorization, failures and checks as apiRequest.
 */
export async function apiUpload<T>(request: ApiUploadRequest<T>): Promise<T> {
  const url = `${API_BASE}${request.path}`;
  const token = isPublic(request) ? null : await accessToken(request);
  const { status, payload, retryAfter } = await new Promise<{
    status: number;
    payload: unknown;
    retryAfter: string | null;
  }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token !== null) {
      xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      for (const [name, value] of Object.entries(demoHeaders())) xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => request.onProgress?.({ loaded: event.loaded, total: event.total });
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        payload: parseJson(xhr.responseText),
        retryAfter: xhr.getResponseHeader('Retry-After'),
      });
    xhr.onerror = () => reject(networkFailure(new TypeError('Network request failed'), request));
    xhr.ontimeout = () => reject(networkFailure(new DOMException('Timed out', 'TimeoutError'), request));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });
  setAppStatus({ offline: false });
  if (status < 200 || status >= 300) throw failure(status, payload, request, retryAfter);
  return import.meta.env.DEV && request.schema ? request.schema.parse(payload) : (payload as T);
}

/** The fetch of a call: its headers (authorization with `token`, unless public) and its body. */
function requestInit(request: RequestOptions, accept: string, token: string | null): RequestInit {
  // A failure still answers JSON ({ code, message }), whatever a success answers.
  const headers: Record<string, string> = {
    Accept: accept === 'application/json' ? accept : `${accept}, application/json`,
  };
  // A multipart body (a file upload) sets its own content type, boundary included.
  const multipart = request.body instanceof FormData;
  if (request.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (token !== null) {
    headers.Authorization = `Bearer ${token}`;
    Object.assign(headers, demoHeaders());
  }
  return {
    method: request.method ?? 'GET',
    headers,
    body: request.body instanceof FormData ? request.body : encodeJson(request.body),
    signal: request.signal,
  };
}

/** Calls started before the app was (startEarly), by method, path and body: each is taken once. */
const earlyCalls = new Map<string, Promise<Response>>();
/** How long an early call waits for the app to ask for it: past that, the page asked for something else. */
const EARLY_CALL_KEPT_MS = 15_000;
const earlyCallKey = (request: RequestOptions) =>
  `${request.method ?? 'GET'} ${request.path} ${encodeJson(request.body) ?? ''}`;

/**
 * Starts a call the first page is about to make, with the stored sign-in's token, from the app's first
 * script (app/firstCalls.ts): its answer is on the way while the rest of the app loads, the sign-in is
 * set up and React draws (issue 26: on /network each of those waits was the next one's start). The
 * app's own call of the same method, path and body takes it instead of asking again.
 */
export function startEarly<C extends RouteContract>(contract: C, input: CallInput<C>, token: string): Promise<unknown> {
  const request = requestOf(contract, input);
  const key = earlyCallKey(request);
  const response = fetch(`${API_BASE}${request.path}`, requestInit(request, 'application/json', token));
  // Its failure is the app's call's to report, which then asks again itself.
  response.catch(() => {});
  earlyCalls.set(key, response);
  setTimeout(() => {
    if (earlyCalls.get(key) === response) earlyCalls.delete(key);
  }, EARLY_CALL_KEPT_MS);
  return response.catch(() => null);
}

/** The early call for this request, taken (once), if one was started and answered it well. */
async function takeEarly(request: RequestOptions): Promise<Response | null> {
  // Every call passes here: its body is not serialised again for a key once the early calls are taken.
  if (earlyCalls.size === 0) return null;
  const key = earlyCallKey(request);
  const early = earlyCalls.get(key);
  if (early === undefined) return null;
  earlyCalls.delete(key);
  // Anything but a success (an expired or revoked token, a busy server) is asked again as usual.
  const response = await early.catch(() => null);
  return response?.ok ? response : null;
}

async function send(request: RequestOptions, accept: string): Promise<Response> {
  const url = `${API_BASE}${request.path}`;
  const token = isPublic(request) ? null : await accessToken(request);
  let response: Response;
  try {
    response = (await takeEarly(request)) ?? (await fetch(url, requestInit(request, accept, token)));
  } catch (error) {
    throw networkFailure(error, request);
  }
  setAppStatus({ offline: false });
  if (!response.ok) {
    throw failure(response.status, await readJson(response), request, response.headers.get('Retry-After'));
  }
  return response;
}

/** Asks the backend whether it is up; the app replaces its routes with the spec's message when it is not. */
export async function checkBackendHealth(): Promise<boolean> {
  let up = false;
  try {
    const response = await fetch(`${API_BASE}${publicApi.getHealth.path}`, { headers: { Accept: 'application/json' } });
    up = response.ok && isHealthy(await readJson(response));
  } catch {
    up = false;
  }
  setAppStatus({ backendServerDown: !up });
  return up;
}

function encodeJson(body: unknown): string | undefined {
  return body === undefined ? undefined : JSON.stringify(body);
}

async function accessToken(request: RequestOptions): Promise<string> {
  try {
    if (!accessTokenProvider) throw new Error('No identity provider configured');
    return await accessTokenProvider();
  } catch {
    throw new ApiError('UNAUTHENTICATED', request.errorMessage ?? 'You are not signed in');
  }
}

function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string'
    ? error.name
    : undefined;
}

function networkFailure(error: unknown, request: RequestOptions): unknown {
  const name = errorName(error);
  // A caller that cancels its own request (a query unmounting) has not lost the network.
  if (name === 'AbortError') return error;
  setAppStatus({ offline: true });
  if (navigator.onLine) void checkBackendHealth();
  const code = name === 'TimeoutError' ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.network;
  return new ApiError(code, request.errorMessage ?? 'Network Error');
}

async function readJson(response: Response): Promise<unknown> {
  return parseJson(await response.text());
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return null;
  }
}

function failure(status: number, payload: unknown, request: RequestOptions, retryAfter: string | null): ApiError {
  const body = readErrorAnswer(payload);
  const serverMessage = body?.message;
  const shownServerMessage = request.preferServerMessage || !request.errorMessage ? serverMessage : undefined;
  const message = shownServerMessage ?? request.errorMessage ?? `Request failed with status ${status}`;
  const code = body && isErrorCode(body.code) ? body.code : CLIENT_ERROR_CODES.unexpected;
  const retryAfterSeconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  return new ApiError(code, message, Number.isFinite(retryAfterSeconds) ? retryAfterSeconds * 1000 : null);
}

// Calls by contract --------------------------------------------------------------------------------
// The web app names a route by its contract in packages/shared, never by a path of its own: the
// path, the method, the input's types and the answer's schema all come from the contract.

type QueryValue = string | number | undefined;
type ParamsOf<P extends z.ZodType> = { [K in keyof z.input<P>]: string };
/** A query's values as the URL carries them; a coerced number accepts a number or its text. */
type QueryOf<Q extends z.ZodType> = {
  [K in keyof z.input<Q>]: unknown extends z.input<Q>[K] ? QueryValue : Extract<z.input<Q>[K], QueryValue>;
};

type ParamsInput<C extends RouteContract> = C['params'] extends z.ZodType
  ? { params: ParamsOf<C['params']> }
  : { params?: undefined };
type QueryInput<C extends RouteContract> = C['query'] extends z.ZodType
  ? Record<never, never> extends QueryOf<C['query']>
    ? { query?: QueryOf<C['query']> }
    : { query: QueryOf<C['query']> }
  : { query?: undefined };
/** A body is only serialised: read-only arrays and objects are as good as the schema's mutable ones. */
type Sendable<T> = T extends readonly (infer Item)[]
  ? readonly Sendable<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: Sendable<T[K]> }
    : T;
type BodyInput<C extends RouteContract> = C['body'] extends z.ZodType
  ? { body: Sendable<z.input<C['body']>> }
  : C['body'] extends Upload
    ? { body: FormData }
    : { body?: undefined };

/** What a call by contract sends, and how its failure reads (as for apiRequest). */
export type CallInput<C extends RouteContract> = ParamsInput<C> &
  QueryInput<C> &
  BodyInput<C> &
  Pick<RequestOptions, 'errorMessage' | 'preferServerMessage' | 'signal'>;

type Success<C extends RouteContract> = C['responses'][keyof C['responses']];
/** The parsed answer of a JSON route; null for one answering no content. */
export type AnswerOf<C extends RouteContract> = Success<C> extends z.ZodType ? z.output<Success<C>> : null;

/** No argument is needed when nothing in the input is. */
type OptionalWhenEmpty<T> = Record<never, never> extends T ? [input?: T] : [input: T];

type PathInput = { params?: Record<string, string>; query?: Record<string, QueryValue> };
/** Any contract's input, as the calls below read it. */
type AnyInput = PathInput & { body?: unknown } & Pick<
    RequestOptions,
    'errorMessage' | 'preferServerMessage' | 'signal'
  >;

/** The contract's path with its params substituted (encoded) and its query appended. */
export function pathOf(contract: RouteContract, { params, query }: PathInput = {}): string {
  const path = contract.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${contract.operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return query ? withSearchParams(path, query) : path;
}

function requestOf(contract: RouteContract, input: AnyInput): RequestOptions {
  return {
    path: pathOf(contract, input),
    method: contract.method,
    body: input.body,
    errorMessage: input.errorMessage,
    preferServerMessage: input.preferServerMessage,
    signal: input.signal,
  };
}

/** Calls a JSON route (or one answering no content) through its contract. */
export function callApi<C extends RouteContract>(
  contract: C,
  ...[input]: OptionalWhenEmpty<CallInput<C>>
): Promise<AnswerOf<C>> {
  const { answer } = successOf(contract);
  // Only development has the schemas: the production build calls by the contracts' outlines
  // (vite.config.ts), and this branch and zod are left out of it.
  const schema = import.meta.env.DEV ? (isZodSchema(answer) ? answer : z.null()) : undefined;
  // The answer's schema is the contract's own, so its output is AnswerOf<C>; TypeScript cannot see
  // through the conditional type.
  return apiRequest({ ...requestOf(contract, input ?? {}), schema }) as Promise<AnswerOf<C>>;
}

/** Calls a route answering a file (a CSV download) through its contract. */
export function downloadFromApi<C extends RouteContract>(
  contract: C,
  ...[input]: OptionalWhenEmpty<CallInput<C>>
): Promise<Blob> {
  const { answer } = successOf(contract);
  if (isZodSchema(answer) || answer.kind !== 'file') throw new Error(`${contract.operationId} answers no file`);
  return apiFileRequest({ ...requestOf(contract, input ?? {}), accept: answer.mediaType });
}

/** Uploads a file to a multipart route through its contract, reporting the bytes sent. */
export function uploadToApi<C extends RouteContract & { readonly body: Upload }>(
  contract: C,
  input: CallInput<C> & { body: FormData; onProgress?: (progress: UploadProgress) => void },
): Promise<AnswerOf<C>> {
  const { answer } = successOf(contract);
  if (answerKindOf(answer) !== 'json') throw new Error(`${contract.operationId} answers no JSON`);
  const schema = import.meta.env.DEV && isZodSchema(answer) ? answer : undefined;
  const { method: _method, ...request } = requestOf(contract, input);
  return apiUpload({ ...request, body: input.body, schema, onProgress: input.onProgress }) as Promise<AnswerOf<C>>;
}
