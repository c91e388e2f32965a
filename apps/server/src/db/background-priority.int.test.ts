import os from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from './client.ts';

// The jobs' pool gives its PostgreSQL processes a lower CPU priority when PostgreSQL runs on this
// machine (the embedded cluster, as the tests' PostgreSQL is by default), so that requests get the
// cores first.
let background: Database;
let requests: Database;

beforeAll(() => {
  background = createDatabase(inject('databaseUrl'), { backendPriority: 10 });
  requests = createDatabase(inject('databaseUrl'));
});
afterAll(async () => {
  await background.close();
  await requests.close();
});

const backendPid = async (database: Database) =>
  (await database.pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? -1;

describe('the background pool on a PostgreSQL of this machine', () => {
  it("runs its statements at a lower priority than the requests' pool", async () => {
    const [job, request] = await Promise.all([backendPid(background), backendPid(requests)]);
    expect(os.getPriority(job)).toBe(10);
    expect(os.getPriority(request)).toBe(0);
  });
});
