import type { Config } from './config.ts';
import { createDatabase, type Database } from './db/client.ts';
import { openEmbeddedCluster } from './db/embedded.ts';
import { runMigrations } from './db/migrate.ts';

export type Runtime = { database: Database; databaseUrl: string; close: () => Promise<void> };

/**
 * Opens the product's database, the same way for the server and the CLI: `DATABASE_URL` when set,
 * else the embedded cluster under DATA_DIR (attached to if another process runs it). Migrations are
 * applied before anything reads. `applicationName` names its connections (pg_stat_activity).
 */
export async function openRuntime(
  config: Config,
  log: (line: string) => void,
  applicationName = 'warmpath',
): Promise<Runtime> {
  const cluster = config.databaseUrl
    ? { url: config.databaseUrl, release: async () => {} }
    : await openEmbeddedCluster(config.dataDir, log);
  try {
    await runMigrations(cluster.url);
  } catch (error) {
    await cluster.release();
    throw error;
  }
  // The embedded cluster's backends are this machine's: those of the jobs' pool yield to requests'.
  const database = createDatabase(cluster.url, {
    applicationName,
    backendNiceness: config.databaseUrl ? 0 : config.backgroundNiceness,
  });
  return {
    database,
    databaseUrl: cluster.url,
    close: async () => {
      await database.close();
      await cluster.release();
    },
  };
}
