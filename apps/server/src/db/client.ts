import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { analyzeStaleAsOwner } from './analyze.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  pool: pg.Pool;
  /** Runs `work` in one transaction that row-level security scopes to `workspaceId`. */
  inWorkspace: <T>(workspaceId: string, work: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * Refreshes the planner's statistics of those of `tables` that are out of date (db/analyze.ts), as
   * their owner on a connection of its own, and names them. After a bulk write, before autovacuum gets
   * to it: a plan that still believes a table is empty joins thousands of rows by nested loops, seconds
   * for what takes milliseconds.
   */
  analyze: (tables: readonly string[]) => Promise<string[]>;
  close: () => Promise<void>;
};

export const APP_ROLE = 'warmpath_app';

/**
 * The application's pool. Every connection runs as the app role, which owns no table, so
 * forced row-level security applies to every query the product makes, whatever the code forgets.
 */
export function createDatabase(url: string, options: { max?: number } = {}): Database {
  // A startup option rather than a SET after connecting: a connection that cannot take the role fails
  // to open instead of silently running as the owner.
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, options: `-c role=${APP_ROLE}` });
  // An idle connection the server drops (a restart, or our own shutdown) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return {
    db,
    pool,
    inWorkspace: (workspaceId, work) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('app.workspace_id', ${workspaceId}, true)`);
        return work(tx);
      }),
    analyze: (tables) => analyzeStaleAsOwner(url, tables),
    close: () => pool.end(),
  };
}
