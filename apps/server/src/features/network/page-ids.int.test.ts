import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.ts';
import { rebuildNetworkSummaries } from '../../graph/recompute.ts';
import { NETWORK_ORDER, pageIds } from './network.repo.ts';
import { compileFilters } from './network-filters.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

// Deep pages start where network_rank says (network.repo.ts pageIds): they must be exactly the pages
// a plain offset over the whole order gives, across buckets and proximities alike.
describe('deep network pages', () => {
  it('are the pages a plain offset gives, unfiltered and under a proximity band', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const member = { workspaceId: ws, userId: admin.me.id };
    await ctx.database.inWorkspace(ws, async (tx) => {
      // 4,000 rows: most at one proximity (as LinkedIn-only prospects are), the rest spread out.
      await tx.execute(sql`
        insert into network_rows (workspace_id, prospect_id, full_name, proximity, engagement, connector_ids,
                                  has_external_connector, signal_mask)
        select ${ws}::uuid, gen_random_uuid(), 'P' || n, case when n % 4 = 0 then n % 101 else 20 end, 0, '{}', false, 0
          from generate_series(1, 4000) as n`);
      await rebuildNetworkSummaries(tx, ws);
    });
    for (const filters of [[], [{ name: 'proximity' as const, values: ['Low', 'High'] }]]) {
      await ctx.database.inWorkspace(ws, async (tx) => {
        const compiled = await compileFilters(tx, member, filters);
        expect(compiled.rankable()).toBe(true);
        const total =
          (
            await tx.execute<{ count: number }>(
              sql`select count(*)::int as count from network_rows r where ${compiled.where()}`,
            )
          ).rows[0]?.count ?? 0;
        for (const [page, pageSize] of [
          [68, 30],
          [101, 30],
          [40, 50],
          [Math.ceil(total / 30), 30],
          [21, 100],
        ] as const) {
          const expected = await tx.execute<{ prospect_id: string }>(sql`
            select r.prospect_id from network_rows r where ${compiled.where()} order by ${NETWORK_ORDER}
             limit ${pageSize} offset ${(page - 1) * pageSize}`);
          expect(await pageIds(tx, compiled, total, page, pageSize)).toEqual(
            expected.rows.map((row) => row.prospect_id),
          );
        }
      });
    }
  });
});
