import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import type { Role } from '@warmpath/shared';

/**
 * The benches' users: the calls of the product's pages, a person's pauses, and the HTTP client that
 * times the answers. Nothing of the server is imported here: the scale bench runs its users in a
 * process of their own (users-process.ts), whose heap holds the client's work alone: beside the
 * server's modules and the bench's own, the client's collections marked 140 to 170 MB about 85 times
 * a window, and it took 4 to 11 of the machine's 120 core-seconds, more in the two-process window.
 */

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const heapUsedMb = () => round(process.memoryUsage().heapUsed / 2 ** 20);

/**
 * The second run's pause between a user's calls (uniform between half and one and a half of it): a
 * person reads a page before the next click. The first run has none: every user always has a request
 * in flight, the server's capacity.
 */
export const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);

/** A person's pause after a call: uniform between half and one and a half of `thinkMs` (none at 0). */
export function personPause(thinkMs: number) {
  if (thinkMs <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())));
}

/** A call drawn from a role's mix by the calls' weights. */
export function routePicker(routes: Call[]) {
  const total = routes.reduce((sum, call) => sum + call.weight, 0);
  return () => {
    let left = Math.random() * total;
    for (const call of routes) {
      left -= call.weight;
      if (left < 0) return call;
    }
    return routes[0] as Call;
  };
}

export type Call = { name: string; method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown; weight: number };
export type Ids = { prospectId: string; accountIds: string[] };

/**
 * Only these routes of the mix (BENCH_ROUTES, names separated by commas), when set: `health` alone is
 * the floor, what a database round trip costs under the same load and background work.
 */
const ONLY_ROUTES = process.env.BENCH_ROUTES?.split(',').map((name) => name.trim());

/** The calls of each page (BENCH_ROUTES of them, if set), weighted by how often a page is opened and how many calls it makes. */
export function calls(ids: Ids, role: Role): Call[] {
  const all = pageCalls(ids, role);
  return ONLY_ROUTES ? all.filter((call) => ONLY_ROUTES.includes(call.name)) : all;
}

function pageCalls(ids: Ids, role: Role): Call[] {
  const filters = { filters: [] };
  const everyone: Call[] = [
    { name: 'health', method: 'GET', path: '/api/health', weight: 3 },
    { name: 'me', method: 'GET', path: '/api/users/query/me', weight: 10 },
    { name: 'network page', method: 'POST', path: '/api/contacts/query?page=1&pageSize=25', body: filters, weight: 12 },
    {
      name: 'network page 4',
      method: 'POST',
      path: '/api/contacts/query?page=4&pageSize=25',
      body: filters,
      weight: 3,
    },
    { name: 'network filters', method: 'POST', path: '/api/contacts/query/filters', body: filters, weight: 6 },
    { name: 'report cards', method: 'GET', path: '/api/contacts/query/network-report-cards', weight: 6 },
    {
      name: 'proximity explanation',
      method: 'GET',
      path: `/api/contacts/query/proximity-explanation?prospectId=${ids.prospectId}`,
      weight: 2,
    },
    {
      name: 'recommended actions',
      method: 'POST',
      path: '/api/actions/query/recommended-actions?page=1&pageSize=25',
      body: filters,
      weight: 6,
    },
    { name: 'pending actions', method: 'POST', path: '/api/actions/query/pending-actions', body: filters, weight: 3 },
    { name: 'skipped actions', method: 'POST', path: '/api/actions/query/skipped-actions', body: filters, weight: 2 },
    { name: 'action counts', method: 'GET', path: '/api/actions/query/counts', weight: 6 },
    { name: 'action filters', method: 'GET', path: '/api/actions/query/filters', weight: 2 },
    { name: 'accounts', method: 'GET', path: '/api/accounts/query?page=1&pageSize=30', weight: 3 },
    { name: 'users', method: 'GET', path: '/api/users/query', weight: 2 },
    { name: 'workflows', method: 'GET', path: '/api/workflows/query', weight: 2 },
    { name: 'workspace', method: 'GET', path: '/api/workspace/query', weight: 2 },
    { name: 'targeting schemes', method: 'GET', path: '/api/users/query/get-targeting-schemes', weight: 2 },
    { name: 'google sync status', method: 'GET', path: '/api/google/query/sync-status', weight: 2 },
    {
      name: 'update me (write)',
      method: 'PUT',
      path: '/api/users/command/update-me',
      body: { firstName: 'Load', lastName: `User ${randomUUID().slice(0, 4)}` },
      weight: 2,
    },
    {
      name: 'set my accounts (write)',
      method: 'POST',
      path: '/api/users/command/set-my-accounts',
      body: { accountIds: ids.accountIds },
      weight: 1,
    },
  ];
  if (role !== 'admin') return everyone;
  return [
    ...everyone,
    { name: 'clients', method: 'GET', path: '/api/clients/query?page=1&pageSize=30', weight: 4 },
    {
      name: 'allies',
      method: 'GET',
      path: '/api/clients/query/allies-to-map-network-from?page=1&pageSize=30',
      weight: 2,
    },
    {
      name: 'tracked clients',
      method: 'GET',
      path: '/api/clients/query/clients-for-job-changes-tracking?page=1&pageSize=30',
      weight: 2,
    },
    { name: 'client tags', method: 'GET', path: '/api/clients/query/tags', weight: 1 },
    { name: 'job changes', method: 'GET', path: '/api/clients/query/job-changes', weight: 2 },
    { name: 'crm clients', method: 'GET', path: '/api/crm-clients/query?page=1&pageSize=30', weight: 2 },
  ];
}

type Answer = { status: number | string; ms: number };

/**
 * One call to the server on `port`. A keep-alive socket the server closed as it was reused is tried
 * again once on a new connection (not the agent's: its next free socket may be as stale), as browsers
 * and Node's documentation do; the user's wait counts both. Every other network failure counts as an
 * error, by its code.
 */
export function request(
  agent: http.Agent,
  port: number,
  token: string,
  call: Call,
  started = performance.now(),
  retried = false,
): Promise<Answer> {
  const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent: retried ? false : agent,
        host: 'localhost',
        port,
        path: call.path,
        method: call.method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) {
        resolve(request(agent, port, token, call, started, true));
        return;
      }
      resolve({ status: error.code ?? 'network error', ms: performance.now() - started });
    });
    req.end(body);
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** What a window's users do: the scale bench's settings for one layout and mode. */
export type Window = {
  ports: number[];
  users: { token: string; role: Role }[];
  ids: Ids;
  thinkMs: number;
  warmupSeconds: number;
  seconds: number;
  /** The answers are also reported by slices of this many seconds. */
  sliceSeconds: number;
  /**
   * How the address in front of several API processes spreads the requests: `least`, to the process
   * with the fewest requests in flight, in turn among equals, or `round-robin`.
   */
  balancer: 'least' | 'round-robin';
};

/**
 * The users against `ports` (spread by the balancer) for the warm-up and the measured window;
 * `onMeasuring` is called as the window opens (the background work starts then) and `sample` every
 * second of it.
 */
export async function drive(
  { ports, users, ids, thinkMs, warmupSeconds, seconds: windowSeconds, sliceSeconds, balancer }: Window,
  onMeasuring: () => void,
  sample: () => void,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: users.length * ports.length });
  const ms: number[] = [];
  const msByRoute: Record<string, number[]> = {};
  const msBySlice: Record<number, number[]> = {};
  const statuses: Record<string, number> = {};
  let next = 0;
  const processes = ports.map((port) => ({ port, inFlight: 0 }));
  const pickProcess = () => {
    const first = next++ % processes.length;
    const inTurn = [...processes.slice(first), ...processes.slice(0, first)];
    return inTurn.reduce((best, candidate) =>
      balancer === 'least' && candidate.inFlight < best.inFlight ? candidate : best,
    );
  };
  let measuring = false;
  let started = 0;
  let stopAt = performance.now() + (warmupSeconds + windowSeconds) * 1000;
  // The users' client's own garbage collection in the window: its pauses hold every answer it times.
  const client = { gcPauses: 0, gcPauseMs: 0, heapUsedMbAtStart: 0 };
  const collections = new PerformanceObserver((list) => {
    if (!measuring) return;
    for (const entry of list.getEntries()) {
      client.gcPauses++;
      client.gcPauseMs += entry.duration;
    }
  });
  collections.observe({ entryTypes: ['gc'] });
  const opening = setTimeout(() => {
    measuring = true;
    started = performance.now();
    client.heapUsedMbAtStart = heapUsedMb();
    onMeasuring();
  }, warmupSeconds * 1000);
  const sampler = setInterval(() => {
    if (measuring) sample();
  }, 1000);
  const user = async (token: string, role: Role) => {
    const pick = routePicker(calls(ids, role));
    while (performance.now() < stopAt) {
      const call = pick();
      const target = pickProcess();
      target.inFlight++;
      const answer = await request(agent, target.port, token, call).finally(() => {
        target.inFlight--;
      });
      // A request that began in the warm-up and ended in the window counts: the window is the answers'.
      if (measuring && performance.now() < stopAt) {
        ms.push(answer.ms);
        const slice = Math.floor((performance.now() - started) / 1000 / sliceSeconds);
        keep(msBySlice, slice, answer.ms);
        keep(msByRoute, call.name, answer.ms);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
      await personPause(thinkMs);
    }
  };
  await Promise.all(users.map((u) => user(u.token, u.role)));
  clearTimeout(opening);
  clearInterval(sampler);
  collections.disconnect();
  stopAt = 0;
  agent.destroy();
  const seconds = Math.min(windowSeconds, (performance.now() - started) / 1000);
  ms.sort((a, b) => a - b);
  const errors = Object.entries(statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    thinkMs,
    requests: ms.length,
    reqPerSecond: round(ms.length / seconds),
    ...spread(ms),
    maxMs: round(ms.at(-1) ?? 0),
    errors,
    statuses,
    client: {
      ...client,
      gcPauseMs: round(client.gcPauseMs),
      heapUsedMbAtEnd: heapUsedMb(),
    },
    routes: routeFigures(msByRoute),
    // When in the window the slow answers came (by the second each answer arrived): the jobs' bursts.
    slices: Object.entries(msBySlice).map(([slice, list]) => ({
      fromSecond: Number(slice) * sliceSeconds,
      requests: list.length,
      ...spread([...list].sort((a, b) => a - b)),
    })),
  };
}

/** Adds an answer's time to the list of its key (a route, a slice of the window). */
function keep<Key extends string | number>(lists: Record<Key, number[]>, key: Key, ms: number) {
  const list = lists[key] ?? [];
  list.push(ms);
  lists[key] = list;
}

/** The median and the 99th percentile of answers' times sorted ascending. */
const spread = (sorted: number[]) => ({ p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) });

/**
 * Each route's answers in the window, the one that held the server longest first: where a layout's
 * time goes (a route's share is its requests times its mean, since every user waits for each answer).
 */
function routeFigures(msByRoute: Record<string, number[]>) {
  const total = Object.values(msByRoute).reduce((sum, list) => sum + list.reduce((a, b) => a + b, 0), 0);
  return Object.entries(msByRoute)
    .map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const sum = sorted.reduce((a, b) => a + b, 0);
      return {
        name,
        requests: sorted.length,
        meanMs: round(sum / sorted.length),
        ...spread(sorted),
        shareOfWaitPercent: round((100 * sum) / total),
      };
    })
    .sort((a, b) => b.shareOfWaitPercent - a.shareOfWaitPercent);
}

/** What drive() reports of a window. */
export type WindowFigures = Awaited<ReturnType<typeof drive>>;

/** What users-process.ts tells the bench: the window opened, a second passed, the figures. */
export type UsersMessage = { type: 'measuring' } | { type: 'sample' } | { type: 'figures'; figures: WindowFigures };
