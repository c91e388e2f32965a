import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used: it diffs the schema against the committed snapshots and needs
// no database. Migrations are applied by the server at start (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
