import type { TError, TErrorCode } from '@warmpath/shared';
import { vi } from 'vitest';

/** A request the app made: method, path without the /api prefix and query, the query, the JSON body (or the FormData of an upload). */
export type ApiCall = {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
};

/** A JSON answer, or a function of the request giving one (or a promise of one, to answer late or never). */
export type FakeRoute = Response | ((call: ApiCall) => Response | Promise<Response>);

/**
 * Replaces fetch with a fake API: routes are keyed 'METHOD /path' (no /api prefix, no query).
 * Every call is recorded; an unknown route answers 404.
 */
export function stubApi(routes: Record<string, FakeRoute>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? undefined);
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      search: url.searchParams,
      body,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (route === undefined) return errorAnswer(404, 'NOT_FOUND', 'No such route');
    // A Response body can be read once; each call gets its own copy.
    return typeof route === 'function' ? route(call) : route.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', fakeXhrClass(fetchMock));
  return { calls, callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key) };
}

export const noContent = (): Response => new Response(null, { status: 204 });

/** The server's refusal: a catalogue code (checked by type) and its message, under the status the server gives it. */
export const errorAnswer = (status: number, code: TErrorCode, message: string): Response =>
  Response.json({ code, message } satisfies TError, { status });

type ProgressHandler = ((event: { loaded: number; total: number }) => void) | null;

/**
 * XMLHttpRequest (what uploads go through, for their progress) answered by the same routes: the body
 * counts as sent in one progress event, then the route answers.
 */
function fakeXhrClass(fetchMock: (input: string, init: RequestInit) => Promise<Response>) {
  return class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ProgressHandler } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private aborted = false;
    private responseHeaders = new Headers();

    open(method: string, url: string): void {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string): void {
      this.headers[name] = value;
    }

    getResponseHeader(name: string): string | null {
      return this.responseHeaders.get(name);
    }

    abort(): void {
      this.aborted = true;
      this.onabort?.();
    }

    send(body: FormData | null): void {
      const file = body?.get('file');
      const size = file instanceof Blob ? file.size : 0;
      void (async () => {
        this.upload.onprogress?.({ loaded: size, total: size });
        const response = await fetchMock(this.url, {
          method: this.method,
          headers: this.headers,
          body: body ?? undefined,
        });
        if (this.aborted) return;
        this.status = response.status;
        this.responseHeaders = response.headers;
        this.responseText = await response.text();
        this.onload?.();
      })();
    }
  };
}
