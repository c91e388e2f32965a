import {
  type TAccountCoveragePage,
  type TContactsPage,
  type TFilterItem,
  WARM_PROXIMITY_BANDS,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';

// Issue 26: the account coverage view counts what the network table counts, for the same account.

let ctx: TestContext;
let network: Awaited<ReturnType<typeof buildNetwork>>;
let ids: { target: string; oldco: string; empty: string };

beforeAll(async () => {
  ctx = await createTestContext();
  network = await buildNetwork(ctx);
  const { ws, people } = network;
  // Three target accounts: the prospects' company, the past client's former company (nobody there
  // now) and a company the team knows nobody at.
  const rows = await ctx.database.inWorkspace(ws, async (tx) => {
    await tx.execute(sql`insert into companies (workspace_id, domain, name)
                         values (${ws}, ${ctx.uniqueDomain()}, 'Zeta Nobody')`);
    return tx.execute<{ name: string; company_id: string }>(sql`
      insert into accounts (workspace_id, company_id)
      select ${ws}::uuid, c.id from companies c
       where c.workspace_id = ${ws}
         and (c.id = (select company_id from people where workspace_id = ${ws} and email = ${people.met})
              or c.name in ('Oldco', 'Zeta Nobody'))
      returning company_id, (select name from companies where workspace_id = ${ws} and id = company_id)`);
  });
  const byName = new Map(rows.rows.map((row) => [row.name, row.company_id]));
  const target = rows.rows.find((row) => row.name !== 'Oldco' && row.name !== 'Zeta Nobody');
  ids = { target: target?.company_id ?? '', oldco: byName.get('Oldco') ?? '', empty: byName.get('Zeta Nobody') ?? '' };
  await recomputeDirty(ctx.database, ws);
});
afterAll(() => ctx.close());

async function coverage(token: string, query = '') {
  const response = await ctx.app.inject({
    url: `/api/contacts/query/account-coverage?page=1&pageSize=50${query}`,
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
  return response.json<TAccountCoveragePage>();
}

async function tableCount(token: string, filters: TFilterItem[]) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/contacts/query?page=1&pageSize=1',
    headers: bearer(token),
    payload: { filters },
  });
  expect(response.statusCode).toBe(200);
  return response.json<TContactsPage>().pagination.totalCount;
}

/** Each account's numbers against the network table's totals under the equivalent filters. */
async function expectTableCounts(token: string, page: TAccountCoveragePage) {
  for (const row of page.rows) {
    const company: TFilterItem = { name: 'companyName', values: [row.companyId] };
    expect(row.prospects).toBe(await tableCount(token, [company]));
    expect(row.warm).toBe(await tableCount(token, [company, { name: 'proximity', values: [...WARM_PROXIMITY_BANDS] }]));
  }
}

describe('GET /contacts/query/account-coverage', () => {
  it("counts each account's prospects and warm paths as the network table does", async () => {
    const page = await coverage(network.admin.token);
    expect(page.pagination.totalCount).toBe(3);
    expect(page.rows.map((row) => row.companyId).sort()).toEqual(Object.values(ids).sort());
    await expectTableCounts(network.admin.token, page);
    const target = page.rows.find((row) => row.companyId === ids.target);
    expect(target?.prospects).toBeGreaterThan(1);
    expect(target?.warm).toBeGreaterThan(0);
    expect(target?.hasPath).toBe(true);
    // The closest reachable prospect is the one the admin met; its closest path is a colleague's.
    expect(target?.bestConnector).toMatchObject({ kind: 'colleague', proximity: expect.any(Number) });
    const top = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query?page=1&pageSize=1',
      headers: bearer(network.admin.token),
      payload: { filters: [{ name: 'companyName', values: [ids.target] }] },
    });
    expect(target?.bestConnector?.proximity).toBe(top.json<TContactsPage>().rows[0]?.proximity);
    expect(page.rows.find((row) => row.companyId === ids.empty)).toMatchObject({
      prospects: 0,
      warm: 0,
      hasPath: false,
      bestConnector: null,
    });
  });

  it('lists only the accounts without any path under noPath=true', async () => {
    const page = await coverage(network.admin.token, '&noPath=true');
    expect(page.rows.map((row) => row.companyId).sort()).toEqual([ids.oldco, ids.empty].sort());
    expect(page.rows.every((row) => !row.hasPath && row.bestConnector === null)).toBe(true);
    expect(page.pagination.totalCount).toBe(2);
  });

  it('sorts by prospects and warm paths (most first) and by name (A to Z), and pages', async () => {
    const byProspects = (await coverage(network.admin.token, '&sort=prospects')).rows;
    expect(byProspects[0]?.companyId).toBe(ids.target);
    expect(byProspects.map((row) => row.prospects)).toEqual(
      [...byProspects.map((row) => row.prospects)].sort((a, b) => b - a),
    );
    const byWarm = (await coverage(network.admin.token, '&sort=warm')).rows;
    expect(byWarm.map((row) => row.warm)).toEqual([...byWarm.map((row) => row.warm)].sort((a, b) => b - a));
    const byName = (await coverage(network.admin.token, '&sort=name')).rows.map((row) => row.companyName);
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(byName.at(-1)).toBe('Zeta Nobody');

    const second = await ctx.app.inject({
      url: '/api/contacts/query/account-coverage?page=2&pageSize=2&sort=name',
      headers: bearer(network.admin.token),
    });
    expect(second.json<TAccountCoveragePage>()).toMatchObject({
      rows: [{ companyName: 'Zeta Nobody' }],
      pagination: { page: 2, pageSize: 2, totalPages: 2, totalCount: 3 },
    });
  });

  it('rejects an unknown sort', async () => {
    const response = await ctx.app.inject({
      url: '/api/contacts/query/account-coverage?sort=revenue',
      headers: bearer(network.admin.token),
    });
    expect(response.statusCode).toBe(400);
  });

  it("shows a viewer of another workspace none of this workspace's accounts", async () => {
    const stranger = await ctx.registerAdmin();
    const page = await coverage(stranger.token);
    expect(page).toEqual({ rows: [], pagination: { page: 1, pageSize: 50, totalPages: 1, totalCount: 0 } });
  });

  it("does not count a Private member's connections for a teammate", async () => {
    const before = (await coverage(network.admin.token)).rows.find((row) => row.companyId === ids.target);
    const privacy = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-privacy',
      headers: bearer(network.colleague.token),
      payload: { sharingLevel: 'private', acceptsIntros: true, weeklyIntroCap: null },
    });
    expect(privacy.statusCode).toBe(200);
    await recomputeDirty(ctx.database, network.ws);
    const page = await coverage(network.admin.token);
    await expectTableCounts(network.admin.token, page);
    const after = page.rows.find((row) => row.companyId === ids.target);
    // The prospect only the colleague mailed is reachable through them alone: no longer the admin's.
    expect(after?.prospects).toBe((before?.prospects ?? 0) - 1);
    const colleagueId = await ctx.database.inWorkspace(network.ws, async (tx) => {
      const found = await tx.execute<{ id: string }>(
        sql`select id from people where workspace_id = ${network.ws} and email = ${network.colleague.email}`,
      );
      return found.rows[0]?.id;
    });
    expect(JSON.stringify(page)).not.toContain(colleagueId);
  });
});
