import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * How long a job waits after a unit of its work while requests are being served, as a multiple of the
 * unit's own time: at 2 a busy machine gives the jobs a third of the time they would take alone, and
 * the people using the product the rest.
 */
export const GIVE_WAY_RATIO = 2;
/** The longest one wait: a unit that ran long (a slow batch) does not stall its job for minutes. */
export const GIVE_WAY_MAX_MS = 5_000;

/** The application_name of an API process's request pool: what a job looks for to know requests are served. */
export const requestsApplicationName = (role: string) => `warmpath-${role}-requests`;

/** Called by a job between units of its work (a page of mail, a batch of the graph). */
export type Pacer = () => Promise<void>;

export type RequestsFirst = {
  /** A pacer for one run of a job: each call measures the unit since the previous one (or the pacer's start). */
  pacer: () => Pacer;
  close: () => Promise<void>;
};

/** Jobs at full speed, whatever else runs (tests, the CLI, a one-off recompute). */
export const fullSpeed: RequestsFirst = { pacer: () => async () => {}, close: async () => {} };

/**
 * Background work gives way to the people using the product (issue 24). A sync or a graph recompute
 * on a busy machine took 0.6 of its 2 cores and made every request slower (the scale bench's p99 went
 * from 1 s to 4 s), though nobody waits on a sync by the second. So between units of its work a job
 * asks PostgreSQL whether any API process is serving a request at that moment (a request pool's
 * connection not idle, whichever process it belongs to: pg_stat_activity) and, if so, waits
 * `GIVE_WAY_RATIO` times as long as the unit took. A quiet machine runs the jobs at full speed; a
 * busy one spreads them out, and they still finish.
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
    wait?: (ms: number) => Promise<unknown>;
  } = {},
): RequestsFirst {
  const { ratio = GIVE_WAY_RATIO, maxWaitMs = GIVE_WAY_MAX_MS, roles = '%', wait = sleep } = options;
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
  const requestsServed = async () => {
    try {
      const result = await (await connected()).query<{ served: boolean }>(
        `select exists (select 1 from pg_stat_activity
                         where datname = current_database() and application_name like $1 and state <> 'idle') as served`,
        [requestsApplicationName(roles)],
      );
      return result.rows[0]?.served === true;
    } catch {
      client = null;
      return false;
    }
  };
  return {
    pacer: () => {
      let unitStarted = performance.now();
      return async () => {
        const unitMs = performance.now() - unitStarted;
        if (!closed && (await requestsServed())) await wait(Math.min(unitMs * ratio, maxWaitMs));
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
