import { describe, expect, it } from 'vitest';
import { mergeChanges } from './patch.ts';
import {
  copyDictionary,
  dictionaries,
  dictionaryOf,
  emptySnapshot,
  finish,
  ID_BYTES,
  listConnectorRows,
  type NetworkSnapshot,
} from './snapshot.ts';

/** Prospect n's id: ids sort as their numbers do, and so do names here (a name order is the id order). */
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

type Prospect = { n: number; proximity: number; signal: number; connectors: string[] };

/** The table's order: proximity, highest first, then id. */
const inTableOrder = (prospects: Prospect[]) => [...prospects].sort((a, b) => b.proximity - a.proximity || a.n - b.n);

/**
 * A copy of `prospects` (not finished), its connectors coded in the order of `connectorNames`, then of
 * the rows (in the table's order); with
 * `codedAs`, coded with copies of that copy's dictionaries, as a patch codes its fresh rows.
 */
function copyOf(prospects: Prospect[], connectorNames: string[], version: number, codedAs?: NetworkSnapshot) {
  const rows = inTableOrder(prospects);
  const links = rows.reduce((sum, prospect) => sum + prospect.connectors.length, 0);
  const snapshot = emptySnapshot(
    version,
    rows.length,
    links,
    dictionaries((coded) =>
      codedAs ? copyDictionary(dictionaryOf(codedAs, coded)) : { values: [null], codes: new Map() },
    ),
  );
  for (const name of [...connectorNames, ...rows.flatMap((prospect) => prospect.connectors)]) {
    if (snapshot.connectors.codes.has(name)) continue;
    snapshot.connectors.codes.set(name, snapshot.connectors.values.length);
    snapshot.connectors.values.push(name);
  }
  let link = 0;
  rows.forEach((prospect, row) => {
    snapshot.ids.write(idOf(prospect.n), row * ID_BYTES, ID_BYTES, 'latin1');
    snapshot.proximity[row] = prospect.proximity;
    snapshot.signalMask[row] = prospect.signal;
    for (const name of prospect.connectors) snapshot.connectorCodes[link++] = snapshot.connectors.codes.get(name) ?? 0;
    snapshot.connectorStart[row + 1] = link;
  });
  const rowOf = new Map(rows.map((prospect, row) => [prospect.n, row]));
  [...prospects]
    .sort((a, b) => a.n - b.n)
    .forEach((prospect, place) => {
      snapshot.byName[place] = rowOf.get(prospect.n) ?? 0;
    });
  snapshot.size = rows.length;
  return snapshot;
}

/**
 * `before` patched into `after` the way a patch does it: the fresh rows are the changed prospects
 * still there, each told the prospect after it in the name order.
 */
async function patch(before: Prospect[], after: Prospect[], connectorNames: string[]) {
  const old = finish(copyOf(before, connectorNames, 1));
  const now = new Map(after.map((prospect) => [prospect.n, prospect]));
  const was = new Map(before.map((prospect) => [prospect.n, JSON.stringify(prospect)]));
  const changedNumbers = [...new Set([...was.keys(), ...now.keys()])].filter(
    (n) => was.get(n) !== JSON.stringify(now.get(n)),
  );
  const freshProspects = changedNumbers.flatMap((n) => now.get(n) ?? []);
  const fresh = copyOf(freshProspects, connectorNames, 2, old);
  const byName = after.map((prospect) => prospect.n).sort((a, b) => a - b);
  const nextByName = inTableOrder(freshProspects).map((prospect) => {
    const next = byName[byName.indexOf(prospect.n) + 1];
    return next === undefined ? null : idOf(next);
  });
  const freshByName = fresh.byName.subarray(0, fresh.size);
  const patched = await mergeChanges(old, fresh, new Set(changedNumbers.map(idOf)), nextByName, freshByName);
  if (patched) await listConnectorRows(patched);
  return patched;
}

/** A copy read whole of `prospects`, its connector-to-rows lists filled. */
async function build(prospects: Prospect[], connectorNames: string[]) {
  const built = finish(copyOf(prospects, connectorNames, 2));
  await listConnectorRows(built);
  return built;
}

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** Whether `patched` holds what a build of the same rows holds, field by field. */
function expectSameAs(patched: NetworkSnapshot | null, built: NetworkSnapshot) {
  expect(patched?.size).toBe(built.size);
  if (!patched) return;
  for (const field of [
    'proximity',
    'signalMask',
    'connectorStart',
    'connectorCodes',
    'connectorRowsStart',
    'connectorRows',
    'byName',
    'companyRank',
  ] as const)
    expect(bytesOf(patched[field]).equals(bytesOf(built[field])), field).toBe(true);
  expect(patched.ids.subarray(0, built.size * ID_BYTES).equals(built.ids)).toBe(true);
  expect(patched.connectors.values).toEqual(built.connectors.values);
}

describe('a patch of a large copy', () => {
  it('is the copy a build reads, when a few changes leave runs of rows longer than a turn', async () => {
    const before = Array.from({ length: 100_000 }, (_, n) => ({ n, proximity: 50, signal: 0, connectors: ['c'] }));
    // Prospect 70,000 has a new signal and prospect 10 is gone: runs of 70,000 and 30,000 rows between.
    const after = before.filter(({ n }) => n !== 10).map((p) => (p.n === 70_000 ? { ...p, signal: 7 } : p));

    const patched = await patch(before, after, ['c']);

    expectSameAs(patched, await build(after, ['c']));
  });

  it('is the copy a build reads, when changed rows move in the order, gain and lose connectors, and one arrives', async () => {
    const names = ['a', 'b', 'c'];
    const before = Array.from({ length: 100_000 }, (_, n) => ({
      n,
      proximity: (n % 7) * 10,
      signal: 0,
      connectors: n % 5 === 0 ? [names[n % 3] ?? 'a', names[(n + 1) % 3] ?? 'b'] : [names[n % 3] ?? 'a'],
    }));
    const after = before
      .filter(({ n }) => n !== 10)
      .map((p) => {
        // Up to the top with a connector never seen, down to the bottom with none, a link added.
        if (p.n === 70_000) return { ...p, proximity: 95, connectors: ['new', 'a'] };
        if (p.n === 500) return { ...p, proximity: 0, connectors: [] };
        if (p.n === 99_999) return { ...p, connectors: [...p.connectors, 'c'] };
        return p;
      })
      .concat({ n: 100_000, proximity: 30, signal: 3, connectors: ['b', 'new'] });

    const patched = await patch(before, after, names);

    expectSameAs(patched, await build(after, [...names, 'new']));
  });
});
