import { describe, expect, it } from 'vitest';
import { mergeChanges } from './patch.ts';
import { dictionaries, dictionaryOf, emptySnapshot, finish, ID_BYTES, type NetworkSnapshot } from './snapshot.ts';

/** Prospect n's id: ids sort as their numbers do. */
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A copy of the prospects `numbers`, all of one proximity (so in id order, which is also their name
 * order), each linked to one connector, with the signals `signalOf` says; its values coded with the
 * dictionaries of `codedAs` (a patch's fresh rows are coded as the copy they go into).
 */
function copyOf(
  numbers: number[],
  signalOf: (n: number) => number,
  version = 1,
  codedAs?: NetworkSnapshot,
): NetworkSnapshot {
  const snapshot = emptySnapshot(
    version,
    numbers.length,
    numbers.length,
    dictionaries((coded) => (codedAs ? dictionaryOf(codedAs, coded) : { values: [null], codes: new Map() })),
  );
  if (!codedAs) {
    snapshot.connectors.values.push('connector');
    snapshot.connectors.codes.set('connector', 1);
  }
  numbers.forEach((n, row) => {
    snapshot.ids.write(idOf(n), row * ID_BYTES, ID_BYTES, 'latin1');
    snapshot.proximity[row] = 50;
    snapshot.signalMask[row] = signalOf(n);
    snapshot.connectorCodes[row] = 1;
    snapshot.connectorStart[row + 1] = row + 1;
    snapshot.byName[row] = row;
  });
  snapshot.size = numbers.length;
  return snapshot;
}

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

describe('a patch of a large copy', () => {
  it('is the copy a build reads, when a few changes leave runs of rows longer than a turn', async () => {
    const all = Array.from({ length: 100_000 }, (_, n) => n);
    const old = await finish(copyOf(all, () => 0));
    // Prospect 70,000 has a new signal and prospect 10 is gone: runs of 70,000 and 30,000 rows between.
    const fresh = copyOf([70_000], () => 7, 2, old);
    const patched = await mergeChanges(
      old,
      fresh,
      new Set([idOf(10), idOf(70_000)]),
      [idOf(70_001)],
      Uint32Array.of(0),
    );

    const built = await finish(
      copyOf(
        all.filter((n) => n !== 10),
        (n) => (n === 70_000 ? 7 : 0),
        2,
      ),
    );
    expect(patched?.size).toBe(built.size);
    for (const field of [
      'proximity',
      'signalMask',
      'connectorStart',
      'connectorCodes',
      'connectorRows',
      'byName',
    ] as const)
      expect(bytesOf(patched?.[field] ?? new Uint8Array(0)).equals(bytesOf(built[field])), field).toBe(true);
    expect(patched?.ids.subarray(0, built.size * ID_BYTES).equals(built.ids)).toBe(true);
  });
});
