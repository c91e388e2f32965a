import pg from 'pg';

/** Below this many rows a table's ANALYZE costs milliseconds: it is refreshed whatever its counters say. */
const SMALL_TABLE_ROWS = 100_000;
/**
 * A larger table is refreshed once this many of its rows changed since its last ANALYZE. Not
 * autovacuum's tenth of the table: the tables are shared by every workspace, and a first sync's few
 * thousand rows for a workspace the statistics have never seen are a small share of them, yet made the
 * next recompute's plans take 18 s instead of half a second.
 */
const CHANGED_ROWS = 1000;

/** A connection as the tables' owner: the runtime's URL connects as the owner, the app role's pool does not. */
async function asOwner<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'warmpath-statistics' });
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
 * ANALYZE of those of `tables` whose statistics may be out of date: the small ones, and those where
 * a bulk write happened since their last ANALYZE (`CHANGED_ROWS`). Sampling a large table costs up to
 * a second (10M edges), and one that nothing wrote to since needs none: after 10,000 new interactions
 * the graph job spent 2 s of 10.6 on tables its statements had not touched yet.
 */
export const analyzeStaleAsOwner = (databaseUrl: string, tables: readonly string[]) =>
  asOwner(databaseUrl, async (client) => {
    // reltuples is -1 for a table never analyzed: it counts as small.
    const stale = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
        where c.oid = any(select to_regclass(t) from unnest($1::text[]) as t)
          and (c.reltuples < $2 or coalesce(s.n_mod_since_analyze, 0) >= $3)`,
      [tables, SMALL_TABLE_ROWS, CHANGED_ROWS],
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
