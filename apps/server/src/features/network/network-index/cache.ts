import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.ts';
import { patchSnapshot } from './patch.ts';
import { loadSnapshot, type NetworkSnapshot } from './snapshot.ts';

/** Below this many prospects PostgreSQL answers within the targets on its own, and no copy is kept. */
const NETWORK_INDEX_MIN_ROWS = 50_000;
/** Workspaces kept in memory at once. */
const MAX_WORKSPACES = 4;

export type NetworkIndex = {
  /**
   * The workspace's copy if it is current. Otherwise null (PostgreSQL answers), and a large enough
   * workspace's copy is patched (or built, the first time) in the background for the requests after.
   */
  current: (tx: Tx, workspaceId: string) => Promise<NetworkSnapshot | null>;
  /** Resolves once no copy is being refreshed (tests, benchmarks and shutdown wait on it). */
  settled: () => Promise<void>;
};

/** How a copy was brought up to date: read whole, or patched with the rows changed since it was made. */
export type NetworkIndexRefresh = {
  workspaceId: string;
  how: 'built' | 'patched';
  rows: number;
  changedRows: number;
  ms: number;
};

export function createNetworkIndex(
  database: Database,
  options: {
    minRows?: number;
    onError?: (error: unknown) => void;
    onRefresh?: (refresh: NetworkIndexRefresh) => void;
  } = {},
): NetworkIndex {
  const minRows = options.minRows ?? NETWORK_INDEX_MIN_ROWS;
  const snapshots = new Map<string, NetworkSnapshot>();
  const refreshing = new Map<string, Promise<void>>();
  /** The version a refresh last failed at: not retried until the rows change. */
  const failedAt = new Map<string, number>();

  const refresh = (workspaceId: string, version: number) => {
    const started = performance.now();
    const previous = snapshots.get(workspaceId);
    const work = (async () => {
      // A patch that fails is told, and the copy is read whole instead.
      const patched = previous
        ? await patchSnapshot(database, workspaceId, previous).catch((error: unknown) => {
            options.onError?.(error);
            return null;
          })
        : null;
      const snapshot = patched?.snapshot ?? (await loadSnapshot(database, workspaceId));
      snapshots.delete(workspaceId);
      snapshots.set(workspaceId, snapshot);
      for (const oldest of snapshots.keys()) {
        if (snapshots.size <= MAX_WORKSPACES) break;
        snapshots.delete(oldest);
      }
      options.onRefresh?.({
        workspaceId,
        how: patched ? 'patched' : 'built',
        rows: snapshot.size,
        changedRows: patched?.changedRows ?? snapshot.size,
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

  return {
    current: async (tx, workspaceId) => {
      const found = await tx.execute<{ version: number; size: number }>(sql`
        select coalesce((select version from network_versions where workspace_id = ${workspaceId}), 0)::float8 as version,
               coalesce((select rows from network_reach where workspace_id = ${workspaceId} and kind = 'total'), 0) as size`);
      const version = Number(found.rows[0]?.version ?? 0);
      const size = Number(found.rows[0]?.size ?? 0);
      const snapshot = snapshots.get(workspaceId);
      if (snapshot?.version === version) {
        // Most recently used last, so the first key is the one to drop.
        snapshots.delete(workspaceId);
        snapshots.set(workspaceId, snapshot);
        return snapshot;
      }
      if (size < minRows) {
        snapshots.delete(workspaceId);
        return null;
      }
      if (!refreshing.has(workspaceId) && failedAt.get(workspaceId) !== version) refresh(workspaceId, version);
      return null;
    },
    settled: async () => {
      while (refreshing.size > 0) await Promise.all(refreshing.values());
    },
  };
}
