import { sql } from 'drizzle-orm';
import { int4At, textAt } from '../../../db/binary-copy.ts';
import type { Database } from '../../../db/client.ts';
import {
  appendTuple,
  connectorCoder,
  copyDictionary,
  copyRows,
  copyRun,
  dictionaries,
  dictionaryOf,
  EXTRA_FIELD,
  emptySnapshot,
  finish,
  ID_BYTES,
  idAt,
  NAME_RANK,
  type NetworkSnapshot,
  nextTurn,
  ROW_FIELDS,
  readConsistently,
  TABLE_ORDER,
  turnOver,
  versionOf,
} from './snapshot.ts';

/**
 * Brings `old` to the current version by reading again only the rows written or removed since
 * (network_changes, filled by the trigger of migration 0038), and merging them in: 130-190 ms of CPU
 * for a few hundred changes at 1M rows (0.6 s under the scale bench), where a build takes 15-20 s.
 * Null when it cannot: a version in between was not logged, or more than a quarter of the rows
 * changed (a build is as fast then).
 */
export async function patchSnapshot(database: Database, workspaceId: string, old: NetworkSnapshot) {
  const read = await readChanges(database, workspaceId, old);
  if (!read) return null;
  if ('unchanged' in read) return { snapshot: { ...old, version: read.unchanged }, changedRows: 0 };
  // Merged once the transaction has ended: it holds no connection, nor the database's oldest snapshot.
  const { fresh, changed, nextByName, freshByName } = read;
  const snapshot = await mergeChanges(old, fresh, changed, nextByName, freshByName);
  return snapshot && { snapshot, changedRows: changed.size };
}

/** The rows changed since a copy, as mergeChanges takes them. */
type ChangedRows = {
  fresh: NetworkSnapshot;
  changed: Set<string>;
  nextByName: (string | null)[];
  freshByName: Uint32Array;
};

/**
 * The rows changed since `old`, read at one version (see patchSnapshot); `unchanged` (the version) when
 * none did, null when a patch cannot do.
 */
async function readChanges(
  database: Database,
  workspaceId: string,
  old: NetworkSnapshot,
): Promise<{ unchanged: number } | ChangedRows | null> {
  return readConsistently(database, workspaceId, async (client) => {
    const { version, unloggedUntil } = await versionOf(client, workspaceId);
    if (version < old.version || unloggedUntil > old.version) return null;
    const logged = await client.query<{ id: string }>(
      'select distinct prospect_id::text as id from network_changes where workspace_id = $1 and version > $2',
      [workspaceId, old.version],
    );
    const changed = new Set(logged.rows.map((row) => row.id));
    if (changed.size * 4 > old.size) return null;
    if (changed.size === 0) return { unchanged: version };

    // The changed rows as they are now, in the table's order, each with the row after it in the
    // name order (the first of the workspace's rows past its name and id) and its place among them.
    const inChanged = sql`workspace_id = ${workspaceId}::uuid and prospect_id in (
      select prospect_id from network_changes where workspace_id = ${workspaceId}::uuid and version > ${old.version}::bigint)`;
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
      sql`select ${ROW_FIELDS},
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
    return { fresh, changed, nextByName, freshByName: freshByName.subarray(0, fresh.size) };
  });
}

/** Whether row i of `x` comes before row j of `y` in the table's order: proximity, highest first, then id. */
function comesBefore(x: NetworkSnapshot, i: number, y: NetworkSnapshot, j: number) {
  const proximityX = x.proximity[i] ?? 0;
  const proximityY = y.proximity[j] ?? 0;
  if (proximityX !== proximityY) return proximityX > proximityY;
  return x.ids.compare(y.ids, j * ID_BYTES, (j + 1) * ID_BYTES, i * ID_BYTES, (i + 1) * ID_BYTES) < 0;
}

/**
 * A cheap number from each id's first and last four characters: a set of them finds ids without making
 * a string per row. Read as whole words of a copy's ids (Buffer.alloc starts them on a word): a
 * million rows in 12 ms, where reading each number from the Buffer took 30.
 */
function idHashes(ids: Buffer) {
  const words = new Int32Array(ids.buffer, ids.byteOffset, ids.byteLength >>> 2);
  const wordsPerId = ID_BYTES / 4;
  return (row: number) => (words[row * wordsPerId] ?? 0) ^ (words[row * wordsPerId + wordsPerId - 1] ?? 0);
}

/**
 * `old` without the `changed` rows, and with `fresh` (those of them still there, as they are now)
 * merged in, in the table's order and in the name order. A fresh row goes in the table where a binary
 * search of `old` says, and in the name order just before the row that follows it there
 * (`nextByName`), or before that one's follower when it changed too: unchanged rows keep their places
 * relative to each other, so no name is compared here, and the order stays the database's collation.
 * Rows are copied in runs: a few thousand copies for a few thousand changes. Null when a follower is
 * missing from `old` (never expected: a rebuild then).
 */
export async function mergeChanges(
  old: NetworkSnapshot,
  fresh: NetworkSnapshot,
  changed: Set<string>,
  nextByName: (string | null)[],
  freshByName: Uint32Array,
): Promise<NetworkSnapshot | null> {
  // The old rows that changed, and those fresh rows go before in the name order, found by hash first.
  const followers = new Set(nextByName.filter((id): id is string => id !== null && !changed.has(id)));
  const sought = [...changed, ...followers];
  const soughtIds = Buffer.alloc(sought.length * ID_BYTES);
  for (const [at, id] of sought.entries()) soughtIds.write(id, at * ID_BYTES, ID_BYTES, 'latin1');
  const soughtHash = idHashes(soughtIds);
  const wanted = new Set(sought.map((_, at) => soughtHash(at)));
  const oldHash = idHashes(old.ids);
  const kept = new Uint8Array(old.size).fill(1);
  let keptCount = old.size;
  let keptLinks = old.connectorStart[old.size] ?? 0;
  const oldRowOf = new Map<string, number>();
  for (let row = 0; row < old.size; row++) {
    if (turnOver(row)) await nextTurn();
    if (!wanted.has(oldHash(row))) continue;
    const id = idAt(old, row);
    if (changed.has(id)) {
      kept[row] = 0;
      keptCount--;
      keptLinks -= (old.connectorStart[row + 1] ?? 0) - (old.connectorStart[row] ?? 0);
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
    // Exactly the links it will hold: none copied again to grow or trim.
    keptLinks + (fresh.connectorStart[fresh.size] ?? 0),
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
    // The run so far is copied before the turn: a run is copied whole when it ends, and with a few
    // hundred changes in a million rows, runs of 100,000 rows and more held the loop half a second.
    if (turnOver(row)) {
      endRun(row);
      await nextTurn();
    }
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
  for (let turn = 0; turn < old.byName.length; turn++) {
    if (turnOver(turn)) await nextTurn();
    const row = old.byName[turn] ?? 0;
    if (kept[row] === 0) continue;
    if (hasGoingBefore[row] === 1) place(goingBefore.get(row));
    snapshot.byName[at++] = placeOfOld[row] ?? 0;
  }
  place(goingBefore.get(-1));

  return finish(snapshot, old.companyRank);
}
