import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbeddedCluster } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One real PostgreSQL for the integration tests: `DATABASE_URL` when set, else a throw-away embedded
 * cluster. Tests never truncate: each creates its own workspaces, which keeps files parallel-safe.
 */
export default async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL;
  let teardown = async () => {};
  if (!url) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-test-'));
    // The cluster runs as the postgres user, which must be able to reach its data directory.
    await fs.chmod(dir, 0o755);
    const cluster = await openEmbeddedCluster(dir, (line) => process.stderr.write(`${line}\n`));
    url = cluster.url;
    teardown = async () => {
      await cluster.release();
      await fs.rm(dir, { recursive: true, force: true });
    };
  }
  await runMigrations(url);
  project.provide('databaseUrl', url);
  return teardown;
}
