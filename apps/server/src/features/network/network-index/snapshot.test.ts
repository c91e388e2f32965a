import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type Dictionary,
  dictionaries,
  emptySnapshot,
  finish,
  listConnectorRows,
  type NetworkSnapshot,
  ranks,
} from './snapshot.ts';

/** A copy of `size` rows, row i linked to connectors (i mod 7) + 1 and, for even rows, 8. */
function copyOf(size: number): NetworkSnapshot {
  const snapshot = emptySnapshot(
    1,
    size,
    size * 2,
    dictionaries(() => ({ values: [null], codes: new Map() })),
  );
  for (let code = 1; code <= 8; code++) {
    snapshot.connectors.values.push(`connector-${code}`);
    snapshot.connectors.codes.set(`connector-${code}`, code);
  }
  let links = 0;
  for (let row = 0; row < size; row++) {
    snapshot.connectorCodes[links++] = (row % 7) + 1;
    if (row % 2 === 0) snapshot.connectorCodes[links++] = 8;
    snapshot.connectorStart[row + 1] = links;
  }
  snapshot.size = size;
  return snapshot;
}

describe("a copy's connector-to-rows lists", () => {
  it('are filled in a pass that lets the requests waiting on its process run before it ends', async () => {
    const snapshot = copyOf(200_000);
    let answeredDuringPass = false;
    let passDone = false;
    const finishing = listConnectorRows(finish(snapshot)).then(() => {
      passDone = true;
    });
    // A request's callback, queued once the pass has begun: it runs at the pass's first turn.
    setImmediate(() => {
      answeredDuringPass = !passDone;
    });
    await finishing;
    expect(answeredDuringPass).toBe(true);
  });

  it("list each connector's rows, in the table's order", async () => {
    const snapshot = finish(copyOf(100_000));
    await listConnectorRows(snapshot);
    const rowsOf = (code: number) =>
      Array.from(
        snapshot.connectorRows.subarray(snapshot.connectorRowsStart[code], snapshot.connectorRowsStart[code + 1]),
      );
    const expected = (code: number) =>
      Array.from({ length: 100_000 }, (_, row) => row).filter((row) =>
        code === 8 ? row % 2 === 0 : (row % 7) + 1 === code,
      );
    for (const code of [1, 4, 7, 8]) expect(rowsOf(code)).toEqual(expected(code));
  });
});

describe("a copy's company ranks", () => {
  const dictionaryOf = (values: (string | null)[]): Dictionary => ({
    values,
    codes: new Map(values.flatMap((value, code) => (value === null ? [] : [[value, code] as const]))),
  });

  it('are the same whether the companies a patch added are merged in or everything is sorted again', () => {
    const companies = [null, ...Array.from({ length: 5_000 }, () => randomUUID())];
    const before = ranks(dictionaryOf(companies.slice(0, 4_000)));
    const merged = ranks(dictionaryOf(companies), before);
    expect(Array.from(merged)).toEqual(Array.from(ranks(dictionaryOf(companies))));
    const inOrder = Array.from(merged)
      .map((place, code) => ({ place, value: companies[code] ?? '' }))
      .sort((a, b) => a.place - b.place)
      .map((entry) => entry.value);
    expect(inOrder).toEqual([...inOrder].sort());
  });

  it('put an added company that sorts first or last in its place', () => {
    const companies = [null, 'b', 'c', 'd'];
    const before = ranks(dictionaryOf(companies));
    expect(Array.from(ranks(dictionaryOf([...companies, 'a', 'e']), before))).toEqual([0, 2, 3, 4, 1, 5]);
  });
});
