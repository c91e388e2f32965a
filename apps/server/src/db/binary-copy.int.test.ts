import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { binaryCopySink, boolAt, forEachUuidIn, int4At, type Tuple, textAt, uuidText } from './binary-copy.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const ROWS = `(values
  (1, 'a1b2c3d4-0000-4000-8000-00000000000f'::uuid, true, 'plain', array['6f1e0a52-6c2b-4f4e-9a55-3f7d2b1c0e99', 'ffffffff-ffff-4fff-bfff-ffffffffffff']::uuid[]),
  (-7, '00000000-0000-4000-8000-000000000000'::uuid, false, null, '{}'::uuid[]),
  (2147483647, '12345678-9abc-4def-8123-456789abcdef'::uuid, true, E'tab\\there, new\\nline, back\\\\slash, Émile, 東京', array['12345678-9abc-4def-8123-456789abcdef']::uuid[])
) as t(n, id, flag, label, links)`;

type Row = { n: number; id: string; flag: boolean; label: string | null; links: string[] };

const rowOf = (tuple: Tuple): Row => {
  const links: string[] = [];
  forEachUuidIn(tuple, 4, (buffer, start) => links.push(uuidText(buffer, start)));
  return {
    n: int4At(tuple, 0),
    id: uuidText(tuple.buffer, tuple.starts[1] ?? 0),
    flag: boolAt(tuple, 2),
    label: textAt(tuple, 3),
    links,
  };
};

/** The rows read from `copy` handed over in pieces of `size` bytes. */
async function readInPieces(copy: Buffer, size: number) {
  const rows: Row[] = [];
  const sink = binaryCopySink((tuple) => rows.push(rowOf(tuple)));
  for (let at = 0; at < copy.length; at += size) {
    await new Promise<void>((resolve, reject) =>
      sink.write(copy.subarray(at, at + size), (error) => (error ? reject(error) : resolve())),
    );
  }
  return rows;
}

it("reads PostgreSQL's binary COPY as its text output says, however the stream is cut", async () => {
  const client = await ctx.database.pool.connect();
  try {
    const expected = await client.query<Row>(
      `select n, id::text as id, flag, label, links::text[] as links from ${ROWS}`,
    );
    const chunks: Buffer[] = [];
    await pipeline(
      client.query(copyTo(`copy (select n, id, flag, label, links from ${ROWS}) to stdout (format binary)`)),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    const copy = Buffer.concat(chunks);
    // Every cut: inside the header, a length, a uuid, a multi-byte character, the trailer.
    for (const size of [1, 2, 3, 5, 7, 16, 64, copy.length]) {
      expect(await readInPieces(copy, size), `pieces of ${size} bytes`).toEqual(expected.rows);
    }
  } finally {
    client.release();
  }
});

it('refuses a stream that is not a binary COPY', async () => {
  const sink = binaryCopySink(() => {});
  await expect(pipeline(Readable.from([Buffer.from('1\tplain text COPY output\n'.repeat(2))]), sink)).rejects.toThrow(
    'not a binary COPY',
  );
});
