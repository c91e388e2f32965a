import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Tx } from './client.ts';

/**
 * Runs `query` with its joins in the order they are written (join_collapse_limit 1, for this statement
 * only). For a page's lookups (the page's rows first, then one index lookup per table) that order is the
 * right one, and with a dozen joined tables the planner's search for another cost more than running the
 * statement: the actions' rows planned in 2.4 to 3.1 ms for 0.1 to 5 ms of work, 0.7 to 1.1 ms in the
 * written order (2026-11-27, the 1M demo). The planner still chooses each join's method and which side
 * it hashes. A statement whose text and plan never change is better prepared (db/prepared.ts).
 *
 * Not restored when the statement fails: the transaction (or its savepoint) is aborted then, and the
 * setting ends with it.
 */
export async function executeInWrittenJoinOrder<Row extends Record<string, unknown>>(tx: Tx, query: SQL) {
  await tx.execute(sql`set local join_collapse_limit = 1`);
  const result = await tx.execute<Row>(query);
  await tx.execute(sql`set local join_collapse_limit to default`);
  return result;
}
