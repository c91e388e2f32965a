import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies pending migrations as the database owner (the app role cannot change the schema). */
export async function runMigrations(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Several processes may start together (API and workers): one migrates, the others wait.
    await client.query('SELECT pg_advisory_lock(7262011)');
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
  } finally {
    await client.end();
  }
}
