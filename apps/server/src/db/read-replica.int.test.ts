import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildNetwork } from '../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { type StreamingReplica, startStreamingReplica } from '../../test/streaming-replica.ts';
import { recomputeDirty } from '../graph/graph.service.ts';
import { APP_ROLE, createDatabase, type Database } from './client.ts';
import { createReadReplica, type ReadReplica, shareWrites, withReadReplica } from './read-replica.ts';

// A real streaming replica of the test database (a hot standby copied from it and streaming its WAL),
// read through DATABASE_READ_URL's routing (db/read-replica.ts).
let ctx: TestContext;
let replica: StreamingReplica;
let owner: pg.Client;
let primaryDatabase: Database;
let replicaDatabase: Database;
let reads: ReadReplica;
let routed: Database;
let app: Awaited<ReturnType<TestContext['appWith']>>['app'];

beforeAll(async () => {
  ctx = await createTestContext();
  replica = await startStreamingReplica(inject('databaseUrl'));
  owner = new pg.Client({ connectionString: inject('databaseUrl') });
  await owner.connect();
  primaryDatabase = createDatabase(inject('databaseUrl'), { max: 4 });
  replicaDatabase = createDatabase(replica.url, { max: 4 });
  reads = createReadReplica(replicaDatabase);
  routed = withReadReplica(primaryDatabase, reads);
  // Both pools of the app, the requests' and the background's, as main.ts wires them.
  app = (await ctx.appWith({ database: routed, backgroundDatabase: routed })).app;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await primaryDatabase?.close();
  await replicaDatabase?.close();
  await owner?.end();
  await replica?.stop();
  await ctx?.close();
});

/** An account of `workspaceId` written as the owner, behind the application's back: no read-your-writes mark. */
async function insertAccountUntracked(workspaceId: string, name: string) {
  const { rows } = await owner.query<{ id: string }>(
    `with company as (
       insert into companies (workspace_id, domain, name) values ($1, $2, $3) returning id
     )
     insert into accounts (workspace_id, company_id) select $1, id from company returning id`,
    [workspaceId, `${randomUUID().slice(0, 8)}.test`, name],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('no account inserted');
  return id;
}

async function accountNames(token: string) {
  const response = await app.inject({
    url: '/api/accounts/query?page=1&pageSize=50',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response
    .json<{ rows: { id: string; name: string }[] }>()
    .rows.map((row) => row.name)
    .sort();
}

describe('a read replica (DATABASE_READ_URL)', () => {
  it('connects to the replica as the app role, and row-level security holds there', async () => {
    const first = await ctx.registerAdmin();
    const second = await ctx.registerAdmin();
    await replica.caughtUp();
    const { rows } = await replicaDatabase.pool.query<{ role: string; standby: boolean }>(
      'select current_user as role, pg_is_in_recovery() as standby',
    );
    expect(rows[0]).toEqual({ role: APP_ROLE, standby: true });
    const withoutContext = await replicaDatabase.pool.query('select id from users where workspace_id = $1', [
      second.me.workspaceId,
    ]);
    expect(withoutContext.rowCount).toBe(0);
    const seen = await replicaDatabase.inWorkspace(first.me.workspaceId, (tx) =>
      tx.execute(
        `select email from users where workspace_id in ('${first.me.workspaceId}', '${second.me.workspaceId}')`,
      ),
    );
    expect(seen.rows).toEqual([{ email: first.email }]);
  });

  it('serves list pages from the replica: a write it has not replayed, made behind the app, is not seen', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await insertAccountUntracked(ws, 'Replayed Co');
    await replica.caughtUp();
    await replica.pause();
    try {
      await insertAccountUntracked(ws, 'Unreplayed Co');
      expect(await routed.forReads(ws)).toBe(replicaDatabase);
      // The primary has both; the page, read from the paused replica, has the first only.
      expect(await accountNames(admin.token)).toEqual(['Replayed Co']);
    } finally {
      await replica.resume();
    }
    await replica.caughtUp();
    expect(await accountNames(admin.token)).toEqual(['Replayed Co', 'Unreplayed Co']);
  });

  it('keeps the writer on the primary while the replica lags behind their write, and back once it replays it', async () => {
    const admin = await ctx.registerAdmin();
    const other = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const kept = await insertAccountUntracked(ws, 'Kept Co');
    const removed = await insertAccountUntracked(ws, 'Removed Co');
    await insertAccountUntracked(other.me.workspaceId, 'Other Co');
    await replica.caughtUp();
    expect(await accountNames(admin.token)).toEqual(['Kept Co', 'Removed Co']);
    expect(kept).not.toBe(removed);

    await replica.pause();
    try {
      // The admin removes an account through the API: a write the routing notes, with its WAL position.
      const deleted = await app.inject({
        method: 'DELETE',
        url: `/api/accounts/command/delete/${removed}`,
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(deleted.statusCode).toBe(204);
      expect(reads.pending.has(ws)).toBe(true);

      // The replica still has the account; the writer's next reads do not come from it.
      const stale = await replicaDatabase.inWorkspace(ws, (tx) =>
        tx.execute(`select id from accounts where workspace_id = '${ws}' and id = '${removed}'`),
      );
      expect(stale.rowCount).toBe(1);
      expect(await routed.forReads(ws)).toBe(routed);
      expect(await accountNames(admin.token)).toEqual(['Kept Co']);
      expect(await accountNames(admin.token)).toEqual(['Kept Co']);

      // Another workspace, which wrote nothing, keeps reading the replica.
      expect(await routed.forReads(other.me.workspaceId)).toBe(replicaDatabase);
      expect(await accountNames(other.token)).toEqual(['Other Co']);
    } finally {
      await replica.resume();
    }

    await replica.caughtUp();
    expect(await routed.forReads(ws)).toBe(replicaDatabase);
    expect(reads.pending.has(ws)).toBe(false);
    expect(await accountNames(admin.token)).toEqual(['Kept Co']);
  });

  it('keeps an uploader on the primary once a worker has merged their import, until the replica replays it', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const { body, contentType } = multipartBody({}, [
      {
        filename: 'accounts.csv',
        content: `Company Name,Company Domain\r\nImported Co,${randomUUID().slice(0, 8)}.test\r\n`,
      },
    ]);
    // The workspace's merge lock (merge.ts) held: the import is received and handed over, and its merge
    // (the test's own process works the queue, as a worker does: on the primary, outside the routing)
    // waits until the replica has replayed everything before it.
    await owner.query('select pg_advisory_lock(7262013, hashtext($1))', [ws]);
    let locked = true;
    try {
      const uploading = app.inject({
        method: 'POST',
        url: '/api/accounts/command/upload-accounts',
        headers: { ...bearer(admin.token), 'content-type': contentType },
        payload: body,
      });
      await vi.waitFor(
        async () => {
          const { rows } = await owner.query(
            `select 1 from pg_locks where locktype = 'advisory' and not granted and classid = 7262013
                and objid = hashtext($1)::oid`,
            [ws],
          );
          expect(rows).toHaveLength(1);
        },
        { timeout: 10_000 },
      );
      await replica.caughtUp();
      await replica.pause();
      await owner.query('select pg_advisory_unlock(7262013, hashtext($1))', [ws]);
      locked = false;
      const uploaded = await uploading;
      expect(uploaded.json()).toMatchObject({ status: 'completed', added: 1 });
      // The replica has not the merge; the uploader's next page is the primary's.
      const stale = await replicaDatabase.inWorkspace(ws, (tx) =>
        tx.execute(`select count(*)::int as n from accounts where workspace_id = '${ws}'`),
      );
      expect(stale.rows[0]).toEqual({ n: 0 });
      expect(await accountNames(admin.token)).toEqual(['Imported Co']);
    } finally {
      if (locked) await owner.query('select pg_advisory_unlock(7262013, hashtext($1))', [ws]);
      await replica.resume();
    }
    await replica.caughtUp();
    expect(await routed.forReads(ws)).toBe(replicaDatabase);
    expect(await accountNames(admin.token)).toEqual(['Imported Co']);
  });

  it('answers the network page, its filters, their search and the export from the replica, as the primary does', async () => {
    const network = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, network.ws);
    await replica.caughtUp();
    const calls = [
      { url: '/api/contacts/query?page=1&pageSize=30', payload: { filters: [] } },
      { url: '/api/contacts/query/filters?companyNamePage=1&personNamePage=1', payload: { filters: [] } },
      { url: '/api/contacts/query/filters/search?filterField=companyName&searchTerm=a', payload: { filters: [] } },
      { url: '/api/contacts/query/export-csv', payload: { filters: [] } },
    ];
    await replica.pause();
    try {
      // Paused: the replica is read-only and replays nothing, so what answers here is the replica, and
      // a read path that wrote would fail (a hot standby refuses writes).
      expect(await routed.forReads(network.ws)).toBe(replicaDatabase);
      for (const call of calls) {
        const [fromReplica, fromPrimary] = await Promise.all(
          [app, ctx.app].map((target) =>
            target.inject({ method: 'POST', headers: bearer(network.admin.token), ...call }),
          ),
        );
        expect(fromReplica?.statusCode, call.url).toBe(200);
        expect(fromReplica?.body, call.url).toBe(fromPrimary?.body);
      }
    } finally {
      await replica.resume();
    }
  });

  it('keeps a writer on the primary in every process: a write through one marks the workspace in the other', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await insertAccountUntracked(ws, 'Shared Co');
    await replica.caughtUp();
    // Two API processes' routing, each with its own marks, both listening for the other's writes.
    const first = createReadReplica(replicaDatabase);
    const second = createReadReplica(replicaDatabase);
    const stops = [await shareWrites(first, primaryDatabase), await shareWrites(second, primaryDatabase)];
    const throughFirst = withReadReplica(primaryDatabase, first);
    const throughSecond = withReadReplica(primaryDatabase, second);
    try {
      expect(await throughSecond.forReads(ws)).toBe(replicaDatabase);
      await replica.pause();
      try {
        await throughFirst.inWorkspace(ws, (tx) => tx.execute(`delete from accounts where workspace_id = '${ws}'`));
        expect(first.pending.has(ws)).toBe(true);
        await expect.poll(() => second.pending.has(ws), { timeout: 2_000 }).toBe(true);
        expect(await throughSecond.forReads(ws)).toBe(throughSecond);
        const { rows } = await throughSecond.readInWorkspace(ws, (tx) => tx.execute('select id from accounts'));
        expect(rows).toEqual([]);
      } finally {
        await replica.resume();
      }
      await replica.caughtUp();
      expect(await throughSecond.forReads(ws)).toBe(replicaDatabase);

      // A process that has lost its listener cannot know who wrote: everything reads from the primary.
      second.informed = false;
      expect(await throughSecond.forReads(ws)).toBe(throughSecond);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('reads from the primary when the replica cannot be reached', async () => {
    const admin = await ctx.registerAdmin();
    // A port nothing listens on: the replica is down.
    const down = createDatabase(replica.url.replace(/:(\d+)\//, ':1/'), { max: 1 });
    try {
      const fallback = withReadReplica(primaryDatabase, createReadReplica(down));
      const { rows } = await fallback.readInWorkspace(admin.me.workspaceId, (tx) =>
        tx.execute<{ email: string }>('select email from users'),
      );
      expect(rows).toEqual([{ email: admin.email }]);
    } finally {
      await down.close();
    }
  });

  it('does not mark a workspace for a transaction that only read', async () => {
    const admin = await ctx.registerAdmin();
    await routed.inWorkspace(admin.me.workspaceId, (tx) => tx.execute('select 1'));
    expect(reads.pending.has(admin.me.workspaceId)).toBe(false);
  });
});
