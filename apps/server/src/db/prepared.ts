import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Tx } from './client.ts';

const dialect = new PgDialect();

/**
 * Runs `query` as a prepared statement of its connection, named after its text: PostgreSQL plans it
 * for its first five runs on the connection, then keeps a generic plan when that is no costlier, and
 * the later runs skip planning. For the statements of a table page's rows, run several times a second
 * with the same text and only the page's ids changing, planning was a fifth of their time: a page's
 * edges took 17 to 20 ms a call planned each time, 15 to 16 prepared (2026-11-27, the 1M demo with
 * 50,000 allies; planning them in the written join order instead, db/written-join-order.ts, saved no
 * more once they were prepared).
 *
 * Only for a statement whose text is fixed by the code (every value bound, none written into the text),
 * or each text becomes a statement kept by every connection; and whose best plan does not depend on the
 * workspace's size, since one plan serves every workspace: lookups driven by a list of ids.
 */
export async function executePrepared<Row extends Record<string, unknown>>(tx: Tx, query: SQL) {
  const built = dialect.sqlToQuery(query);
  const name = `prepared-${createHash('sha1').update(built.sql).digest('base64url')}`;
  const prepared = tx._.session.prepareQuery<{ execute: pg.QueryResult<Row>; all: never; values: never }>(
    built,
    undefined,
    name,
    false,
  );
  return prepared.execute();
}
