import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * How long a job first waits after a unit of its work while requests are being served, as a multiple
 * of the unit's own time (its share); it then waits on while they stay as many (see below).
 */
const GIVE_WAY_RATIO = 2;
/**
 * The longest wait after one unit: a job on a machine that stays busy still does a unit every few
 * seconds, and a unit that ran long (a slow batch) does not stall its job for minutes.
 */
const GIVE_WAY_MAX_MS = 5_000;
/** How often a job that has waited its share asks again whether the requests still keep the machine busy. */
const GIVE_WAY_POLL_MS = 250;

/**
 * How many requests must be in PostgreSQL at once for a job to give way: as many as the machine has
 * cores. Fewer leave a core to the job without slowing them; and a single person whose first sync is
 * running (the day-one journey) opens a page of a few calls at a time, which must not hold back the very
 * sync they are waiting for. One request was tried (README, Requests first): a lone member's page then
 * held their own graph job back.
 */
const BUSY_REQUESTS = os.availableParallelism();

/** The application_name of an API process's request pool: what a job looks for to know requests are served. */
export const requestsApplicationName = (role: string) => `warmpath-${role}-requests`;

/** Called by a job between units of its work (a page of mail, a batch of the graph). */
export type Pacer = () => Promise<void>;

export type RequestsFirst = {
  /** A pacer for one run of a job: each call measures the unit since the previous one (or the pacer's start). */
  pacer: () => Pacer;
  close: () => Promise<void>;
};

/**
 * Background work gives way to the people using the product (issue 24). A sync or a graph recompute
 * on a busy machine took 0.6 of its 2 cores and made every request slower (the scale bench's p99 went
 * from 1 s to 4 s), though nobody waits on a sync by the second. So between units of its work a job
 * asks PostgreSQL how many requests the API processes are serving at that moment (request pools'
 * connections not idle, whichever process they belong to: pg_stat_activity) and, when they are
 * `BUSY_REQUESTS` or more, waits `GIVE_WAY_RATIO` times as long as the unit took, and then for as long
 * as they stay that many (asking every `GIVE_WAY_POLL_MS`), `GIVE_WAY_MAX_MS` at most. A quiet machine
 * runs the jobs at full speed; a busy one defers them to its quieter moments, and they still finish.
 * Only waiting the unit's share, the jobs kept a third of a saturated machine, and the requests' p99
 * stayed near 3 s in the scale bench.
 *
 * The question is asked as the tables' owner (the runtime's URL): the app role cannot see the state of
 * other sessions. When it cannot be asked (the connection is lost), the job does not wait.
 */
export function createRequestsFirst(
  ownerUrl: string,
  options: {
    ratio?: number;
    maxWaitMs?: number;
    /** The processes whose requests count, as a LIKE pattern of their role: every API process's by default. */
    roles?: string;
    busyRequests?: number;
    pollMs?: number;
    wait?: (ms: number) => Promise<unknown>;
  } = {},
): RequestsFirst {
  const {
    ratio = GIVE_WAY_RATIO,
    maxWaitMs = GIVE_WAY_MAX_MS,
    roles = '%',
    busyRequests = BUSY_REQUESTS,
    pollMs = GIVE_WAY_POLL_MS,
    wait = sleep,
  } = options;
  let client: Promise<pg.Client> | null = null;
  let closed = false;
  const connected = () => {
    client ??= (async () => {
      const next = new pg.Client({ connectionString: ownerUrl, application_name: 'warmpath-requests-first' });
      // A lost connection is opened again at the next question.
      next.on('error', () => {
        client = null;
      });
      await next.connect();
      return next;
    })();
    return client;
  };
  const busyWithRequests = async () => {
    try {
      const result = await (await connected()).query<{ served: number }>(
        `select count(*)::int as served from pg_stat_activity
          where datname = current_database() and application_name like $1 and state <> 'idle'`,
        [requestsApplicationName(roles)],
      );
      return (result.rows[0]?.served ?? 0) >= busyRequests;
    } catch {
      client = null;
      return false;
    }
  };
  return {
    pacer: () => {
      let unitStarted = performance.now();
      return async () => {
        // The unit's share first, then a poll at a time while the requests keep the machine busy.
        let next = (performance.now() - unitStarted) * ratio;
        for (let waited = 0; !closed && waited < maxWaitMs && (await busyWithRequests()); ) {
          const ms = Math.min(Math.max(next, pollMs), maxWaitMs - waited);
          await wait(ms);
          waited += ms;
          next = pollMs;
        }
        unitStarted = performance.now();
      };
    },
    close: async () => {
      closed = true;
      const open = client;
      client = null;
      await (await open?.catch(() => null))?.end().catch(() => {});
    },
  };
}
