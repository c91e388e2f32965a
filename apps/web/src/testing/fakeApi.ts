import { vi } from 'vitest';

/** A request the app made: method, path without the /api prefix and query, the query, the JSON body (or the FormData of an upload). */
export type ApiCall = { method: string; path: string; search: URLSearchParams; body: unknown };

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
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (route === undefined) return Response.json({ code: 'NOT_FOUND', message: 'No such route' }, { status: 404 });
    // A Response body can be read once; each call gets its own copy.
    return typeof route === 'function' ? route(call) : route.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key) };
}

export const noContent = (): Response => new Response(null, { status: 204 });
