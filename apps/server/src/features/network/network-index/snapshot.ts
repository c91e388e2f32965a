import { pipeline } from 'node:stream/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  binaryCopySink,
  boolAt,
  forEachUuidIn,
  int4At,
  type Tuple,
  textAt,
  uuidText,
} from '../../../db/binary-copy.ts';
import type { Database } from '../../../db/client.ts';
import { inlineSql } from '../../../db/inline-sql.ts';

// A copy's layout (typed arrays in the table's order, text coded into dictionaries) and reading it
// whole from PostgreSQL in one binary COPY. Adding a column to the copy starts here.

export type Dictionary = { values: (string | null)[]; codes: Map<string, number> };

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
export type TextColumn = (typeof TEXT_COLUMNS)[number];

export const ID_BYTES = 36;

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
  /**
   * The same links the other way: connector code c's rows are connectorRows[connectorRowsStart[c] ..
   * connectorRowsStart[c + 1]), in order. Empty until `listConnectorRows` has filled them.
   */
  connectorRowsStart: Uint32Array;
  connectorRows: Uint32Array;
  /** The rows in the name facet's order (full name, then id). */
  byName: Uint32Array;
  /** Each company code's place in id order: the company facet's tie-break. */
  companyRank: Int32Array;
};

/**
 * Each code's place when the dictionary's values are sorted (as PostgreSQL orders uuids: their text).
 * `earlier`: the places of the dictionary's first codes, from the copy this one was patched from (a
 * patch only appends codes). Only the codes added since are sorted, then merged in: a full sort of a
 * million prospects' companies held a process's event loop for 0.6-0.9 s whenever a patch brought one
 * new company, and every request of that process waited as long.
 */
export function ranks(dictionary: Dictionary, earlier: Int32Array = new Int32Array(0)) {
  const { values } = dictionary;
  if (earlier.length === values.length) return earlier;
  const textOf = (code: number) => values[code] ?? '';
  const added = Array.from({ length: values.length - earlier.length }, (_, at) => earlier.length + at);
  added.sort((a, b) => (textOf(a) < textOf(b) ? -1 : 1));
  const earlierInOrder = new Int32Array(earlier.length);
  earlier.forEach((place, code) => {
    earlierInOrder[place] = code;
  });
  const rank = new Int32Array(values.length);
  let fromEarlier = 0;
  let fromAdded = 0;
  for (let place = 0; place < values.length; place++) {
    const nextEarlier = earlierInOrder[fromEarlier] ?? 0;
    const nextAdded = added[fromAdded] ?? 0;
    const takeEarlier =
      fromAdded === added.length || (fromEarlier < earlier.length && textOf(nextEarlier) < textOf(nextAdded));
    if (takeEarlier) fromEarlier++;
    else fromAdded++;
    rank[takeEarlier ? nextEarlier : nextAdded] = place;
  }
  return rank;
}

export const idAt = (snapshot: NetworkSnapshot, row: number) =>
  snapshot.ids.toString('latin1', row * ID_BYTES, (row + 1) * ID_BYTES);

/**
 * How many rows a pass over a copy handles before it lets the process's waiting requests run: a pass
 * over a million rows (a patch's merge, the connector lists) took 0.5 s of one event loop, and every
 * request of the process waited that long for its answer (the scale bench's p99 rose by as much while
 * a graph job moved the copies on). 32k rows are about 15 ms.
 */
const ROWS_PER_TURN = 32_768;

/** Whether a pass at `row` has had its turn: it then awaits `nextTurn()` before going on. */
export const turnOver = (row: number) => row % ROWS_PER_TURN === ROWS_PER_TURN - 1;
/** Lets waiting requests and I/O run. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fills the connector-to-rows lists from the row-to-connectors ones (a counting sort): a connector
 * filter then visits its own rows only, instead of every link of every row (50 ms at 10M links). A
 * copy is served before its lists are filled (`connectorsListed`): this pass was half of a patch's
 * work, and a request for the network waits for the patch.
 */
export async function listConnectorRows(snapshot: NetworkSnapshot) {
  const { size, connectorStart, connectorCodes } = snapshot;
  const start = new Uint32Array(snapshot.connectors.values.length + 1);
  for (const code of connectorCodes) start[code + 1] = (start[code + 1] ?? 0) + 1;
  for (let code = 1; code < start.length; code++) start[code] = (start[code] ?? 0) + (start[code - 1] ?? 0);
  const next = start.slice(0, -1);
  const rows = new Uint32Array(connectorCodes.length);
  for (let row = 0; row < size; row++) {
    if (turnOver(row)) await nextTurn();
    const end = connectorStart[row + 1] ?? 0;
    for (let at = connectorStart[row] ?? 0; at < end; at++) {
      const code = connectorCodes[at] ?? 0;
      rows[next[code] ?? 0] = row;
      next[code] = (next[code] ?? 0) + 1;
    }
  }
  // Both at once, in one turn: a request sees the lists whole, or none.
  snapshot.connectorRowsStart = start;
  snapshot.connectorRows = rows;
}

/** Whether `listConnectorRows` has filled the copy's connector-to-rows lists. */
export const connectorsListed = (snapshot: NetworkSnapshot) => snapshot.connectorRowsStart.length > 0;

const UUID = /^[0-9a-f-]{36}$/;

type Dictionaries = { text: Record<TextColumn, Dictionary>; connectors: Dictionary };

const newDictionary = (): Dictionary => ({ values: [null], codes: new Map() });
/** A copy's dictionaries are its own: a patched copy extends copies of them, and the old one stays as it was. */
export const copyDictionary = (dictionary: Dictionary): Dictionary => ({
  values: [...dictionary.values],
  codes: new Map(dictionary.codes),
});

type Coded = TextColumn | 'connectors';
export const dictionaryOf = (snapshot: NetworkSnapshot, coded: Coded) =>
  coded === 'connectors' ? snapshot.connectors : snapshot.text[coded].dictionary;

/** Every dictionary a copy codes with, each the one `make` gives for its column. */
export function dictionaries(make: (coded: Coded) => Dictionary): Dictionaries {
  return {
    text: Object.fromEntries(TEXT_COLUMNS.map((column) => [column, make(column)])) as Dictionaries['text'],
    connectors: make('connectors'),
  };
}

/** A copy with room for `capacity` rows and about `links` connectors, none filled yet, coding its values with `dictionaries`. */
export function emptySnapshot(
  version: number,
  capacity: number,
  links: number,
  dictionaries: Dictionaries,
): NetworkSnapshot {
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
export const ROW_FIELDS = sql.raw(`prospect_id, proximity::int4, engagement::int4, signal_mask, has_external_connector,
  ${TEXT_COLUMNS.map((column) => `${column}::text`).join(', ')}, connector_ids`);
/** The field after ROW_FIELDS. */
export const EXTRA_FIELD = 6 + TEXT_COLUMNS.length;
export const TABLE_ORDER = sql`proximity desc nulls last, prospect_id`;
export const NAME_RANK = sql`(row_number() over (order by full_name, prospect_id))::int4`;

/** Codes of connector uuids, looked up by their 16 bytes: ten links a row, none formatted twice. */
export function connectorCoder(dictionary: Dictionary) {
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
export function appendTuple(snapshot: NetworkSnapshot, tuple: Tuple, connectorCode: ReturnType<typeof connectorCoder>) {
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
export function copyRun(snapshot: NetworkSnapshot, from: NetworkSnapshot, first: number, count: number, to: number) {
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

/**
 * The copy made whole, but for its connector-to-rows lists (`listConnectorRows`, run once it is
 * served): its links trimmed to what they hold, the companies ranked (from the ranks of the copy it
 * was patched from, if so).
 */
export function finish(snapshot: NetworkSnapshot, earlierCompanyRank?: Int32Array) {
  const links = snapshot.connectorStart[snapshot.size] ?? 0;
  if (links < snapshot.connectorCodes.length) snapshot.connectorCodes = snapshot.connectorCodes.slice(0, links);
  snapshot.companyRank = ranks(snapshot.text.company_id.dictionary, earlierCompanyRank);
  return snapshot;
}

/** A dictionary entry's cost beside its text: its slot in `values` and its entry in `codes`. */
const DICTIONARY_ENTRY_BYTES = 80;

/**
 * The memory a copy holds, near enough for a budget: its arrays exactly, its dictionaries' text at two
 * bytes a character plus what each entry costs in the array and the map.
 */
export function snapshotBytes(snapshot: NetworkSnapshot): number {
  const dictionaryBytes = (dictionary: Dictionary) =>
    dictionary.values.reduce((sum, value) => sum + DICTIONARY_ENTRY_BYTES + 2 * (value?.length ?? 0), 0);
  let bytes =
    snapshot.ids.byteLength +
    snapshot.proximity.byteLength +
    snapshot.engagement.byteLength +
    snapshot.signalMask.byteLength +
    snapshot.external.byteLength +
    snapshot.connectorStart.byteLength +
    snapshot.connectorCodes.byteLength +
    // The connector-to-rows lists, filled or to be: as many rows as links, a start for each connector.
    snapshot.connectorCodes.byteLength +
    4 * (snapshot.connectors.values.length + 1) +
    snapshot.byName.byteLength +
    snapshot.companyRank.byteLength +
    dictionaryBytes(snapshot.connectors);
  for (const column of Object.values(snapshot.text))
    bytes += column.codes.byteLength + dictionaryBytes(column.dictionary);
  return bytes;
}

/**
 * Runs `read` in a read-only, repeatable-read transaction of the workspace: every statement in it sees
 * the rows as of one version, whatever commits meanwhile.
 */
export async function readConsistently<T>(
  database: Database,
  workspaceId: string,
  read: (client: PoolClient) => Promise<T>,
) {
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

export async function versionOf(client: PoolClient, workspaceId: string) {
  const found = await client.query<{ version: number; unlogged_until: number }>(
    `select coalesce(max(version), 0)::float8 as version, coalesce(max(unlogged_until), 0)::float8 as unlogged_until
       from network_versions where workspace_id = $1`,
    [workspaceId],
  );
  const row = found.rows[0];
  return { version: Number(row?.version ?? 0), unloggedUntil: Number(row?.unlogged_until ?? 0) };
}

/** Reads `query`'s rows in one binary COPY (which takes no parameters: its values are written in). */
export const copyRows = (client: PoolClient, query: SQL, onTuple: (tuple: Tuple) => void) =>
  pipeline(client.query(copyTo(`copy (${inlineSql(query)}) to stdout (format binary)`)), binaryCopySink(onTuple));

/** Reads the workspace's rows in one binary COPY, as the table orders them. */
export async function loadSnapshot(database: Database, workspaceId: string): Promise<NetworkSnapshot> {
  return readConsistently(database, workspaceId, async (client) => {
    const { version } = await versionOf(client, workspaceId);
    const counted = await client.query<{ size: number }>(
      'select count(*)::int as size from network_rows where workspace_id = $1',
      [workspaceId],
    );
    const capacity = Number(counted.rows[0]?.size ?? 0);
    const snapshot = emptySnapshot(version, capacity, capacity * 4, dictionaries(newDictionary));
    const connectorCode = connectorCoder(snapshot.connectors);
    await copyRows(
      client,
      sql`select ${ROW_FIELDS}, ${NAME_RANK} from network_rows r where workspace_id = ${workspaceId}::uuid order by ${TABLE_ORDER}`,
      (tuple) => {
        const row = appendTuple(snapshot, tuple, connectorCode);
        snapshot.byName[int4At(tuple, EXTRA_FIELD) - 1] = row;
      },
    );
    return finish(snapshot);
  });
}
