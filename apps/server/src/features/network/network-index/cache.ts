import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.ts';
import { patchSnapshot } from './patch.ts';
import { connectorsListed, listConnectorRows, loadSnapshot, type NetworkSnapshot, snapshotBytes } from './snapshot.ts';

/** Below this many prospects PostgreSQL answers within the targets on its own, and no copy is kept. */
const NETWORK_INDEX_MIN_ROWS = 50_000;
/**
 * The longest a request waits for its workspace's copy to be patched before PostgreSQL answers it: a
 * patch of a million prospects takes a quarter of a second alone, and a second under the scale bench.
 */
const PATCH_WAIT_MS = 1_000;
/** What the copies of one process may hold (NETWORK_CACHE_MB): three workspaces of a million prospects. */
const BUDGET_BYTES = 1024 * 1024 * 1024;
/**
 * The advisory lock of this machine's turn to refresh a copy (`inMachineTurn`): its class (7262011 to
 * 7262014 are the migrations', an import's, a merge's and the network growth's), and the host's name.
 */
export const COPY_TURN_LOCK = [7262015, os.hostname()] as const;
/** How often a process waiting for its machine's turn asks again. */
const COPY_TURN_POLL_MS = 25;

/**
 * Runs `work` when no other copy is being refreshed on this machine, by this process or another. Each
 * API process keeps its own copies and patches them as the rows change, so after a batch of the graph
 * job every API process of a machine patched the same change at the same moment: two bursts of its
 * two cores at once, when the pages then answered slowest (issue 24: the two-process layout's worst
 * 10 s of the scale bench). In turns, one process patches while the other answers from its copy as it
 * was (decision 0035), and the balancer sends more requests to it. The turn is a PostgreSQL session's
 * advisory lock, keyed by the host's name: let go if its process dies, and processes on other machines
 * never wait for it. A waiting process holds no connection (a try every `COPY_TURN_POLL_MS`), so the
 * turn's holder always finds one for its work.
 */
async function inMachineTurn<T>(database: Database, work: () => Promise<T>): Promise<{ value: T; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const client = await database.pool.connect();
    const held = await client
      .query<{ held: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as held', [...COPY_TURN_LOCK])
      .then(
        (turn) => turn.rows[0]?.held === true,
        (error: unknown) => {
          client.release(true);
          throw error;
        },
      );
    if (!held) {
      client.release();
      await sleep(COPY_TURN_POLL_MS);
      continue;
    }
    try {
      const waitedMs = Math.round(performance.now() - started);
      return { value: await work(), waitedMs };
    } finally {
      // A lock that cannot be let go goes with its connection, closed rather than returned.
      const unlocked = await client.query('select pg_advisory_unlock($1, hashtext($2))', [...COPY_TURN_LOCK]).then(
        () => true,
        () => false,
      );
      client.release(!unlocked);
    }
  }
}

export type NetworkIndex = {
  /**
   * The workspace's copy if it is current. Otherwise null (PostgreSQL answers), and a large enough
   * workspace's copy is patched (or built, the first time) in the background for the requests after.
   */
  current: (tx: Tx, workspaceId: string) => Promise<NetworkSnapshot | null>;
  /**
   * Resolves once the workspace's copy is no longer being patched, or after `patchWaitMs`, whichever
   * comes first (at once when no patch is under way: a first build takes too long to wait for). A
   * request awaits it before it takes a connection: otherwise every request during a patch is answered
   * by PostgreSQL, and at a million prospects those pages held the request pools' connections until
   * the pools queued 40-60 requests deep, every route waited (the scale bench's p99 reached 2.2 s), and
   * the patch itself, starved of the machine's two cores, took 2-3 s instead of a quarter of one.
   */
  patched: (workspaceId: string) => Promise<void>;
  /** Resolves once no copy is being refreshed nor completed (tests, benchmarks and shutdown wait on it). */
  settled: () => Promise<void>;
  /**
   * Builds the copies of the largest of these workspaces, as many as the budget holds, one after the
   * other; returns the copies built. Called before a process takes traffic: otherwise its first
   * requests each find no copy, and the copy is built while PostgreSQL answers the busiest minutes
   * alone (issue 24: two fresh API processes under load held none of the 1M workspace for a minute).
   */
  warm: (workspaceIds: readonly string[]) => Promise<NetworkIndexRefresh[]>;
  /**
   * Keeps the copies current without waiting for a request: every `intervalMs`, the copy of a
   * workspace whose rows have moved on is patched. Returns what stops it. Without it, a copy is caught
   * up by the first request after the change, and PostgreSQL answers every request until it is: the
   * busiest minute of a quiet workspace (issue 24: a 1M workspace whose graph job ended while nobody
   * looked served 22 req/s and 988 answers of 503 in the scale bench's next window).
   */
  follow: (intervalMs: number) => () => void;
  /** The copies kept, and the memory they hold (within the budget). */
  memory: () => { workspaces: number; bytes: number };
};

/** How a copy was brought up to date: read whole, or patched with the rows changed since it was made. */
export type NetworkIndexRefresh = {
  workspaceId: string;
  how: 'built' | 'patched';
  rows: number;
  bytes: number;
  changedRows: number;
  /** How long it waited for its machine's turn (`inMachineTurn`), within `ms`. */
  waitedMs: number;
  ms: number;
};

export function createNetworkIndex(
  database: Database,
  options: {
    minRows?: number;
    /**
     * The memory the copies may hold: past it the least recently used go (a request for one of them
     * is answered by PostgreSQL while it is built again). A copy larger than the whole budget is not
     * kept, nor built again while its workspace has at least the rows of the copy that did not fit.
     */
    budgetBytes?: number;
    onError?: (error: unknown) => void;
    onRefresh?: (refresh: NetworkIndexRefresh) => void;
    /** The longest a request waits for a patch under way (`patched`). */
    patchWaitMs?: number;
  } = {},
): NetworkIndex {
  const minRows = options.minRows ?? NETWORK_INDEX_MIN_ROWS;
  const budgetBytes = options.budgetBytes ?? BUDGET_BYTES;
  const patchWaitMs = options.patchWaitMs ?? PATCH_WAIT_MS;
  /** Least recently used first: a use moves a copy to the end. */
  const snapshots = new Map<string, { snapshot: NetworkSnapshot; bytes: number }>();
  let keptBytes = 0;
  /** Workspaces whose copy alone was over the budget, and its size then. */
  const tooLarge = new Map<string, number>();
  const drop = (workspaceId: string) => {
    const kept = snapshots.get(workspaceId);
    if (!kept) return;
    snapshots.delete(workspaceId);
    keptBytes -= kept.bytes;
  };
  const keep = (workspaceId: string, snapshot: NetworkSnapshot) => {
    drop(workspaceId);
    const bytes = snapshotBytes(snapshot);
    if (bytes > budgetBytes) {
      tooLarge.set(workspaceId, snapshot.size);
      return bytes;
    }
    for (const oldest of snapshots.keys()) {
      if (keptBytes + bytes <= budgetBytes) break;
      drop(oldest);
    }
    snapshots.set(workspaceId, { snapshot, bytes });
    keptBytes += bytes;
    return bytes;
  };
  const refreshing = new Map<string, Promise<void>>();
  /** Copies served already whose connector-to-rows lists are being filled. */
  const listing = new Set<Promise<void>>();
  const listConnectors = (snapshot: NetworkSnapshot) => {
    const work: Promise<void> = inMachineTurn(database, () => listConnectorRows(snapshot))
      .then(() => {})
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => listing.delete(work));
    listing.add(work);
  };
  /** Each workspace's last version not made by the graph job, as last read (`requested_version`). */
  const requestedSeen = new Map<string, number>();
  /**
   * Whether a copy that is not current answers anyway: it is being patched, and only the graph job's
   * batches are past it (a member cannot tell the job's last batch from the one before it), so no
   * write of a member's is missing from it (decision 0035).
   */
  const answersWhilePatched = (workspaceId: string, snapshot: NetworkSnapshot, requestedVersion: number) =>
    refreshing.has(workspaceId) && snapshot.version >= requestedVersion;
  /** The version a refresh last failed at: not retried until the rows change. */
  const failedAt = new Map<string, number>();

  const refresh = (workspaceId: string, version: number, onRefresh = options.onRefresh) => {
    const started = performance.now();
    const previous = snapshots.get(workspaceId)?.snapshot;
    const work = (async () => {
      const { value, waitedMs } = await inMachineTurn(database, async () => {
        // A patch that fails is told, and the copy is read whole instead.
        const patched = previous
          ? await patchSnapshot(database, workspaceId, previous).catch((error: unknown) => {
              options.onError?.(error);
              return null;
            })
          : null;
        return { patched, snapshot: patched?.snapshot ?? (await loadSnapshot(database, workspaceId)) };
      });
      const { patched, snapshot } = value;
      const bytes = keep(workspaceId, snapshot);
      if (!connectorsListed(snapshot)) listConnectors(snapshot);
      onRefresh?.({
        workspaceId,
        how: patched ? 'patched' : 'built',
        rows: snapshot.size,
        bytes,
        changedRows: patched?.changedRows ?? snapshot.size,
        waitedMs,
        ms: Math.round(performance.now() - started),
      });
    })()
      .catch((error: unknown) => {
        failedAt.set(workspaceId, version);
        options.onError?.(error);
      })
      .finally(() => refreshing.delete(workspaceId));
    refreshing.set(workspaceId, work);
  };
  /** Brings a copy behind `version` up to it, unless that is under way or failed at this version. */
  const catchUp = (workspaceId: string, version: number) => {
    if (!refreshing.has(workspaceId) && failedAt.get(workspaceId) !== version) refresh(workspaceId, version);
  };

  return {
    current: async (tx, workspaceId) => {
      const { version, requestedVersion, size } = await versionAndSize(tx, workspaceId);
      requestedSeen.set(workspaceId, requestedVersion);
      const kept = snapshots.get(workspaceId);
      const use = (used: { snapshot: NetworkSnapshot; bytes: number }) => {
        // Most recently used last, so the first key is the one to drop.
        snapshots.delete(workspaceId);
        snapshots.set(workspaceId, used);
        return used.snapshot;
      };
      if (kept?.snapshot.version === version) return use(kept);
      if (size < minRows) {
        drop(workspaceId);
        return null;
      }
      const overBudget = size >= (tooLarge.get(workspaceId) ?? Number.POSITIVE_INFINITY);
      if (!overBudget) catchUp(workspaceId, version);
      if (kept && answersWhilePatched(workspaceId, kept.snapshot, requestedVersion)) return use(kept);
      return null;
    },
    memory: () => ({ workspaces: snapshots.size, bytes: keptBytes }),
    follow: (intervalMs) => {
      let checking = false;
      const check = async () => {
        for (const [workspaceId, { snapshot }] of [...snapshots]) {
          if (refreshing.has(workspaceId)) continue;
          const { version, requestedVersion } = await database.inWorkspace(workspaceId, (tx) =>
            versionAndSize(tx, workspaceId),
          );
          requestedSeen.set(workspaceId, requestedVersion);
          if (version !== snapshot.version) catchUp(workspaceId, version);
        }
      };
      const timer = setInterval(() => {
        if (checking) return;
        checking = true;
        check()
          .catch((error: unknown) => options.onError?.(error))
          .finally(() => {
            checking = false;
          });
      }, intervalMs);
      // A process ends when its work does, not held open by this check.
      timer.unref();
      return () => clearInterval(timer);
    },
    warm: async (workspaceIds) => {
      const large: { workspaceId: string; version: number; size: number }[] = [];
      for (const workspaceId of workspaceIds) {
        const found = await database.inWorkspace(workspaceId, (tx) => versionAndSize(tx, workspaceId));
        if (found.size >= minRows) large.push({ workspaceId, ...found });
      }
      const built: NetworkIndexRefresh[] = [];
      for (const { workspaceId, version, size } of large.sort((a, b) => b.size - a.size)) {
        // Full once the next copy, at the size per row of those built, would push out one built already.
        const first = built[0];
        if (first && keptBytes + (size * first.bytes) / first.rows > budgetBytes) break;
        refresh(workspaceId, version, (refreshed) => {
          built.push(refreshed);
          options.onRefresh?.(refreshed);
        });
        await refreshing.get(workspaceId);
      }
      return built;
    },
    patched: async (workspaceId) => {
      const work = refreshing.get(workspaceId);
      const kept = snapshots.get(workspaceId);
      const requested = requestedSeen.get(workspaceId) ?? Number.POSITIVE_INFINITY;
      if (!work || !kept || answersWhilePatched(workspaceId, kept.snapshot, requested)) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, patchWaitMs)))]);
      clearTimeout(timer);
    },
    settled: async () => {
      while (refreshing.size > 0 || listing.size > 0) await Promise.all([...refreshing.values(), ...listing]);
    },
  };
}

/**
 * The workspace's network version, the last one not made by the graph job, and its number of
 * prospects (0, 0 and 0 before its first roll-up).
 */
async function versionAndSize(tx: Tx, workspaceId: string) {
  const found = await tx.execute<{ version: number; requested_version: number; size: number }>(sql`
    select coalesce(v.version, 0)::float8 as version, coalesce(v.requested_version, 0)::float8 as requested_version,
           coalesce((select rows from network_reach where workspace_id = ${workspaceId} and kind = 'total'), 0) as size
      from (select 1) one left join network_versions v on v.workspace_id = ${workspaceId}`);
  const row = found.rows[0];
  return {
    version: Number(row?.version ?? 0),
    requestedVersion: Number(row?.requested_version ?? 0),
    size: Number(row?.size ?? 0),
  };
}
