import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { rebuildNetworkSummaries } from '../../graph/recompute.ts';
import { createNetworkIndex, type NetworkIndexRefresh } from './network-index/index.ts';

// Several API processes (issue 24): each keeps its own copies of the networks it serves, within a
// memory budget, and learns a workspace's new version from PostgreSQL; any of them answers the same.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A workspace whose network has `rows` prospects. */
async function workspaceWithNetwork(rows: number) {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  await ctx.database.inWorkspace(ws, async (tx) => {
    await tx.execute(sql`
      with made as (
        insert into people (workspace_id, full_name)
        select ${ws}::uuid, 'Person ' || n from generate_series(1, ${rows}::int) as n returning id, full_name),
      numbered as (select id, full_name, row_number() over (order by id)::int as n from made)
      insert into network_rows (workspace_id, prospect_id, full_name, industry, country, department, job_title,
                                proximity, engagement, connector_ids, has_external_connector, signal_mask)
      select ${ws}::uuid, id, full_name, (array['Software', 'Retail'])[1 + n % 2], (array['US', 'FR'])[1 + n % 2],
             (array['Sales', 'HR', 'Ops'])[1 + n % 3], 'Title ' || (n % 50), (n * 37) % 101, n % 3,
             array[${admin.me.id}::uuid], n % 4 = 0, 0
        from numbered`);
    await rebuildNetworkSummaries(tx, ws);
  });
  return { admin, ws };
}

describe('the network copies of several API processes', () => {
  it('keeps the copies within the memory budget, least recently used out, and none larger than it', async () => {
    const first = await workspaceWithNetwork(600);
    const second = await workspaceWithNetwork(600);
    const refreshes: NetworkIndexRefresh[] = [];
    const probe = createNetworkIndex(ctx.database, { minRows: 0, onRefresh: (r) => refreshes.push(r) });
    const look = (index: typeof probe, ws: string) => ctx.database.inWorkspace(ws, (tx) => index.current(tx, ws));
    await look(probe, first.ws);
    await probe.settled();
    const oneCopy = refreshes[0]?.bytes ?? 0;
    expect(oneCopy).toBeGreaterThan(600 * 36);

    // Room for one copy and a half: the second evicts the first.
    const index = createNetworkIndex(ctx.database, { minRows: 0, budgetBytes: Math.round(oneCopy * 1.5) });
    await look(index, first.ws);
    await index.settled();
    expect(await look(index, first.ws)).not.toBeNull();
    await look(index, second.ws);
    await index.settled();
    expect(index.memory()).toMatchObject({ workspaces: 1 });
    expect(index.memory().bytes).toBeLessThanOrEqual(oneCopy * 1.5);
    expect(await look(index, second.ws)).not.toBeNull();
    // The first is gone: PostgreSQL answers while it is built again.
    expect(await look(index, first.ws)).toBeNull();
    await index.settled();
    expect(await look(index, first.ws)).not.toBeNull();

    // A budget smaller than any copy: nothing is kept, and it is not built again at every request.
    const tiny: NetworkIndexRefresh[] = [];
    const none = createNetworkIndex(ctx.database, { minRows: 0, budgetBytes: 1000, onRefresh: (r) => tiny.push(r) });
    for (let n = 0; n < 3; n++) {
      expect(await look(none, first.ws)).toBeNull();
      await none.settled();
    }
    expect(tiny).toHaveLength(1);
    expect(none.memory()).toEqual({ workspaces: 0, bytes: 0 });
  }, 60_000);

  it('builds the largest copies before taking traffic, as many as the budget holds', async () => {
    const small = await workspaceWithNetwork(100);
    const large = await workspaceWithNetwork(700);
    const larger = await workspaceWithNetwork(900);
    const look = (index: ReturnType<typeof createNetworkIndex>, ws: string) =>
      ctx.database.inWorkspace(ws, (tx) => index.current(tx, ws));
    const ids = [small.ws, large.ws, larger.ws];

    // Below the size a copy is kept for: none is built, PostgreSQL answers.
    const room = createNetworkIndex(ctx.database, { minRows: 500 });
    const built = await room.warm(ids);
    expect(built.map((copy) => [copy.workspaceId, copy.how, copy.rows])).toEqual([
      [larger.ws, 'built', 900],
      [large.ws, 'built', 700],
    ]);
    // Current at once: the first request of each is answered from its copy.
    expect(await look(room, larger.ws)).not.toBeNull();
    expect(await look(room, large.ws)).not.toBeNull();
    expect(await look(room, small.ws)).toBeNull();

    // Room for the largest only: the warm-up stops there rather than push it out.
    const oneCopy = built[0]?.bytes ?? 0;
    const tight = createNetworkIndex(ctx.database, { minRows: 500, budgetBytes: Math.round(oneCopy * 1.2) });
    expect((await tight.warm(ids)).map((copy) => copy.workspaceId)).toEqual([larger.ws]);
    expect(tight.memory()).toMatchObject({ workspaces: 1 });
    expect(await look(tight, larger.ws)).not.toBeNull();
  }, 60_000);

  it('answers the same from two processes taking turns, before and after the rows change', async () => {
    const { admin, ws } = await workspaceWithNetwork(800);
    const refreshed = [[], []] as { how: string }[][];
    const open = (n: number) =>
      ctx.appWith({
        env: { NETWORK_INDEX_MIN_ROWS: '0', LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
        logWrite: (chunk) => {
          for (const line of chunk.split('\n').filter(Boolean)) {
            const record = JSON.parse(line) as { networkIndex?: NetworkIndexRefresh };
            if (record.networkIndex?.workspaceId === ws) refreshed[n]?.push(record.networkIndex);
          }
        },
      });
    const apps = [(await open(0)).app, (await open(1)).app];
    const page = async (n: number, filters: unknown[] = []) => {
      const response = await apps[n % 2]?.inject({
        method: 'POST',
        url: '/api/contacts/query?page=2&pageSize=25',
        headers: bearer(admin.token),
        payload: { filters },
      });
      expect(response?.statusCode).toBe(200);
      return response?.json();
    };
    const until = async (done: () => boolean) => {
      for (let n = 0; !done(); n++) {
        if (n > 400) throw new Error(`the copies did not refresh: ${JSON.stringify(refreshed)}`);
        await page(n);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const usa = [{ name: 'industry', values: ['Software'] }];
    try {
      // PostgreSQL answers both while their copies build; then each answers from its copy.
      const expected = await page(0, usa);
      await until(() => refreshed.every((list) => list.some((r) => r.how === 'built')));
      for (let n = 0; n < 6; n++) expect(await page(n, usa)).toEqual(expected);

      // The rows change (as the graph job writes them): from the next request on, neither answers
      // from its old copy, and each patches its own.
      await ctx.database.inWorkspace(ws, async (tx) => {
        await tx.execute(
          sql`update network_rows set proximity = 100 - proximity, industry = 'Software' where workspace_id = ${ws} and proximity < 8`,
        );
        await rebuildNetworkSummaries(tx, ws);
      });
      const before = refreshed.map((list) => list.length);
      const changed = await page(0, usa);
      expect(changed).not.toEqual(expected);
      for (let n = 0; n < 6; n++) expect(await page(n, usa)).toEqual(changed);
      // Each brings its own copy up to date (patched from the logged rows, or read again).
      await until(() => refreshed.every((list, n) => list.length > (before[n] ?? 0)));
      for (let n = 0; n < 6; n++) expect(await page(n, usa)).toEqual(changed);
    } finally {
      for (const app of apps) await app?.close();
    }
  }, 60_000);
});
