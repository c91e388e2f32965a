import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from './client.ts';
import { executePrepared } from './prepared.ts';

// One connection, so every call finds the statements the previous ones prepared.
const database = createDatabase(inject('databaseUrl'), { max: 1 });
afterAll(() => database.close());

const doubled = (values: number[]) =>
  sql`select v * 2 as doubled from unnest(${sql.param(values)}::int[]) as v order by v`;
const preparedOnConnection = sql`select statement, generic_plans + custom_plans as runs from pg_prepared_statements`;

describe('executePrepared', () => {
  it("prepares a statement once per connection and runs it with each call's values", async () => {
    const seen = await database.inWorkspace(randomUUID(), async (tx) => {
      const answers = [];
      for (const values of [[1, 2], [5], [3, 4, 6], [], [7], [8]]) {
        answers.push((await executePrepared<{ doubled: number }>(tx, doubled(values))).rows.map((row) => row.doubled));
      }
      const prepared = await tx.execute<{ statement: string; runs: number }>(preparedOnConnection);
      return { answers, prepared: prepared.rows };
    });
    expect(seen.answers).toEqual([[2, 4], [10], [6, 8, 12], [], [14], [16]]);
    // One statement for the six calls, run six times.
    const mine = seen.prepared.filter((row) => row.statement.includes('v * 2 as doubled'));
    expect(mine).toHaveLength(1);
    expect(Number(mine[0]?.runs)).toBe(6);
  });

  it('gives a statement of another text a statement of its own on the same connection', async () => {
    const answers = await database.inWorkspace(randomUUID(), async (tx) => {
      const first = await executePrepared<{ doubled: number }>(tx, doubled([1]));
      const other = await executePrepared<{ tripled: number }>(
        tx,
        sql`select v * 3 as tripled from unnest(${sql.param([1])}::int[]) as v`,
      );
      return [first.rows[0]?.doubled, other.rows[0]?.tripled];
    });
    expect(answers).toEqual([2, 3]);
  });
});
