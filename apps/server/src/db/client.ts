import { type SQL, sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lowerBackendPriority } from '../jobs/background-priority.ts';
import { AppError } from '../lib/app-error.ts';
import { analyzeStaleAsOwner } from './analyze.ts';
import { inlineSql } from './inline-sql.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  pool: pg.Pool;
  /** Runs `work` in one transaction that row-level security scopes to `workspaceId`. */
  inWorkspace: <T>(workspaceId: string, work: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * Where the heavy reads of `workspaceId` go (network pages and filters, exports, list pages): the
   * read replica when `DATABASE_READ_URL` names one and it has replayed the workspace's last write
   * (db/read-replica.ts decides), else this database. Work given it must only read: a replica refuses
   * writes.
   */
  forReads: (workspaceId: string) => Promise<Database>;
  /** `inWorkspace` on `forReads(workspaceId)`: a read-only transaction, on the replica when it can. */
  readInWorkspace: <T>(workspaceId: string, work: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * One read-only statement that row-level security scopes to `workspaceId`, in ONE round trip: the
   * transaction, its `set_config` and the statement go as one simple query, values written in by
   * db/inline-sql.ts (`inWorkspace` costs four round trips). A member's role on each request whose
   * member the session cache does not know (plugins/auth.ts). Always the primary: it must see the
   * latest role.
   * Rows come as the driver parses them, keyed by the statement's column names.
   */
  selectInWorkspace: <Row extends Record<string, unknown>>(workspaceId: string, query: SQL) => Promise<Row[]>;
  /**
   * Calls `handler` with the payload of each NOTIFY on `channel`, on one listening connection per
   * database (every listener of a process shares it). `onLost` runs when that connection is lost, and
   * `onReset` when it is opened again: notifications may have been missed in between. Returns what
   * stops listening.
   */
  listen: (channel: string, handler: (payload: string) => void, hooks?: ListenHooks) => Promise<() => void>;
  /**
   * Refreshes the planner's statistics of those of `tables` that are out of date (db/analyze.ts), as
   * their owner on a connection of its own, and names them. After a bulk write, before autovacuum gets
   * to it: a plan that still believes a table is empty joins thousands of rows by nested loops, seconds
   * for what takes milliseconds.
   */
  analyze: (tables: readonly string[]) => Promise<string[]>;
  /** True when as many callers wait for a connection as the limits allow: the next is refused at once. */
  busy: () => boolean;
  /**
   * Tells this database's reads of `workspaceId` of a write committed elsewhere, that the caller has
   * just seen (a worker's merge of the import it uploaded): with a read replica, they stay on the primary
   * until the replica has replayed it (db/read-replica.ts). Nothing to do without one.
   */
  noteWrite: (workspaceId: string) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * What keeps one route from holding the pool of every other (issue 23): the database of API requests
 * has them; the jobs' and the CLI's does not, since their statements run long by design.
 */
export type RequestLimits = {
  /** The longest one statement of a request may run; past it PostgreSQL cancels it (TIMED_OUT). */
  statementTimeoutMs: number;
  /** How many callers may wait for a connection; the next is answered SERVER_BUSY at once. */
  maxWaiting: number;
  /** The longest a caller waits for a connection before it is answered SERVER_BUSY. */
  acquireTimeoutMs: number;
};

export const busyError = () =>
  new AppError('SERVER_BUSY', 'The server is busy: too many requests are waiting. Try again in a moment.');

/** pg-pool's own message when no connection came within `connectionTimeoutMillis`. */
const ACQUIRE_TIMEOUT = 'timeout exceeded when trying to connect';
/** PostgreSQL's query_canceled: the statement time-out (or a cancel) stopped the statement. */
const QUERY_CANCELED = '57014';

/**
 * The limit a database error means, as the error the client gets, else null (the error handler answers
 * it). Walks the causes: drizzle wraps the driver's error in its own.
 */
export function limitError(error: unknown): AppError | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof AppError) return null;
    if (cause.message === ACQUIRE_TIMEOUT) return busyError();
    if ((cause as { code?: unknown }).code === QUERY_CANCELED) {
      return new AppError('TIMED_OUT', 'The request took too long and was stopped; nothing was changed. Try again.');
    }
  }
  return null;
}

export const APP_ROLE = 'warmpath_app';

/**
 * The application's pool. Every connection runs as the app role, which owns no table, so
 * forced row-level security applies to every query the product makes, whatever the code forgets.
 */
export function createDatabase(
  url: string,
  options: {
    max?: number;
    limits?: RequestLimits;
    applicationName?: string;
    /** The niceness of each connection's backend, which must be this machine's (jobs/background-priority.ts). */
    backendNiceness?: number;
  } = {},
): Database {
  const { limits } = options;
  // A startup option rather than a SET after connecting: a connection that cannot take the role fails
  // to open instead of silently running as the owner.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: `-c role=${APP_ROLE}`,
    // Which process and pool a connection is, in pg_stat_activity: an operator's first question
    // about a busy database (and the scale bench's, to say whose CPU a backend spent).
    application_name: options.applicationName ?? 'warmpath',
    // Set when each connection opens, so it bounds every statement of a request, the identity lookup
    // before any transaction included; a route that must run longer says so itself (the CSV export).
    ...(limits
      ? { connectionTimeoutMillis: limits.acquireTimeoutMs, statement_timeout: limits.statementTimeoutMs }
      : {}),
  });
  // An idle connection the server drops (a restart, or our own shutdown) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', () => {});
  // A checked-out connection the server drops (its backend terminated, a restart) fails the query in
  // flight, which its caller handles; the pool's own listener covers idle connections only, and the
  // event unheard would end the process.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (options.backendNiceness) lowerBackendPriority(client, options.backendNiceness);
  });
  const db = drizzle(pool, { schema });
  const busy = () => limits !== undefined && pool.waitingCount >= limits.maxWaiting;
  const listeners = listenerConnection(url);
  const inWorkspace: Database['inWorkspace'] = async (workspaceId, work) => {
    if (busy()) throw busyError();
    return db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('app.workspace_id', ${workspaceId}, true)`);
      return work(tx);
    });
  };
  const database: Database = {
    db,
    pool,
    busy,
    inWorkspace,
    // Without a replica, every read is this database's.
    forReads: async () => database,
    readInWorkspace: inWorkspace,
    noteWrite: async () => {},
    selectInWorkspace: async <Row extends Record<string, unknown>>(workspaceId: string, query: SQL) => {
      if (busy()) throw busyError();
      const text = inlineSql(
        sql`BEGIN READ ONLY; SELECT set_config('app.workspace_id', ${workspaceId}::uuid::text, true); ${query}; COMMIT`,
      );
      const client = await pool.connect();
      try {
        const results = (await client.query(text)) as unknown as pg.QueryResult<Row>[];
        client.release();
        return results[2]?.rows ?? [];
      } catch (error) {
        // The failed statement left the transaction open and aborted: this connection is not reused.
        client.release(true);
        throw error;
      }
    },
    listen: (channel, handler, hooks) => listeners.add(channel, handler, hooks),
    analyze: (tables) => analyzeStaleAsOwner(url, tables),
    close: async () => {
      await listeners.close();
      await pool.end();
    },
  };
  return database;
}

export type ListenHooks = { onLost?: () => void; onReset?: () => void };
type Listening = { channel: string; handler: (payload: string) => void } & ListenHooks;

/**
 * The LISTEN connection of one database, opened with the first listener. When it is lost every
 * listener's `onLost` runs, and it is opened again after a second, then every listener's `onReset`:
 * what was notified meanwhile is unknown.
 */
function listenerConnection(url: string) {
  const listening = new Set<Listening>();
  let client: pg.Client | null = null;
  let opening: Promise<void> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const open = async (reset: boolean) => {
    const next = new pg.Client({ connectionString: url, options: `-c role=${APP_ROLE}` });
    next.on('notification', (message) => {
      for (const entry of listening) {
        if (entry.channel === message.channel) entry.handler(message.payload ?? '');
      }
    });
    const lost = () => {
      if (client !== next || closed) return;
      client = null;
      next.end().catch(() => {});
      for (const entry of listening) entry.onLost?.();
      retry = setTimeout(() => {
        retry = null;
        opening = open(true).catch(lost);
      }, 1000);
      retry.unref();
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    await next.connect();
    for (const channel of new Set([...listening].map((entry) => entry.channel))) {
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    if (reset) for (const entry of listening) entry.onReset?.();
  };

  return {
    add: async (channel: string, handler: (payload: string) => void, hooks: ListenHooks = {}) => {
      const entry = { channel, handler, ...hooks };
      const known = [...listening].some((other) => other.channel === channel);
      listening.add(entry);
      if (!opening) opening = open(false);
      else {
        await opening;
        if (!known) await client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      await opening;
      return () => {
        listening.delete(entry);
      };
    },
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * Runs `steps` one after another and gives their results in order, as `Promise.all` would: the
 * statements of one transaction share its connection, which runs one query at a time (pg 9 refuses a
 * query sent while another runs), so starting them together gains nothing.
 */
export async function sequentially<const Steps extends readonly (() => Promise<unknown>)[]>(
  steps: Steps,
): Promise<{ -readonly [K in keyof Steps]: Awaited<ReturnType<Steps[K]>> }> {
  const results: unknown[] = [];
  for (const step of steps) results.push(await step());
  return results as { -readonly [K in keyof Steps]: Awaited<ReturnType<Steps[K]>> };
}
