import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/** A round trip to the database; throws when it cannot be reached. */
export async function pingDatabase(database: Database) {
  await database.db.execute(sql`select 1`);
}
