import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { createDatabase, type Database } from './client.ts';

// Issue 23: one slow route must not hold the pool of every other. An app whose request pool has one
// connection and low limits, so that a held connection or a lock shows each limit in a few requests.
let ctx: TestContext;
let requests: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<TestContext['registerAdmin']>>;

beforeAll(async () => {
  ctx = await createTestContext();
  requests = createDatabase(inject('databaseUrl'), {
    max: 1,
    limits: { statementTimeoutMs: 300, maxWaiting: 1, acquireTimeoutMs: 400 },
  });
  ({ app } = await ctx.appWith({ database: requests }));
  admin = await ctx.registerAdmin();
});
afterAll(async () => {
  await app.close();
  await requests.close();
  await ctx.close();
});

const me = () => app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });

function expectBusy(
  answer: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  code: string,
) {
  expect(answer.statusCode).toBe(503);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(answer.json()).toMatchObject({ code });
}

describe('the request pool', () => {
  it('answers 503 with Retry-After to a request that waited past the limit for a connection, then serves again', async () => {
    const held = await requests.pool.connect();
    try {
      const started = performance.now();
      const answer = await me();
      expectBusy(answer, 'SERVER_BUSY');
      expect(answer.json<{ message: string }>().message).toMatch(/busy/);
      // It waited the limit, not forever.
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      held.release();
    }
    expect((await me()).statusCode).toBe(200);
  });

  it('answers the health check of a busy server 503 with Retry-After, not 500: the database is there', async () => {
    const held = await requests.pool.connect();
    try {
      expectBusy(await app.inject({ url: '/api/health' }), 'SERVER_BUSY');
    } finally {
      held.release();
    }
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('refuses at once a request past the queue limit, while the one in the queue is served', async () => {
    const held = await requests.pool.connect();
    const queued = me();
    await expect.poll(() => requests.pool.waitingCount, { timeout: 2000, interval: 5 }).toBe(1);
    const started = performance.now();
    const refused = await me();
    expectBusy(refused, 'SERVER_BUSY');
    expect(performance.now() - started).toBeLessThan(200);
    held.release();
    expect((await queued).statusCode).toBe(200);
  });

  it('cancels a statement past the time-out with a clear error and gives the connection back', async () => {
    // Another session holds the member's row: the profile update waits for it as for a slow query.
    const owner = new pg.Client({ connectionString: inject('databaseUrl') });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('select 1 from users where id = $1 for update', [admin.me.id]);
      const started = performance.now();
      const answer = await app.inject({
        method: 'PUT',
        url: '/api/users/command/update-me',
        headers: bearer(admin.token),
        payload: { firstName: 'Slow', lastName: 'Update' },
      });
      expectBusy(answer, 'TIMED_OUT');
      expect(answer.json<{ message: string }>().message).toMatch(/took too long/);
      expect(performance.now() - started).toBeLessThan(3000);
      await owner.query('rollback');
    } finally {
      await owner.end();
    }
    // The pool's one connection is free again: no hung connection, nothing changed.
    expect(requests.pool.idleCount).toBe(requests.pool.totalCount);
    const after = await me();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ firstName: 'Ada' });
  });
});
