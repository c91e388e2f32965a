import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from './client.ts';
import { executeInWrittenJoinOrder } from './written-join-order.ts';

const database = createDatabase(inject('databaseUrl'), { max: 1 });
afterAll(() => database.close());

const joinCollapseLimit = sql`select current_setting('join_collapse_limit') as value`;

describe('executeInWrittenJoinOrder', () => {
  it('plans its own statement in the written order and leaves the next statements as they were', async () => {
    const seen = await database.inWorkspace(randomUUID(), async (tx) => {
      const before = await tx.execute<{ value: string }>(joinCollapseLimit);
      const during = await executeInWrittenJoinOrder<{ value: string }>(tx, joinCollapseLimit);
      const after = await tx.execute<{ value: string }>(joinCollapseLimit);
      return { before: before.rows[0]?.value, during: during.rows[0]?.value, after: after.rows[0]?.value };
    });
    expect(seen.during).toBe('1');
    expect(seen.before).not.toBe('1');
    expect(seen.after).toBe(seen.before);
  });

  it('leaves nothing behind on the connection when its statement fails', async () => {
    const before = await database.inWorkspace(randomUUID(), (tx) => tx.execute<{ value: string }>(joinCollapseLimit));
    await expect(
      database.inWorkspace(randomUUID(), (tx) => executeInWrittenJoinOrder(tx, sql`select 1 / 0`)),
    ).rejects.toThrow();
    // The pool's one connection, in a new transaction.
    const next = await database.inWorkspace(randomUUID(), (tx) => tx.execute<{ value: string }>(joinCollapseLimit));
    expect(next.rows[0]?.value).toBe(before.rows[0]?.value);
  });
});
