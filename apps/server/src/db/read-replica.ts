import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * The one place that decides primary or replica (issue 24). With `DATABASE_READ_URL`, the heavy reads
 * (`Database.forReads`, `readInWorkspace`) go to a streaming replica, except for a workspace that has
 * written and whose write the replica has not replayed yet: its reads stay on the primary until
 * `pg_last_wal_replay_lsn()` on the replica is past the primary's WAL position taken just after the
 * write committed. So whoever just wrote (a member saving, an import finishing) never reads older data
 * than they wrote, and everyone else reads the replica at once.
 *
 * Kept per workspace rather than per user: a write a member makes shows in every page of their team,
 * and a workspace's reads stay on the primary only for the replica's lag (milliseconds when it keeps
 * up). Shared between processes: each write's position is announced on a PostgreSQL channel
 * (`pg_notify`, in the statement that reads the position, so it costs no extra round trip), and every
 * process listening (`shareWrites`) marks the workspace too, so the next request may land on any API
 * process behind the load balancer. A process whose listener is down sends every read to the primary
 * until it listens again: it cannot know who wrote.
 */
export type ReadReplica = {
  /** The replica's pool: connects as the app role, with row-level security, like the primary's. */
  database: Database;
  /** The WAL position each workspace must see replayed before the replica serves it. */
  pending: Map<string, bigint>;
  /** The replay position the replica last reported: a workspace at or under it needs no new look. */
  replayed: bigint;
  /** False while a process that shares writes has lost its listener: every read is the primary's. */
  informed: boolean;
};

export function createReadReplica(database: Database): ReadReplica {
  return { database, pending: new Map(), replayed: 0n, informed: true };
}

/** The channel each write's workspace and WAL position are announced on: `<workspace id> <lsn>`. */
export const WRITES_CHANNEL = 'warmpath_replica_writes';

function markPending(replica: ReadReplica, workspaceId: string, value: bigint) {
  if (value > (replica.pending.get(workspaceId) ?? 0n)) replica.pending.set(workspaceId, value);
}

/**
 * Listens, on the primary's listening connection (`Database.listen`, shared with the session cache),
 * for the writes other processes announce, and marks their workspaces here. While that connection is
 * lost, this process reads from the primary only. Returns what stops it.
 */
export async function shareWrites(
  replica: ReadReplica,
  primary: Pick<Database, 'listen'>,
  log: (message: string) => void = () => {},
): Promise<() => void> {
  const stop = await primary.listen(
    WRITES_CHANNEL,
    (payload) => {
      const [workspaceId, lsn] = payload.split(' ');
      if (workspaceId && lsn) markPending(replica, workspaceId, lsnValue(lsn));
    },
    {
      onLost: () => {
        replica.informed = false;
        log('read replica: the writes listener was disconnected; reading from the primary until it is back');
      },
      onReset: () => {
        replica.informed = true;
      },
    },
  );
  replica.informed = true;
  return stop;
}

/** A `pg_lsn` as text (`16/B374D848`) as a number, to compare positions. */
export function lsnValue(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How far the replica has replayed, as it says; null when it cannot be asked (down, or not a standby). */
async function replayPosition(replica: ReadReplica): Promise<bigint | null> {
  try {
    const { rows } = await replica.database.pool.query<{ lsn: string | null }>(
      'select pg_last_wal_replay_lsn()::text as lsn',
    );
    const lsn = rows[0]?.lsn;
    if (!lsn) return null;
    const value = lsnValue(lsn);
    if (value > replica.replayed) replica.replayed = value;
    // Forget what is replayed already, so the map holds only workspaces inside the lag.
    for (const [workspaceId, needed] of replica.pending) {
      if (needed <= replica.replayed) replica.pending.delete(workspaceId);
    }
    return replica.replayed;
  } catch {
    return null;
  }
}

/**
 * An error that says the replica could not answer rather than that the read was wrong: it is down or
 * starting (no connection), or replay cancelled the read (a conflict with recovery, SQLSTATE 40001 on
 * a standby). The read is then the primary's: it costs the primary, never the user.
 */
export function replicaUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    // ECONNREFUSED and its kin from the socket; 57P01-57P03: shut down, crashed, cannot connect now.
    if (code.startsWith('ECONN') || code === 'ETIMEDOUT' || code === '57P01' || code === '57P02' || code === '57P03') {
      return true;
    }
    if (code === '40001' && /conflict with recovery/.test(cause.message)) return true;
  }
  return false;
}

/** The primary or the replica for `workspaceId`'s reads: the decision, and the only place it is made. */
export async function readerFor(primary: Database, replica: ReadReplica, workspaceId: string): Promise<Database> {
  if (!replica.informed) return primary;
  const needed = replica.pending.get(workspaceId);
  if (needed === undefined || needed <= replica.replayed) return replica.database;
  const replayed = await replayPosition(replica);
  return replayed !== null && replayed >= needed ? replica.database : primary;
}

/**
 * `primary` with its heavy reads sent to `replica`, and its writes noted for read-your-writes. Each
 * transaction of `inWorkspace` asks, before it commits, whether it wrote (it holds a transaction id
 * only if it did); after it commits, the primary's WAL position is past its commit record, and that is
 * what the replica must reach. A transaction that only read costs the one look.
 */
export function withReadReplica(primary: Database, replica: ReadReplica | null): Database {
  if (!replica) return primary;
  const noteWrite = async (workspaceId: string) => {
    // After the commit, so past its commit record; announced to the other processes in the same statement.
    const { rows } = await primary.pool.query<{ lsn: string }>(
      `select lsn, pg_notify($1, $2 || ' ' || lsn) from (select pg_current_wal_insert_lsn()::text as lsn) position`,
      [WRITES_CHANNEL, workspaceId],
    );
    const lsn = rows[0]?.lsn;
    if (lsn) markPending(replica, workspaceId, lsnValue(lsn));
  };
  const inWorkspace: Database['inWorkspace'] = async (workspaceId, work) => {
    let wrote = false;
    const result = await primary.inWorkspace(workspaceId, async (tx) => {
      const value = await work(tx);
      const { rows } = await tx.execute<{ wrote: boolean }>(
        sql`select pg_current_xact_id_if_assigned() is not null as wrote`,
      );
      wrote = rows[0]?.wrote === true;
      return value;
    });
    if (wrote) await noteWrite(workspaceId);
    return result;
  };
  const routed: Database = {
    ...primary,
    inWorkspace,
    noteWrite,
    forReads: (workspaceId) => readerFor(routed, replica, workspaceId),
    readInWorkspace: async (workspaceId, work) => {
      const reader = await readerFor(routed, replica, workspaceId);
      if (reader === routed) return routed.inWorkspace(workspaceId, work);
      try {
        return await reader.inWorkspace(workspaceId, work);
      } catch (error) {
        // The work only reads, so running it again on the primary is safe.
        if (!replicaUnavailable(error)) throw error;
        return routed.inWorkspace(workspaceId, work);
      }
    },
  };
  return routed;
}
