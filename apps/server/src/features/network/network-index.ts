import { pipeline } from 'node:stream/promises';
import {
  EMPTY_STATE,
  ENGAGEMENTS,
  NETWORK_FILTER_FIELDS,
  type NetworkFilterField,
  PROXIMITY_BANDS,
  SIGNAL_TYPES,
  type TPersona,
  type TTargetingScheme,
} from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { binaryCopySink, boolAt, forEachUuidIn, int4At, type Tuple, textAt, uuidText } from '../../db/binary-copy.ts';
import type { Database, Tx } from '../../db/client.ts';
import { signalBit } from '../../graph/graph.sql.ts';
import { findPersonas, findTargetingScheme } from '../targeting/targeting.repo.ts';
import { accountCompanies, idealCompanies, type NetworkQuery, uuids } from './network-filters.ts';

// The network rows of a large workspace as columns in this process's memory, in the table's order.
// PostgreSQL counts a million filtered rows in 100 ms at best and walks half an index for a deep
// page of a filtered table; here one pass over typed arrays answers the count, any page and every
// facet's counts in milliseconds. The copy is only ever used while it is current: each statement that
// writes network rows moves the workspace's version and logs the rows it wrote (a trigger, migration
// 0038), and a stale copy is patched with those rows (or rebuilt) in the background while PostgreSQL
// answers, as it does for small workspaces. So the rules of
// the filters live twice, in SQL (network-filters.ts) and here, and a test holds the two equal.

/** Below this many prospects PostgreSQL answers within the targets on its own, and no copy is kept. */
const NETWORK_INDEX_MIN_ROWS = 50_000;
/** Workspaces kept in memory at once. */
const MAX_WORKSPACES = 4;

type Dictionary = { values: (string | null)[]; codes: Map<string, number> };

function encode(dictionary: Dictionary, value: string | null) {
  if (value === null) return 0;
  let code = dictionary.codes.get(value);
  if (code === undefined) {
    code = dictionary.values.length;
    dictionary.values.push(value);
    dictionary.codes.set(value, code);
  }
  return code;
}

/** The text columns a filter can test, each kept as codes into its dictionary (0 is null). */
const TEXT_COLUMNS = [
  'company_id',
  'company_size',
  'industry',
  'department',
  'country',
  'company_type',
  'seniority',
  'job_title',
] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];

const ID_BYTES = 36;

export type NetworkSnapshot = {
  version: number;
  size: number;
  /** The prospects' ids, ID_BYTES latin1 characters each, in the table's order. */
  ids: Buffer;
  proximity: Uint8Array;
  engagement: Uint8Array;
  signalMask: Uint32Array;
  external: Uint8Array;
  text: Record<TextColumn, { codes: Int32Array; dictionary: Dictionary }>;
  /** Row i's connectors are connectorCodes[connectorStart[i] .. connectorStart[i + 1]). */
  connectorStart: Uint32Array;
  connectorCodes: Int32Array;
  connectors: Dictionary;
  /** The same links the other way: connector code c's rows are connectorRows[connectorRowsStart[c] .. connectorRowsStart[c + 1]), in order. */
  connectorRowsStart: Uint32Array;
  connectorRows: Uint32Array;
  /** The rows in the name facet's order (full name, then id). */
  byName: Uint32Array;
  /** Each company code's place in id order: the company facet's tie-break. */
  companyRank: Int32Array;
};

/** Each code's place when the dictionary's values are sorted (as PostgreSQL orders uuids: their text). */
function ranks(dictionary: Dictionary) {
  const { values } = dictionary;
  const codes = Array.from({ length: values.length }, (_, code) => code);
  codes.sort((a, b) => ((values[a] ?? '') < (values[b] ?? '') ? -1 : 1));
  const rank = new Int32Array(values.length);
  codes.forEach((code, place) => {
    rank[code] = place;
  });
  return rank;
}

const idAt = (snapshot: NetworkSnapshot, row: number) =>
  snapshot.ids.toString('latin1', row * ID_BYTES, (row + 1) * ID_BYTES);

/**
 * Fills the connector-to-rows lists from the row-to-connectors ones (a counting sort): a connector
 * filter then visits its own rows only, instead of every link of every row (50 ms at 10M links).
 */
function invertConnectors(snapshot: NetworkSnapshot) {
  const { size, connectorStart, connectorCodes } = snapshot;
  const start = new Uint32Array(snapshot.connectors.values.length + 1);
  for (const code of connectorCodes) start[code + 1] = (start[code + 1] ?? 0) + 1;
  for (let code = 1; code < start.length; code++) start[code] = (start[code] ?? 0) + (start[code - 1] ?? 0);
  const next = start.slice(0, -1);
  const rows = new Uint32Array(connectorCodes.length);
  for (let row = 0; row < size; row++) {
    const end = connectorStart[row + 1] ?? 0;
    for (let at = connectorStart[row] ?? 0; at < end; at++) {
      const code = connectorCodes[at] ?? 0;
      rows[next[code] ?? 0] = row;
      next[code] = (next[code] ?? 0) + 1;
    }
  }
  snapshot.connectorRowsStart = start;
  snapshot.connectorRows = rows;
}

const UUID = /^[0-9a-f-]{36}$/;

type Dictionaries = { text: Record<TextColumn, Dictionary>; connectors: Dictionary };

const newDictionary = (): Dictionary => ({ values: [null], codes: new Map() });
/** A copy's dictionaries are its own: a patched copy extends copies of them, and the old one stays as it was. */
const copyDictionary = (dictionary: Dictionary): Dictionary => ({
  values: [...dictionary.values],
  codes: new Map(dictionary.codes),
});

type Coded = TextColumn | 'connectors';
const dictionaryOf = (snapshot: NetworkSnapshot, coded: Coded) =>
  coded === 'connectors' ? snapshot.connectors : snapshot.text[coded].dictionary;

/** Every dictionary a copy codes with, each the one `make` gives for its column. */
function dictionaries(make: (coded: Coded) => Dictionary): Dictionaries {
  return {
    text: Object.fromEntries(TEXT_COLUMNS.map((column) => [column, make(column)])) as Dictionaries['text'],
    connectors: make('connectors'),
  };
}

/** A copy with room for `capacity` rows and about `links` connectors, none filled yet, coding its values with `dictionaries`. */
function emptySnapshot(version: number, capacity: number, links: number, dictionaries: Dictionaries): NetworkSnapshot {
  return {
    version,
    size: 0,
    ids: Buffer.alloc(capacity * ID_BYTES),
    proximity: new Uint8Array(capacity),
    engagement: new Uint8Array(capacity),
    signalMask: new Uint32Array(capacity),
    external: new Uint8Array(capacity),
    text: Object.fromEntries(
      TEXT_COLUMNS.map((column) => [
        column,
        { codes: new Int32Array(capacity), dictionary: dictionaries.text[column] },
      ]),
    ) as NetworkSnapshot['text'],
    connectorStart: new Uint32Array(capacity + 1),
    connectorCodes: new Int32Array(Math.max(16, links)),
    connectors: dictionaries.connectors,
    connectorRowsStart: new Uint32Array(0),
    connectorRows: new Uint32Array(0),
    byName: new Uint32Array(capacity),
    companyRank: new Int32Array(0),
  };
}

/** Room for `total` links in all (the array grows by doubling). */
function ensureLinks(snapshot: NetworkSnapshot, total: number) {
  if (total <= snapshot.connectorCodes.length) return;
  const grown = new Int32Array(Math.max(total, snapshot.connectorCodes.length * 2));
  grown.set(snapshot.connectorCodes);
  snapshot.connectorCodes = grown;
}

/** The columns a copy reads of a network row, as a COPY's select list (the tuple's fields 0 to 13). */
const ROW_FIELDS = `prospect_id, proximity::int4, engagement::int4, signal_mask, has_external_connector,
  ${TEXT_COLUMNS.map((column) => `${column}::text`).join(', ')}, connector_ids`;
/** The field after ROW_FIELDS. */
const EXTRA_FIELD = 6 + TEXT_COLUMNS.length;
const TABLE_ORDER = 'proximity desc nulls last, prospect_id';
const NAME_RANK = '(row_number() over (order by full_name, prospect_id))::int4';

/** Codes of connector uuids, looked up by their 16 bytes: ten links a row, none formatted twice. */
function connectorCoder(dictionary: Dictionary) {
  const byBytes = new Map<string, number>();
  dictionary.values.forEach((value, code) => {
    if (value !== null) byBytes.set(Buffer.from(value.replaceAll('-', ''), 'hex').toString('latin1'), code);
  });
  return (buffer: Buffer, start: number) => {
    const key = buffer.toString('latin1', start, start + 16);
    let code = byBytes.get(key);
    if (code === undefined) {
      code = encode(dictionary, uuidText(buffer, start));
      byBytes.set(key, code);
    }
    return code;
  };
}

/** Appends a row PostgreSQL sent (ROW_FIELDS first); returns its index. */
function appendTuple(snapshot: NetworkSnapshot, tuple: Tuple, connectorCode: ReturnType<typeof connectorCoder>) {
  const row = snapshot.size;
  snapshot.ids.write(uuidText(tuple.buffer, tuple.starts[0] ?? 0), row * ID_BYTES, ID_BYTES, 'latin1');
  snapshot.proximity[row] = int4At(tuple, 1);
  snapshot.engagement[row] = int4At(tuple, 2);
  snapshot.signalMask[row] = int4At(tuple, 3);
  snapshot.external[row] = boolAt(tuple, 4) ? 1 : 0;
  TEXT_COLUMNS.forEach((column, index) => {
    const { codes, dictionary } = snapshot.text[column];
    codes[row] = encode(dictionary, textAt(tuple, 5 + index));
  });
  let links = snapshot.connectorStart[row] ?? 0;
  forEachUuidIn(tuple, 5 + TEXT_COLUMNS.length, (buffer, start) => {
    ensureLinks(snapshot, links + 1);
    snapshot.connectorCodes[links++] = connectorCode(buffer, start);
  });
  snapshot.connectorStart[row + 1] = links;
  snapshot.size++;
  return row;
}

/**
 * Copies `count` consecutive rows of `from`, starting at `first`, to this copy's rows from `to` on
 * (whose links must follow those of row `to - 1`). Their codes mean the same in both copies' dictionaries.
 */
function copyRun(snapshot: NetworkSnapshot, from: NetworkSnapshot, first: number, count: number, to: number) {
  const end = first + count;
  from.ids.copy(snapshot.ids, to * ID_BYTES, first * ID_BYTES, end * ID_BYTES);
  snapshot.proximity.set(from.proximity.subarray(first, end), to);
  snapshot.engagement.set(from.engagement.subarray(first, end), to);
  snapshot.signalMask.set(from.signalMask.subarray(first, end), to);
  snapshot.external.set(from.external.subarray(first, end), to);
  for (const column of TEXT_COLUMNS) snapshot.text[column].codes.set(from.text[column].codes.subarray(first, end), to);
  const linksFrom = from.connectorStart[first] ?? 0;
  const linksTo = snapshot.connectorStart[to] ?? 0;
  const linkCount = (from.connectorStart[end] ?? 0) - linksFrom;
  ensureLinks(snapshot, linksTo + linkCount);
  snapshot.connectorCodes.set(from.connectorCodes.subarray(linksFrom, linksFrom + linkCount), linksTo);
  for (let row = 1; row <= count; row++) {
    snapshot.connectorStart[to + row] = linksTo + (from.connectorStart[first + row] ?? 0) - linksFrom;
  }
}

/** The copy made whole: its links trimmed to what they hold, the companies ranked, the connector-to-rows lists filled. */
function finish(snapshot: NetworkSnapshot, companyRank?: Int32Array) {
  snapshot.connectorCodes = snapshot.connectorCodes.slice(0, snapshot.connectorStart[snapshot.size] ?? 0);
  snapshot.companyRank = companyRank ?? ranks(snapshot.text.company_id.dictionary);
  invertConnectors(snapshot);
  return snapshot;
}

/**
 * Runs `read` in a read-only, repeatable-read transaction of the workspace: every statement in it sees
 * the rows as of one version, whatever commits meanwhile.
 */
async function readConsistently<T>(database: Database, workspaceId: string, read: (client: PoolClient) => Promise<T>) {
  if (!UUID.test(workspaceId)) throw new Error('not a workspace id');
  const client = await database.pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`select set_config('app.workspace_id', $1, true)`, [workspaceId]);
    const result = await read(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function versionOf(client: PoolClient, workspaceId: string) {
  const found = await client.query<{ version: number; unlogged_until: number }>(
    `select coalesce(max(version), 0)::float8 as version, coalesce(max(unlogged_until), 0)::float8 as unlogged_until
       from network_versions where workspace_id = $1`,
    [workspaceId],
  );
  const row = found.rows[0];
  return { version: Number(row?.version ?? 0), unloggedUntil: Number(row?.unlogged_until ?? 0) };
}

const copyRows = (client: PoolClient, query: string, onTuple: (tuple: Tuple) => void) =>
  pipeline(client.query(copyTo(`copy (${query}) to stdout (format binary)`)), binaryCopySink(onTuple));

/** Reads the workspace's rows in one binary COPY, as the table orders them. */
async function loadSnapshot(database: Database, workspaceId: string): Promise<NetworkSnapshot> {
  return readConsistently(database, workspaceId, async (client) => {
    const { version } = await versionOf(client, workspaceId);
    const inWorkspace = `workspace_id = '${workspaceId}'`;
    const counted = await client.query<{ size: number }>(
      `select count(*)::int as size from network_rows where ${inWorkspace}`,
    );
    const capacity = Number(counted.rows[0]?.size ?? 0);
    const snapshot = emptySnapshot(version, capacity, capacity * 4, dictionaries(newDictionary));
    const connectorCode = connectorCoder(snapshot.connectors);
    await copyRows(
      client,
      `select ${ROW_FIELDS}, ${NAME_RANK} from network_rows r where ${inWorkspace} order by ${TABLE_ORDER}`,
      (tuple) => {
        const row = appendTuple(snapshot, tuple, connectorCode);
        snapshot.byName[int4At(tuple, EXTRA_FIELD) - 1] = row;
      },
    );
    return finish(snapshot);
  });
}

/**
 * Brings `old` to the current version by reading again only the rows written or removed since
 * (network_changes, filled by the trigger of migration 0038), and merging them in: about a second
 * for a few thousand changes at 1M rows, where a build takes 15-20 s. Null when it cannot: a version
 * in between was not logged, or more than a quarter of the rows changed (a build is as fast then).
 */
async function patchSnapshot(database: Database, workspaceId: string, old: NetworkSnapshot) {
  return readConsistently(database, workspaceId, async (client) => {
    const { version, unloggedUntil } = await versionOf(client, workspaceId);
    if (version < old.version || unloggedUntil > old.version) return null;
    const since = `from network_changes where workspace_id = '${workspaceId}' and version > ${Number(old.version)}`;
    const logged = await client.query<{ id: string }>(`select distinct prospect_id::text as id ${since}`);
    const changed = new Set(logged.rows.map((row) => row.id));
    if (changed.size * 4 > old.size) return null;
    if (changed.size === 0) return { snapshot: { ...old, version }, changedRows: 0 };

    // The changed rows as they are now, in the table's order, each with the row after it in the
    // name order (the first of the workspace's rows past its name and id) and its place among them.
    const inChanged = `workspace_id = '${workspaceId}' and prospect_id in (select prospect_id ${since})`;
    // Room for every logged row: those removed since are not read.
    const fresh = emptySnapshot(
      version,
      changed.size,
      changed.size * 4,
      dictionaries((coded) => copyDictionary(dictionaryOf(old, coded))),
    );
    const connectorCode = connectorCoder(fresh.connectors);
    const nextByName: (string | null)[] = [];
    const freshByName = new Uint32Array(changed.size);
    await copyRows(
      client,
      `select ${ROW_FIELDS},
              (select n.prospect_id::text from network_rows n
                where n.workspace_id = r.workspace_id and (n.full_name, n.prospect_id) > (r.full_name, r.prospect_id)
                order by n.full_name, n.prospect_id limit 1) as next_by_name,
              ${NAME_RANK}
         from network_rows r where ${inChanged} order by ${TABLE_ORDER}`,
      (tuple) => {
        const row = appendTuple(fresh, tuple, connectorCode);
        nextByName[row] = textAt(tuple, EXTRA_FIELD);
        freshByName[int4At(tuple, EXTRA_FIELD + 1) - 1] = row;
      },
    );
    // The fresh rows are only a source for the merge: no ranks nor connector lists of their own.
    const snapshot = mergeChanges(old, fresh, changed, nextByName, freshByName.subarray(0, fresh.size));
    return snapshot && { snapshot, changedRows: changed.size };
  });
}

/** Whether row i of `x` comes before row j of `y` in the table's order: proximity, highest first, then id. */
function comesBefore(x: NetworkSnapshot, i: number, y: NetworkSnapshot, j: number) {
  const proximityX = x.proximity[i] ?? 0;
  const proximityY = y.proximity[j] ?? 0;
  if (proximityX !== proximityY) return proximityX > proximityY;
  return x.ids.compare(y.ids, j * ID_BYTES, (j + 1) * ID_BYTES, i * ID_BYTES, (i + 1) * ID_BYTES) < 0;
}

/** A cheap number from an id's first and last four characters: a set of them finds ids without making a string per row. */
const idHash = (ids: Buffer, row: number) => ids.readInt32LE(row * ID_BYTES) ^ ids.readInt32LE(row * ID_BYTES + 32);

/**
 * `old` without the `changed` rows, and with `fresh` (those of them still there, as they are now)
 * merged in, in the table's order and in the name order. A fresh row goes in the table where a binary
 * search of `old` says, and in the name order just before the row that follows it there
 * (`nextByName`), or before that one's follower when it changed too: unchanged rows keep their places
 * relative to each other, so no name is compared here, and the order stays the database's collation.
 * Rows are copied in runs: a few thousand copies for a few thousand changes. Null when a follower is
 * missing from `old` (never expected: a rebuild then).
 */
function mergeChanges(
  old: NetworkSnapshot,
  fresh: NetworkSnapshot,
  changed: Set<string>,
  nextByName: (string | null)[],
  freshByName: Uint32Array,
): NetworkSnapshot | null {
  // The old rows that changed, and those fresh rows go before in the name order, found by hash first.
  const followers = new Set(nextByName.filter((id): id is string => id !== null && !changed.has(id)));
  const wanted = new Set<number>();
  for (const id of [...changed, ...followers]) wanted.add(idHash(Buffer.from(id, 'latin1'), 0));
  const kept = new Uint8Array(old.size).fill(1);
  let keptCount = old.size;
  const oldRowOf = new Map<string, number>();
  for (let row = 0; row < old.size; row++) {
    if (!wanted.has(idHash(old.ids, row))) continue;
    const id = idAt(old, row);
    if (changed.has(id)) {
      kept[row] = 0;
      keptCount--;
    } else if (followers.has(id)) oldRowOf.set(id, row);
  }
  if (oldRowOf.size !== followers.size) return null;

  // Where each fresh row goes: before the first old row it comes before (old is in the table's order).
  const insertAt = new Uint32Array(fresh.size);
  for (let row = 0; row < fresh.size; row++) {
    let low = row === 0 ? 0 : (insertAt[row - 1] ?? 0);
    let high = old.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comesBefore(fresh, row, old, middle)) high = middle;
      else low = middle + 1;
    }
    insertAt[row] = low;
  }
  const snapshot = emptySnapshot(
    fresh.version,
    keptCount + fresh.size,
    old.connectorCodes.length + fresh.connectorCodes.length,
    dictionaries((coded) => dictionaryOf(fresh, coded)),
  );
  const placeOfOld = new Uint32Array(old.size);
  const placeOfFresh = new Uint32Array(fresh.size);
  let runStart = -1;
  const endRun = (end: number) => {
    if (runStart < 0) return;
    copyRun(snapshot, old, runStart, end - runStart, snapshot.size);
    for (let row = runStart; row < end; row++) placeOfOld[row] = snapshot.size + row - runStart;
    snapshot.size += end - runStart;
    runStart = -1;
  };
  let next = 0;
  for (let row = 0; row <= old.size; row++) {
    let until = next;
    while (until < fresh.size && (insertAt[until] ?? 0) <= row) until++;
    if (until > next) {
      endRun(row);
      copyRun(snapshot, fresh, next, until - next, snapshot.size);
      for (let at = next; at < until; at++) placeOfFresh[at] = snapshot.size + at - next;
      snapshot.size += until - next;
      next = until;
    }
    if (row === old.size) break;
    if (kept[row] === 1) {
      if (runStart < 0) runStart = row;
    } else endRun(row);
  }
  endRun(old.size);

  // The old row each fresh row goes before in the name order (-1: the end), from the last name back.
  const freshRowOf = new Map(Array.from({ length: fresh.size }, (_, row) => [idAt(fresh, row), row]));
  const before = new Int32Array(fresh.size);
  for (let place = fresh.size - 1; place >= 0; place--) {
    const row = freshByName[place] ?? 0;
    const follower = nextByName[row] ?? null;
    before[row] =
      follower === null
        ? -1
        : changed.has(follower)
          ? (before[freshRowOf.get(follower) ?? 0] ?? -1)
          : (oldRowOf.get(follower) ?? -1);
  }
  const goingBefore = new Map<number, number[]>();
  const hasGoingBefore = new Uint8Array(old.size);
  for (const row of freshByName) {
    const target = before[row] ?? -1;
    const list = goingBefore.get(target) ?? [];
    list.push(row);
    goingBefore.set(target, list);
    if (target >= 0) hasGoingBefore[target] = 1;
  }
  let at = 0;
  const place = (rows: number[] | undefined) => {
    for (const row of rows ?? []) snapshot.byName[at++] = placeOfFresh[row] ?? 0;
  };
  for (const row of old.byName) {
    if (kept[row] === 0) continue;
    if (hasGoingBefore[row] === 1) place(goingBefore.get(row));
    snapshot.byName[at++] = placeOfOld[row] ?? 0;
  }
  place(goingBefore.get(-1));

  const companies = snapshot.text.company_id.dictionary;
  return finish(snapshot, companies.values.length === old.companyRank.length ? old.companyRank : undefined);
}

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

/** Rows passing one condition (1) or not (0). */
type Mask = Uint8Array;
/** One active condition: the facet it belongs to (null for the toggles every facet obeys) and its rows. */
type Condition = { field: NetworkFilterField | null; mask: Mask };

const none = (snapshot: NetworkSnapshot): Mask => new Uint8Array(snapshot.size);
const every = (snapshot: NetworkSnapshot): Mask => new Uint8Array(snapshot.size).fill(1);

function both(first: Mask, second: Mask): Mask {
  for (let row = 0; row < first.length; row++) first[row] = (first[row] ?? 0) & (second[row] ?? 0);
  return first;
}

function either(first: Mask, second: Mask): Mask {
  for (let row = 0; row < first.length; row++) first[row] = (first[row] ?? 0) | (second[row] ?? 0);
  return first;
}

// The loops below read each column into a local and index typed arrays directly: a million rows per
// condition, in a millisecond or two.

/** Rows whose code is allowed, for a column of codes and a table of allowed codes. */
function allowedCodes(size: number, codes: ArrayLike<number>, allowed: Uint8Array): Mask {
  const mask = new Uint8Array(size);
  for (let row = 0; row < size; row++) mask[row] = allowed[codes[row] ?? 0] ?? 0;
  return mask;
}

/** The codes of `column` whose value is one of `values`, as a table by code (null, code 0, never is). */
function allowedCodesOf(snapshot: NetworkSnapshot, column: TextColumn, values: readonly string[]) {
  const { dictionary } = snapshot.text[column];
  const allowed = new Uint8Array(dictionary.values.length);
  for (const value of values) {
    const code = dictionary.codes.get(value);
    if (code !== undefined) allowed[code] = 1;
  }
  return allowed;
}

/** Rows whose `column` holds one of `values` (null never matches, as `= any(...)` in SQL). */
function oneOf(snapshot: NetworkSnapshot, column: TextColumn, values: readonly string[]): Mask {
  return allowedCodes(snapshot.size, snapshot.text[column].codes, allowedCodesOf(snapshot, column, values));
}

/** The job titles that contain one of `titles`, ignoring case (the SQL side's ILIKE '%title%'). */
function titlesContaining(snapshot: NetworkSnapshot, titles: readonly string[]) {
  const terms = titles.filter((title) => title.length > 0).map((title) => title.toLowerCase());
  if (terms.length === 0) return [];
  return snapshot.text.job_title.dictionary.values.filter(
    (title): title is string => title !== null && terms.some((term) => title.toLowerCase().includes(term)),
  );
}

/** Rows whose job title contains one of `titles`, ignoring case. */
function titleContains(snapshot: NetworkSnapshot, titles: readonly string[]): Mask {
  return oneOf(snapshot, 'job_title', titlesContaining(snapshot, titles));
}

/** Each filter field's rows for its chosen values, as network-filters.ts FIELD_CONDITIONS says in SQL. */
const FIELD_MASKS: Record<NetworkFilterField, (snapshot: NetworkSnapshot, values: string[]) => Mask> = {
  companyName: (snapshot, values) =>
    oneOf(
      snapshot,
      'company_id',
      uuids(values).map((id) => id.toLowerCase()),
    ),
  companySize: (snapshot, values) => oneOf(snapshot, 'company_size', values),
  industry: (snapshot, values) => oneOf(snapshot, 'industry', values),
  jobDepartment: (snapshot, values) => oneOf(snapshot, 'department', values),
  personName: (snapshot, values) => {
    const mask = none(snapshot);
    for (const id of uuids(values)) {
      const at = snapshot.ids.indexOf(id.toLowerCase(), 0, 'latin1');
      if (at >= 0 && at % ID_BYTES === 0) mask[at / ID_BYTES] = 1;
    }
    return mask;
  },
  proximity: (snapshot, values) => {
    const allowed = new Uint8Array(101);
    for (const band of PROXIMITY_BANDS.filter((candidate) => values.includes(candidate.name))) {
      allowed.fill(1, band.min, band.max + 1);
    }
    return allowedCodes(snapshot.size, snapshot.proximity, allowed);
  },
  connector: (snapshot, values) => {
    const { connectorRowsStart, connectorRows } = snapshot;
    const mask = none(snapshot);
    for (const id of uuids(values)) {
      const code = snapshot.connectors.codes.get(id.toLowerCase());
      if (code === undefined) continue;
      const end = connectorRowsStart[code + 1] ?? 0;
      for (let at = connectorRowsStart[code] ?? 0; at < end; at++) mask[connectorRows[at] ?? 0] = 1;
    }
    return mask;
  },
  engagement: (snapshot, values) => {
    const allowed = Uint8Array.from(ENGAGEMENTS, (engagement) => (values.includes(engagement) ? 1 : 0));
    return allowedCodes(snapshot.size, snapshot.engagement, allowed);
  },
  signal: (snapshot, values) => {
    const bits = SIGNAL_TYPES.filter((type) => values.includes(type)).reduce((mask, type) => mask | signalBit(type), 0);
    const { size, signalMask } = snapshot;
    const mask = new Uint8Array(size);
    for (let row = 0; row < size; row++) mask[row] = ((signalMask[row] ?? 0) & bits) === 0 ? 0 : 1;
    return mask;
  },
};

/** A text column's codes and the codes a condition allows. */
type AllowedColumn = { codes: Int32Array; allowed: Uint8Array };

/** Whether every column allows the row's code. */
function allAllow(columns: AllowedColumn[], row: number) {
  for (let at = 0; at < columns.length; at++) {
    const column = columns[at];
    if (column && column.allowed[column.codes[row] ?? 0] !== 1) return false;
  }
  return true;
}

/**
 * The ideal customer profile (network-filters.ts idealCustomerProfile), given the companies it allows
 * (null when it allows every company). One pass over the rows with each condition's allowed codes: a
 * mask per condition and their ANDs took 40-90 ms of a table page.
 */
function idealCustomerProfileMask(
  snapshot: NetworkSnapshot,
  scheme: TTargetingScheme | null,
  companies: string[] | null,
): Mask {
  const mask = none(snapshot);
  if (!scheme) return mask;
  const column = (name: TextColumn, values: readonly string[]): AllowedColumn => ({
    codes: snapshot.text[name].codes,
    allowed: allowedCodesOf(snapshot, name, values),
  });
  /** The conditions with values chosen: one with none does not apply. */
  const chosen = (conditions: [TextColumn, readonly string[]][]) =>
    conditions.filter(([, values]) => values.length > 0).map(([name, values]) => column(name, values));
  const required = chosen([
    ['country', scheme.countries],
    ['company_size', scheme.companySize],
    ['company_type', scheme.companyType],
    ['industry', scheme.industries],
  ]);
  // The companies, when given, always apply: none allowed means no row.
  if (companies) required.push(column('company_id', companies));
  // By role: department and seniority (those chosen) together, or a chosen custom title.
  const byRole = chosen([
    ['department', scheme.jobDepartments],
    ['seniority', scheme.seniorities],
  ]);
  const byTitle = [column('job_title', titlesContaining(snapshot, scheme.selectedCustomJobTitles))];
  for (let row = 0; row < snapshot.size; row++) {
    if (allAllow(required, row) && (allAllow(byRole, row) || allAllow(byTitle, row))) mask[row] = 1;
  }
  return mask;
}

/** Personas (network-filters.ts personasMatch): custom titles, or department and seniority together. */
function personasMask(snapshot: NetworkSnapshot, personas: TPersona[]): Mask {
  const mask = none(snapshot);
  for (const persona of personas) {
    if (persona.jobDepartments.length > 0 && persona.seniorities.length > 0) {
      either(
        mask,
        both(oneOf(snapshot, 'department', persona.jobDepartments), oneOf(snapshot, 'seniority', persona.seniorities)),
      );
    }
    either(mask, titleContains(snapshot, persona.customJobTitles));
  }
  return mask;
}

async function companyIds(tx: Tx, query: SQL) {
  const result = await tx.execute<{ id: string | null }>(sql`select distinct id::text from (${query}) as c(id)`);
  return result.rows.flatMap((row) => (row.id === null ? [] : [row.id]));
}

/**
 * A request's filters over the copy: the toggles' conditions first (what they need from PostgreSQL,
 * such as the caller's targeting scheme, personas and accounts, is read in the request's transaction),
 * then one per filtered field.
 */
export async function conditionsOf(
  tx: Tx,
  caller: { workspaceId: string; userId: string },
  snapshot: NetworkSnapshot,
  query: NetworkQuery,
): Promise<Condition[]> {
  const { workspaceId, userId } = caller;
  const conditions: Condition[] = [];
  const shared = (mask: Mask) => conditions.push({ field: null, mask });
  if (query.idealCustomerProfile) {
    const scheme = await findTargetingScheme(tx, workspaceId, userId);
    const allowed = scheme ? idealCompanies(workspaceId, scheme) : null;
    shared(idealCustomerProfileMask(snapshot, scheme, allowed ? await companyIds(tx, allowed) : null));
  }
  if (query.personas) shared(personasMask(snapshot, await findPersonas(tx, workspaceId, userId)));
  if (query.myAccounts) {
    shared(oneOf(snapshot, 'company_id', await companyIds(tx, accountCompanies(workspaceId, [userId]))));
  }
  if (query.assignedTo.length > 0) {
    shared(oneOf(snapshot, 'company_id', await companyIds(tx, accountCompanies(workspaceId, query.assignedTo))));
  }
  if (query.externalOnly) shared(snapshot.external.slice(0, snapshot.size));
  for (const [field, values] of Object.entries(query.fields) as [NetworkFilterField, string[]][]) {
    conditions.push({
      field,
      mask: values.includes(EMPTY_STATE) ? none(snapshot) : FIELD_MASKS[field](snapshot, values),
    });
  }
  return conditions;
}

/**
 * How many conditions each row fails, and which one when it fails exactly one (its index in
 * `conditions`): a row counts in the table when it fails none, and in a facet's options when it fails
 * none or only that facet's own.
 */
function failures(snapshot: NetworkSnapshot, conditions: Condition[]) {
  const size = snapshot.size;
  const failed = new Uint8Array(size);
  const which = new Uint8Array(size);
  conditions.forEach(({ mask }, index) => {
    for (let row = 0; row < size; row++) {
      if (mask[row] === 0) {
        failed[row] = (failed[row] ?? 0) + 1;
        which[row] = index;
      }
    }
  });
  return { failed, which };
}

/** The filtered table: its row count and any page's ids, in the table's order. */
export function tablePage(snapshot: NetworkSnapshot, conditions: Condition[], page: number, pageSize: number) {
  const passing = conditions.reduce((rows, { mask }) => both(rows, mask), every(snapshot));
  const size = snapshot.size;
  const first = (page - 1) * pageSize;
  const rows: number[] = [];
  let totalCount = 0;
  for (let row = 0; row < size; row++) {
    if (passing[row] === 0) continue;
    if (totalCount >= first && rows.length < pageSize) rows.push(row);
    totalCount++;
  }
  return { totalCount, ids: rows.map((row) => idAt(snapshot, row)) };
}

/** The facets' counts over the copy: per option, the rows that pass every condition but the facet's own. */
export type FacetTallies = ReturnType<typeof facetTallies>;
type FacetCount = { key: string; count: number };

/** A dictionary's values with their counts, those never counted (and null) left out, as a SQL group by. */
const counted = (dictionary: Dictionary, tally: Int32Array): FacetCount[] =>
  dictionary.values.flatMap((key, code) =>
    key !== null && (tally[code] ?? 0) > 0 ? [{ key, count: tally[code] ?? 0 }] : [],
  );

/** Counts row's code in a text facet's tally (a function, not a closure made per row: V8 inlines it). */
function countCode(tally: { codes: Int32Array; counts: Int32Array }, row: number) {
  const code = tally.codes[row] ?? 0;
  tally.counts[code] = (tally.counts[code] ?? 0) + 1;
}

/** One pass over the rows for every facet: a row failing nothing counts in each, failing one only in that one's. */
export function facetTallies(snapshot: NetworkSnapshot, conditions: Condition[]) {
  const { failed, which } = failures(snapshot, conditions);
  const facet = (field: NetworkFilterField) => NETWORK_FILTER_FIELDS.indexOf(field);
  const facetOf = Int8Array.from(conditions, ({ field }) => (field === null ? -1 : facet(field)));
  const { text, proximity, engagement, signalMask, connectorStart, connectorCodes } = snapshot;
  /** A facet counted per code of a text column. */
  const textTally = (field: NetworkFilterField, column: TextColumn) => ({
    facet: facet(field),
    codes: text[column].codes,
    dictionary: text[column].dictionary,
    counts: new Int32Array(text[column].dictionary.values.length),
  });
  const company = textTally('companyName', 'company_id');
  const size = textTally('companySize', 'company_size');
  const industry = textTally('industry', 'industry');
  const department = textTally('jobDepartment', 'department');
  const byProximity = new Int32Array(101);
  const byEngagement = new Int32Array(ENGAGEMENTS.length);
  const bySignal = new Int32Array(SIGNAL_TYPES.length);
  const byConnector = new Int32Array(snapshot.connectors.values.length);
  const people = new Uint8Array(snapshot.size);
  const [PERSON, PROXIMITY, CONNECTOR, ENGAGEMENT, SIGNAL] = (
    ['personName', 'proximity', 'connector', 'engagement', 'signal'] as const
  ).map(facet);
  const rows = snapshot.size;
  const signals = SIGNAL_TYPES.length;
  // Written out flat: a closure per row made this pass ten times slower.
  for (let row = 0; row < rows; row++) {
    const failedCount = failed[row] ?? 0;
    if (failedCount > 1) continue;
    // -1: counts in every facet; otherwise only in this one's.
    const only = failedCount === 0 ? -1 : (facetOf[which[row] ?? 0] ?? -1);
    if (failedCount === 1 && only < 0) continue;
    const inEveryFacet = only === -1;
    if (inEveryFacet || only === company.facet) countCode(company, row);
    if (inEveryFacet || only === size.facet) countCode(size, row);
    if (inEveryFacet || only === industry.facet) countCode(industry, row);
    if (inEveryFacet || only === department.facet) countCode(department, row);
    if (inEveryFacet || only === PERSON) people[row] = 1;
    if (inEveryFacet || only === PROXIMITY) {
      const value = proximity[row] ?? 0;
      byProximity[value] = (byProximity[value] ?? 0) + 1;
    }
    if (inEveryFacet || only === ENGAGEMENT) {
      const value = engagement[row] ?? 0;
      byEngagement[value] = (byEngagement[value] ?? 0) + 1;
    }
    if (inEveryFacet || only === SIGNAL) {
      const mask = signalMask[row] ?? 0;
      for (let bit = 0; mask !== 0 && bit < signals; bit++) {
        if (mask & (1 << bit)) bySignal[bit] = (bySignal[bit] ?? 0) + 1;
      }
    }
    if (inEveryFacet || only === CONNECTOR) {
      const end = connectorStart[row + 1] ?? 0;
      for (let at = connectorStart[row] ?? 0; at < end; at++) {
        const code = connectorCodes[at] ?? 0;
        byConnector[code] = (byConnector[code] ?? 0) + 1;
      }
    }
  }
  return {
    /** One page of companies, most rows first, ties in id order (the SQL side's `count desc, co.id`). */
    companies: (offset: number, limit: number): FacetCount[] => {
      const { companyRank } = snapshot;
      const tally = company.counts;
      const present: number[] = [];
      for (let code = 1; code < tally.length; code++) if ((tally[code] ?? 0) > 0) present.push(code);
      const codes = Int32Array.from(present).sort(
        (a, b) => (tally[b] ?? 0) - (tally[a] ?? 0) || (companyRank[a] ?? 0) - (companyRank[b] ?? 0),
      );
      const values = company.dictionary.values;
      return Array.from(codes.subarray(offset, offset + limit), (code) => ({
        key: values[code] ?? '',
        count: tally[code] ?? 0,
      }));
    },
    values: (field: 'companySize' | 'industry' | 'jobDepartment') => {
      const tally = field === 'companySize' ? size : field === 'industry' ? industry : department;
      return counted(tally.dictionary, tally.counts);
    },
    proximityBands: () =>
      PROXIMITY_BANDS.map((band) => ({
        key: band.name,
        count: byProximity.subarray(band.min, band.max + 1).reduce((sum, count) => sum + count, 0),
      })),
    engagements: () => ENGAGEMENTS.map((key, level) => ({ key, count: byEngagement[level] ?? 0 })),
    signalBits: () => Array.from(bySignal),
    connectors: () => counted(snapshot.connectors, byConnector),
    /** One page of the prospects the name facet offers, in its order (full name, then id). */
    people: (offset: number, limit: number) => {
      const ids: string[] = [];
      let skipped = 0;
      for (let at = 0; at < snapshot.size && ids.length < limit; at++) {
        const row = snapshot.byName[at] ?? 0;
        if (!people[row]) continue;
        if (skipped++ >= offset) ids.push(idAt(snapshot, row));
      }
      return ids;
    },
  };
}
