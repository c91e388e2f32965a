import pg from 'pg';

/** Below this many rows a table's ANALYZE costs milliseconds: it is refreshed whatever its counters say. */
const SMALL_TABLE_ROWS = 100_000;
/** Autovacuum's own rule (its analyze threshold and scale factor): refresh after this share of rows changed. */
const CHANGED_SHARE = 0.1;
const CHANGED_MIN = 50;

/** A connection as the tables' owner: the runtime's URL connects as the owner, the app role's pool does not. */
async function asOwner<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const tableList = (client: pg.Client, tables: readonly string[]) =>
  tables.map((table) => client.escapeIdentifier(table)).join(', ');

/**
 * ANALYZE of those of `tables` whose statistics are out of date: by autovacuum's own rule (a tenth of
 * the rows changed since the last one), now rather than within the minute autovacuum takes, and small
 * tables always. Sampling a large table costs a second or more (10M edges), and a few thousand new
 * rows do not move its statistics; a table a first sync has just filled is small, or changed entirely.
 */
export const analyzeStaleAsOwner = (databaseUrl: string, tables: readonly string[]) =>
  asOwner(databaseUrl, async (client) => {
    // reltuples is -1 for a table never analyzed: it counts as small.
    const stale = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
        where c.oid = any(select to_regclass(t) from unnest($1::text[]) as t)
          and (c.reltuples < $2 or coalesce(s.n_mod_since_analyze, 0) > $3 + $4 * c.reltuples)`,
      [tables, SMALL_TABLE_ROWS, CHANGED_MIN, CHANGED_SHARE],
    );
    const names = stale.rows.map((row) => row.name);
    if (names.length > 0) await client.query(`analyze ${tableList(client, names)}`);
    return names;
  });

/** VACUUM (ANALYZE) as the owner, outside any transaction (where the pool's work happens). */
export const vacuumAnalyzeAsOwner = (databaseUrl: string, tables: readonly string[]) =>
  asOwner(databaseUrl, async (client) => {
    await client.query(`vacuum (analyze) ${tableList(client, tables)}`);
  });
