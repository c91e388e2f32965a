import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.ts';

// A download the browser gives up on (a closed tab, a cancelled save) must give its connection back
// at once: an export left 'idle in transaction' holds a connection of the pool and blocks shutdown.

const ROWS = 60_000;

let ctx: TestContext;
let observer: pg.Client;
let token: string;
let ws: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.registerAdmin();
  token = admin.token;
  ws = admin.me.workspaceId;
  // About 15 MB of CSV: far more than the sockets between PostgreSQL, the server and the client buffer.
  await ctx.database.inWorkspace(ws, async (tx) => {
    await tx.execute(sql`
      insert into people (workspace_id, full_name, email)
      select ${ws}::uuid, 'Person ' || g || ' ' || repeat('x', 200), 'person' || g || '@example.test'
        from generate_series(1, ${ROWS}) g`);
    await tx.execute(sql`
      insert into network_rows (workspace_id, prospect_id, full_name, proximity, engagement, connector_ids,
                                has_external_connector, signal_mask)
      select workspace_id, id, full_name, 50, 0, '{}', false, 0 from people where workspace_id = ${ws}`);
  });
  ctx.database.pool.on('acquire', (client) => {
    pids.add((client as pg.PoolClient & { processID: number }).processID);
  });
  observer = new pg.Client({ connectionString: inject('databaseUrl') });
  await observer.connect();
});
afterAll(async () => {
  await observer.end();
});

/** The backends of this context's pool (pg keeps each connection's process id, untyped). */
const pids = new Set<number>();

/** This context's backends last running an export, and in which state. */
async function exportBackends() {
  const result = await observer.query<{ state: string }>(
    `select state from pg_stat_activity where pid = any($1) and query ilike 'copy (%'`,
    [[...pids]],
  );
  return result.rows.map((row) => row.state);
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a cancelled network export', () => {
  it('releases its connection at once, and the server shuts down', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const body = JSON.stringify({ filters: [] });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/contacts/query/export-csv',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve).on('error', reject).end(body);
    });
    expect(response.statusCode).toBe(200);
    // The first bytes arrive; then the reader stops reading, as a slow or closed tab does.
    const first = await new Promise<Buffer>((resolve) => response.once('data', resolve));
    response.pause();
    expect(first.toString()).toMatch(/^Name,Email,/);
    expect(await exportBackends()).toEqual(['active']);

    request.destroy();
    const left = await eventually(exportBackends, (states) => states.length === 0);
    expect(left).toEqual([]);

    const idleInTransaction = await observer.query(
      `select 1 from pg_stat_activity where pid = any($1) and state like 'idle in transaction%'`,
      [[...pids]],
    );
    expect(idleInTransaction.rows).toEqual([]);
    expect(ctx.database.pool.totalCount - ctx.database.pool.idleCount).toBe(0);

    const closed = await Promise.race([
      ctx.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
    ]);
    expect(closed).toBe('closed');
  });
});
