import pg from 'pg';

/** ANALYZE needs the tables' owner: the runtime's URL connects as the owner, the app role's pool does not. */
export async function analyzeAsOwner(databaseUrl: string, tables: readonly string[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`analyze ${tables.map((table) => client.escapeIdentifier(table)).join(', ')}`);
  } finally {
    await client.end();
  }
}

/** VACUUM (ANALYZE) as the owner, outside any transaction (VACUUM cannot run inside one). */
export async function vacuumAnalyzeAsOwner(databaseUrl: string, tables: readonly string[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`vacuum (analyze) ${tables.map((table) => client.escapeIdentifier(table)).join(', ')}`);
  } finally {
    await client.end();
  }
}
