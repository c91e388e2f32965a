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
// writes network rows moves the workspace's version (a trigger, migration 0035), and a stale copy is
// rebuilt in the background while PostgreSQL answers, as it does for small workspaces. So the rules of
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

/** Reads the workspace's rows in one binary COPY, as the table orders them; null when they changed meanwhile. */
async function loadSnapshot(database: Database, workspaceId: string): Promise<NetworkSnapshot | null> {
  if (!UUID.test(workspaceId)) throw new Error('not a workspace id');
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('app.workspace_id', $1, true)`, [workspaceId]);
    const versionSql = `select coalesce((select version from network_versions where workspace_id = $1), 0)::float8 as version`;
    const version = Number((await client.query(versionSql, [workspaceId])).rows[0].version);
    const counted = await client.query(`select count(*)::int as size from network_rows where workspace_id = $1`, [
      workspaceId,
    ]);
    const capacity = Number(counted.rows[0].size);
    const snapshot: NetworkSnapshot = {
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
          { codes: new Int32Array(capacity), dictionary: { values: [null], codes: new Map() } },
        ]),
      ) as NetworkSnapshot['text'],
      connectorStart: new Uint32Array(capacity + 1),
      connectorCodes: new Int32Array(Math.max(16, capacity * 4)),
      connectors: { values: [null], codes: new Map() },
      connectorRowsStart: new Uint32Array(0),
      connectorRows: new Uint32Array(0),
      byName: new Uint32Array(capacity),
      companyRank: new Int32Array(0),
    };
    let connectorCount = 0;
    // Connector codes by the uuid's 16 bytes: ten links a row, each looked up without formatting it.
    const connectorCodeOf = new Map<string, number>();
    const addConnector = (buffer: Buffer, start: number) => {
      const key = buffer.toString('latin1', start, start + 16);
      let code = connectorCodeOf.get(key);
      if (code === undefined) {
        code = encode(snapshot.connectors, uuidText(buffer, start));
        connectorCodeOf.set(key, code);
      }
      if (connectorCount === snapshot.connectorCodes.length) {
        const grown = new Int32Array(connectorCount * 2);
        grown.set(snapshot.connectorCodes);
        snapshot.connectorCodes = grown;
      }
      snapshot.connectorCodes[connectorCount++] = code;
    };
    const addRow = (tuple: Tuple) => {
      const row = snapshot.size;
      if (row >= capacity) return; // rows committed after the count: the version check below discards the copy
      snapshot.ids.write(uuidText(tuple.buffer, tuple.starts[0] ?? 0), row * ID_BYTES, ID_BYTES, 'latin1');
      snapshot.proximity[row] = int4At(tuple, 1);
      snapshot.engagement[row] = int4At(tuple, 2);
      snapshot.signalMask[row] = int4At(tuple, 3);
      snapshot.external[row] = boolAt(tuple, 4) ? 1 : 0;
      TEXT_COLUMNS.forEach((column, index) => {
        const { codes, dictionary } = snapshot.text[column];
        codes[row] = encode(dictionary, textAt(tuple, 5 + index));
      });
      forEachUuidIn(tuple, 13, addConnector);
      snapshot.connectorStart[row + 1] = connectorCount;
      snapshot.byName[int4At(tuple, 14) - 1] = row;
      snapshot.size++;
    };
    await pipeline(
      client.query(
        copyTo(`copy (select prospect_id, proximity::int4, engagement::int4, signal_mask, has_external_connector,
                             ${TEXT_COLUMNS.map((column) => `${column}::text`).join(', ')}, connector_ids,
                             (row_number() over (order by full_name, prospect_id))::int4
                        from network_rows r where workspace_id = '${workspaceId}'
                       order by proximity desc nulls last, prospect_id) to stdout (format binary)`),
      ),
      binaryCopySink(addRow),
    );
    snapshot.companyRank = ranks(snapshot.text.company_id.dictionary);
    // The array grew by doubling: keep only what it holds.
    snapshot.connectorCodes = snapshot.connectorCodes.slice(0, connectorCount);
    invertConnectors(snapshot);
    const after = Number((await client.query(versionSql, [workspaceId])).rows[0].version);
    await client.query('commit');
    return after === version && snapshot.size === capacity ? snapshot : null;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export type NetworkIndex = {
  /**
   * The workspace's copy if it is current. Otherwise null (PostgreSQL answers), and a large enough
   * workspace gets a copy built in the background for the requests after.
   */
  current: (tx: Tx, workspaceId: string) => Promise<NetworkSnapshot | null>;
  /** Resolves once no copy is being built (tests, benchmarks and shutdown wait on it). */
  settled: () => Promise<void>;
};

export function createNetworkIndex(
  database: Database,
  options: { minRows?: number; onError?: (error: unknown) => void } = {},
): NetworkIndex {
  const minRows = options.minRows ?? NETWORK_INDEX_MIN_ROWS;
  const snapshots = new Map<string, NetworkSnapshot>();
  const building = new Map<string, Promise<void>>();
  /** The version a build last failed at: not retried until the rows change. */
  const failedAt = new Map<string, number>();

  const build = (workspaceId: string, version: number) => {
    const work = loadSnapshot(database, workspaceId)
      .then((snapshot) => {
        if (!snapshot) return;
        snapshots.delete(workspaceId);
        snapshots.set(workspaceId, snapshot);
        for (const oldest of snapshots.keys()) {
          if (snapshots.size <= MAX_WORKSPACES) break;
          snapshots.delete(oldest);
        }
      })
      .catch((error: unknown) => {
        failedAt.set(workspaceId, version);
        options.onError?.(error);
      })
      .finally(() => building.delete(workspaceId));
    building.set(workspaceId, work);
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
      if (!building.has(workspaceId) && failedAt.get(workspaceId) !== version) build(workspaceId, version);
      return null;
    },
    settled: async () => {
      while (building.size > 0) await Promise.all(building.values());
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
