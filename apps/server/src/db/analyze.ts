import pg from 'pg';

/**
 * Runs one maintenance statement over `tables` as their owner, on a connection of its own: the
 * runtime's URL connects as the owner, the app role's pool does not (and VACUUM cannot run inside a
 * transaction, where the pool's work happens).
 */
async function asOwner(databaseUrl: string, command: 'analyze' | 'vacuum (analyze)', tables: readonly string[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`${command} ${tables.map((table) => client.escapeIdentifier(table)).join(', ')}`);
  } finally {
    await client.end();
  }
}

/** ANALYZE needs the tables' owner. */
export const analyzeAsOwner = (databaseUrl: string, tables: readonly string[]) =>
  asOwner(databaseUrl, 'analyze', tables);

/** VACUUM (ANALYZE) as the owner, outside any transaction. */
export const vacuumAnalyzeAsOwner = (databaseUrl: string, tables: readonly string[]) =>
  asOwner(databaseUrl, 'vacuum (analyze)', tables);
