import { Writable } from 'node:stream';
import { ENGAGEMENTS, type Engagement, SIGNAL_TYPES, type SignalType, type TFilterItem } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { exportNetworkCsv } from '../features/network/export-csv.ts';
import { queryContacts, queryFilters } from '../features/network/network.service.ts';
import { createNetworkIndex } from '../features/network/network-index/index.ts';
import type { Member } from '../plugins/auth.ts';
import { engagementSql } from './engagement.ts';
import { rebuildNetworkSummaries } from './recompute.ts';
import { signalMaskSql, temperatureRank, temperatureRankSql } from './signals.ts';

// Masks and codes as the previous version wrote them (a signal's bit was its index in the old
// SIGNAL_TYPES array, an engagement's code its index in ENGAGEMENTS), written here as literal integers:
// whatever reads them now must find the same signals, so stored rows need no migration.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Rows of the old layout, with what they mean, spelled out by hand. */
const STORED = [
  {
    name: 'Pricing past client',
    mask: 0b000010010,
    code: 2,
    signals: ['VISITED_PRICING_PAGE', 'PAST_CLIENT'],
    rank: 0,
  },
  {
    name: 'Visitor who met',
    mask: 0b000001101,
    code: 2,
    signals: ['VISITED_MANY_PAGES', 'ALREADY_MET_COLLEAGUE', 'VISITED_WEBSITE'],
    rank: 0,
  },
  {
    name: 'Former coworker',
    mask: 0b001100000,
    code: 1,
    signals: ['WORKED_WITH_COLLEAGUE', 'WORKED_WITH_CLIENT'],
    rank: 1,
  },
  {
    name: 'Worked and linked',
    mask: 0b010100000,
    code: 1,
    signals: ['WORKED_WITH_COLLEAGUE', 'CONNECTED_WITH_COLLEAGUE'],
    rank: 1,
  },
  {
    name: 'Only linked',
    mask: 0b110000000,
    code: 0,
    signals: ['CONNECTED_WITH_COLLEAGUE', 'CONNECTED_WITH_CLIENT'],
    rank: 2,
  },
  { name: 'Nothing yet', mask: 0, code: 0, signals: [], rank: 3 },
] as const satisfies readonly {
  name: string;
  mask: number;
  code: number;
  signals: readonly SignalType[];
  rank: number;
}[];
const ENGAGEMENT_OF_OLD_CODE: readonly Engagement[] = ['NEVER_MET', 'TOUCHED', 'MET'];

const byDisplayOrder = (types: readonly SignalType[]) =>
  [...types].sort((a, b) => SIGNAL_TYPES.indexOf(a) - SIGNAL_TYPES.indexOf(b));

describe('data written with the previous layout', () => {
  it('rolls up to the same masks and codes as the previous hand-written SQL, for every combination of facts', async () => {
    const admin = await ctx.registerAdmin();
    const compared = await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute<{ facts: string; old_mask: number; new_mask: number; old_code: number; new_code: number }>(sql`
        with s as (
          select colleague, meetings, mails, shared_months, linkedin
            from unnest(array[true, false]) as colleague, unnest(array[0, 3]) as meetings, unnest(array[0, 1]) as mails,
                 unnest(array[0, 12]) as shared_months, unnest(array[true, false]) as linkedin
        ),
        visits as (
          -- With every view in the many-pages window, and the default threshold of 5.
          select views, views as recent_views, 5 as many_pages, pricing, prospect_id
            from unnest(array[null, 0, 1, 4, 5, 6]::int[]) as views, unnest(array[null, true, false]) as pricing,
                 unnest(array[null, gen_random_uuid()]) as prospect_id
        )
        select concat_ws(' ', colleague, meetings, mails, shared_months, linkedin) as facts,
               max(case when s.colleague then
                      (case when s.meetings > 0 then 4 else 0 end)
                    | (case when s.shared_months > 0 then 32 else 0 end)
                    | (case when s.linkedin then 128 else 0 end)
                    else
                      (case when s.shared_months > 0 then 64 else 0 end)
                    | (case when s.linkedin or s.meetings > 0 or s.mails > 0 then 256 else 0 end)
                    end) as old_mask,
               bit_or(${signalMaskSql('edge')}) as new_mask,
               max(case when s.colleague and s.meetings > 0 then 2 when s.colleague and s.mails > 0 then 1 else 0 end) as old_code,
               ${engagementSql()} as new_code
          from s group by colleague, meetings, mails, shared_months, linkedin
        union all
        select concat_ws(' ', v.views, v.pricing, v.prospect_id is not null),
               (case when v.views > 0 then 8 else 0 end)
               | (case when v.pricing then 2 else 0 end)
               | (case when v.views >= 5 then 1 else 0 end)
               | (case when pc.prospect_id is not null then 16 else 0 end),
               ${signalMaskSql('visits')} | ${signalMaskSql('pastClient')}, 0, 0
          from visits v cross join lateral (select v.prospect_id) pc`),
    );
    expect(compared.rows).toHaveLength(32 + 36);
    for (const row of compared.rows) {
      expect({ facts: row.facts, mask: row.new_mask, code: row.new_code }).toEqual({
        facts: row.facts,
        mask: row.old_mask,
        code: row.old_code,
      });
    }
  });

  it('reads back as the same signals and engagements: table, filters, facets, ranks, export and the in-memory copy', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const member: Member = {
      subject: `test|${admin.me.id}`,
      email: admin.email,
      workspaceId: ws,
      userId: admin.me.id,
      role: 'admin',
    };
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`
        with stored(name, mask, code, proximity) as (
          select * from unnest(${sql.param(STORED.map((row) => row.name))}::text[],
                               ${sql.param(STORED.map((row) => row.mask))}::int[],
                               ${sql.param(STORED.map((row) => row.code))}::int[],
                               ${sql.param(STORED.map((_, index) => 10 + 15 * index))}::int[])
        ),
        made as (
          insert into people (workspace_id, full_name) select ${ws}::uuid, name from stored returning id, full_name
        )
        insert into network_rows (workspace_id, prospect_id, full_name, proximity, engagement, connector_ids,
                                  has_external_connector, signal_mask)
        select ${ws}::uuid, m.id, s.name, s.proximity, s.code, '{}', false, s.mask
          from stored s join made m on m.full_name = s.name`);
      await rebuildNetworkSummaries(tx, ws);
    });
    const index = createNetworkIndex(ctx.database, { minRows: 0 });
    await ctx.database.inWorkspace(ws, (tx) => index.current(tx, ws));
    await index.settled();
    expect(await ctx.database.inWorkspace(ws, (tx) => index.current(tx, ws))).not.toBeNull();
    const sides = { postgres: { database: ctx.database }, memory: { database: ctx.database, networkIndex: index } };

    for (const [side, deps] of Object.entries(sides)) {
      const page = await queryContacts(deps, member, [], 1, 50);
      const seen = Object.fromEntries(page.rows.map((row) => [row.name, row]));
      for (const stored of STORED) {
        const row = seen[stored.name];
        expect(byDisplayOrder(row?.signals.map((signal) => signal.type) ?? []), `${side} ${stored.name}`).toEqual(
          stored.signals,
        );
        expect(row?.engagement, `${side} ${stored.name}`).toBe(ENGAGEMENT_OF_OLD_CODE[stored.code]);
        expect(temperatureRank(row?.signals ?? []), `${side} ${stored.name}`).toBe(stored.rank);
      }

      for (const type of SIGNAL_TYPES) {
        const filtered = await queryContacts(deps, member, [{ name: 'signal', values: [type] }], 1, 50);
        const expected = STORED.filter((row) => (row.signals as readonly SignalType[]).includes(type));
        expect(filtered.rows.map((row) => row.name).sort(), `${side} ${type}`).toEqual(
          expected.map((row) => row.name).sort(),
        );
      }
      for (const engagement of ENGAGEMENTS) {
        const filtered = await queryContacts(deps, member, [{ name: 'engagement', values: [engagement] }], 1, 50);
        const expected = STORED.filter((row) => ENGAGEMENT_OF_OLD_CODE[row.code] === engagement);
        expect(filtered.rows.map((row) => row.name).sort(), `${side} ${engagement}`).toEqual(
          expected.map((row) => row.name).sort(),
        );
      }

      // Facets from the summaries (no filter) and counted over the rows (another field filtered).
      const everyBand: TFilterItem[] = [{ name: 'proximity', values: ['Low', 'Medium', 'High'] }];
      for (const filters of [[], everyBand]) {
        const { filters: facets } = await queryFilters(deps, member, filters, {
          companyNamePage: 1,
          personNamePage: 1,
        });
        const counts = (field: string) =>
          Object.fromEntries(
            (facets.find((facet) => facet.filterField === field)?.options ?? []).map((option) => [
              option.key,
              option.count,
            ]),
          );
        expect(counts('signal'), `${side} signal facet`).toEqual(
          Object.fromEntries(
            SIGNAL_TYPES.map((type) => [
              type,
              STORED.filter((row) => (row.signals as readonly SignalType[]).includes(type)).length,
            ]),
          ),
        );
        expect(counts('engagement'), `${side} engagement facet`).toEqual(
          Object.fromEntries(
            ENGAGEMENTS.map((engagement) => [
              engagement,
              STORED.filter((row) => ENGAGEMENT_OF_OLD_CODE[row.code] === engagement).length,
            ]),
          ),
        );
      }
    }

    // The recommendations' order in SQL: the warmest signal of the stored mask.
    const ranks = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ full_name: string; rank: number }>(sql`
        select r.full_name, ${temperatureRankSql(sql`r.signal_mask`)} as rank from network_rows r
         where r.workspace_id = ${ws}`),
    );
    expect(Object.fromEntries(ranks.rows.map((row) => [row.full_name, row.rank]))).toEqual(
      Object.fromEntries(STORED.map((row) => [row.name, row.rank])),
    );

    // The CSV export's labels.
    let csv = '';
    await exportNetworkCsv(
      ctx.database,
      member,
      [],
      new Writable({
        write(chunk, _encoding, done) {
          csv += String(chunk);
          done();
        },
      }),
    );
    const lines = csv.trim().split('\n');
    const header = lines[0]?.split(',') ?? [];
    const cells = Object.fromEntries(
      lines.slice(1).map((line) => {
        const values = line.split(',');
        return [
          values[0],
          { signals: values[header.indexOf('Signals')], engagement: values[header.indexOf('Engagement')] },
        ];
      }),
    );
    expect(cells['Pricing past client']).toEqual({ signals: 'Visited pricing page; Past client', engagement: 'Met' });
    expect(cells['Only linked']).toEqual({
      signals: 'Connected with a colleague; Connected with a client',
      engagement: 'Not met',
    });
    expect(cells['Former coworker']).toEqual({
      signals: 'Worked with a colleague; Worked with a client',
      engagement: 'Touched',
    });
    // No signal: an empty text, which CSV quotes.
    expect(cells['Nothing yet']).toEqual({ signals: '""', engagement: 'Not met' });
  });
});
