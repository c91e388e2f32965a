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
 * up). Kept in this process's memory: behind a load balancer that spreads one workspace's requests over
 * several API processes, another process does not know of the write, and reads the replica (stale by
 * the lag at most); route a workspace to one process, or accept that lag, as docs/capacity.md says.
 */
export type ReadReplica = {
  /** The replica's pool: connects as the app role, with row-level security, like the primary's. */
  database: Database;
  /** The WAL position each workspace must see replayed before the replica serves it. */
  pending: Map<string, bigint>;
  /** The replay position the replica last reported: a workspace at or under it needs no new look. */
  replayed: bigint;
};

export function createReadReplica(database: Database): ReadReplica {
  return { database, pending: new Map(), replayed: 0n };
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
    const { rows } = await primary.pool.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
    const lsn = rows[0]?.lsn;
    if (!lsn) return;
    const value = lsnValue(lsn);
    if (value > (replica.pending.get(workspaceId) ?? 0n)) replica.pending.set(workspaceId, value);
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
