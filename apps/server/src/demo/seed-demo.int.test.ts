import { SIGNAL_TYPES, signalsOfMask, type TMe } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { createEventRecorder } from '../events/record.ts';
import { listAll } from '../features/workflows/operator.ts';
import { latestRuns } from '../features/workflows/workflows.repo.ts';
import { SEEDED_TABLES, type SeedReport, seedDemo } from './seed-demo.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

// Everything the seed fills, and the network rows it ends with (graph_dirty is drained by then).
const TABLES = [...SEEDED_TABLES.filter((table) => table !== 'graph_dirty'), 'network_rows'] as const;

/** Rows per table that the workspace can see. */
async function counts(workspaceId: string) {
  return ctx.database.inWorkspace(workspaceId, async (tx) => {
    const entries = await Promise.all(
      TABLES.map(async (table) => {
        const result = await tx.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
        return [table, result.rows[0]?.n ?? 0] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<(typeof TABLES)[number], number>;
  });
}

describe('the small demo dataset', () => {
  let me: TMe;
  let report: SeedReport;
  const seed = () =>
    seedDemo(ctx.database, {
      workspaceId: me.workspaceId,
      seedUserId: me.id,
      size: 'small',
      log: () => {},
      events: { events: createEventRecorder(ctx.jobs), publicUrl: ctx.config.publicUrl },
    });

  // Seeding runs the whole pipeline (evidence, graph, recommendations): 20 s alone, several times that
  // beside the suite's other integration files on two cores.
  const SEED_TIMEOUT = 400_000;

  beforeAll(async () => {
    me = (await ctx.registerAdmin()).me;
    report = await seed();
  }, SEED_TIMEOUT);

  it('fills the workspace with companies, people, colleagues, allies, accounts and evidence', async () => {
    expect(report.created).toMatchObject({ companies: 300, members: 7, allies: 30, trackedClients: 60 });
    expect(report.created.people).toBeGreaterThan(2900);
    expect(report.created.interactions + report.created.participants).toBeGreaterThan(30_000);
    expect(report.created.edges).toBe(report.totals.edges);
    const shape = await ctx.database.inWorkspace(me.workspaceId, async (tx) => {
      const result = await tx.execute<{
        roles: string[];
        big_threads: number;
        company_visits: number;
        person_visits: number;
        mine: number;
        accounts: number;
      }>(sql`
        select (select array_agg(distinct role order by role) from users) as roles,
               (select count(*)::int from interactions where participant_count > 20) as big_threads,
               (select count(*)::int from website_events where person_id is null) as company_visits,
               (select count(*)::int from website_events where person_id is not null) as person_visits,
               (select count(distinct account_id)::int from account_assignees where user_id = ${me.id}) as mine,
               (select count(*)::int from accounts) as accounts`);
      return result.rows[0];
    });
    expect(shape?.roles).toEqual(['admin', 'member', 'viewer']);
    expect(shape?.big_threads).toBeGreaterThan(0);
    expect(shape?.company_visits).toBeGreaterThan(0);
    expect(shape?.person_visits).toBeGreaterThan(0);
    // The seeding user gets a good share of the target accounts.
    expect(shape?.mine).toBeGreaterThan((shape?.accounts ?? 0) / 4);
  });

  it('builds a network with every band, engagement and signal, through the real pipeline', async () => {
    const spread = await ctx.database.inWorkspace(me.workspaceId, async (tx) => {
      const result = await tx.execute<{
        rows: number;
        low: number;
        medium: number;
        high: number;
        never_met: number;
        touched: number;
        met: number;
        external: number;
        signals: number;
      }>(sql`
        select count(*)::int as rows,
               count(*) filter (where proximity < 25)::int as low,
               count(*) filter (where proximity between 25 and 74)::int as medium,
               count(*) filter (where proximity >= 75)::int as high,
               count(*) filter (where engagement = 0)::int as never_met,
               count(*) filter (where engagement = 1)::int as touched,
               count(*) filter (where engagement = 2)::int as met,
               count(*) filter (where has_external_connector)::int as external,
               bit_or(signal_mask) as signals
          from network_rows`);
      return result.rows[0];
    });
    if (!spread) throw new Error('no spread');
    expect(spread.rows).toBeGreaterThan(2500);
    // A believable spread: each band and each engagement is at least a twentieth of the network.
    for (const part of [spread.low, spread.medium, spread.high, spread.never_met, spread.touched, spread.met]) {
      expect(part).toBeGreaterThan(spread.rows / 20);
    }
    expect(spread.low).toBeGreaterThan(spread.high);
    expect(spread.external).toBeGreaterThan(0);
    expect(signalsOfMask(spread.signals)).toEqual(SIGNAL_TYPES);
  });

  it("produces its job changes and everyone's employments as a team's uploads and mail do", async () => {
    const found = await ctx.database.inWorkspace(me.workspaceId, async (tx) => {
      const changes = await tx.execute<{ source: string; confidence: string; status: string; n: number }>(sql`
        select source, confidence, status, count(*)::int as n from job_changes group by 1, 2, 3`);
      const moved = await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from clients c join people p on p.workspace_id = c.workspace_id and p.id = c.person_id
         where c.track_job_changes and c.company_id_at_import <> p.company_id`);
      // Members' stints as Positions.csv gives them: LinkedIn's, from the first of a month.
      const stints = await tx.execute<{ source: string; first_of_month: boolean; n: number }>(sql`
        select e.source, extract(day from e.started_on) = 1 as first_of_month, count(*)::int as n
          from employments e join people p on p.workspace_id = e.workspace_id and p.id = e.person_id
          join users u on u.workspace_id = p.workspace_id and lower(u.email) = p.email
         group by 1, 2`);
      // Everyone else's, as a real team's sources give them: a current stint where their address or a
      // LinkedIn export places them, its start unknown; a past one only where a change was seen.
      const theirs = await tx.execute<{
        source: string;
        dated: boolean;
        ended: boolean;
        changed: boolean;
        n: number;
      }>(sql`
        select e.source, e.started_on is not null as dated, e.ended_on is not null as ended,
               exists (select 1 from job_changes j where j.person_id = e.person_id) as changed, count(*)::int as n
          from employments e
         where not exists (select 1 from people p join users u on u.workspace_id = p.workspace_id and lower(u.email) = p.email
                            where p.id = e.person_id)
         group by 1, 2, 3, 4 order by 1, 4`);
      return { changes: changes.rows, moved: moved.rows[0]?.n ?? 0, stints: stints.rows, theirs: theirs.rows };
    });
    expect(found.moved).toBeGreaterThan(0);
    // Each moved tracked client, seen by the newer export: certain, as LinkedIn's changes are.
    expect(found.changes).toEqual([{ source: 'linkedin', confidence: 'certain', status: 'confirmed', n: found.moved }]);
    expect(found.stints).toEqual([{ source: 'linkedin', first_of_month: true, n: 2 * (report.created.members + 1) }]);
    // A moved client is placed at the company they moved to, as their address there shows.
    expect(found.theirs).toEqual([
      { source: 'mail', dated: false, ended: false, changed: false, n: expect.any(Number) },
      { source: 'mail', dated: false, ended: false, changed: true, n: found.moved },
    ]);
    expect(found.theirs[0]?.n).toBeGreaterThan(2500);
  });

  it(
    'adds nothing when run again on the same workspace',
    async () => {
      const before = await counts(me.workspaceId);
      const again = await seed();
      expect(Object.values(again.created).every((created) => created === 0)).toBe(true);
      expect(await counts(me.workspaceId)).toEqual(before);
    },
    SEED_TIMEOUT,
  );

  it("makes the agents a provider would, and this morning's pricing-page visits fire them", async () => {
    const workflows = await listAll(ctx.database, me.workspaceId);
    expect(workflows.map((workflow) => [workflow.name, workflow.active])).toEqual([
      ['Past client changed jobs', true],
      ['Warm visit at a target account', true],
      ['Already met a colleague at an ICP company', false],
    ]);
    const warmVisit = workflows[1];
    const runs = await ctx.database.inWorkspace(me.workspaceId, (tx) =>
      latestRuns(tx, me.workspaceId, warmVisit?.id ?? '', 50),
    );
    expect(runs.length).toBeGreaterThan(0);
    // Nothing is connected in a new demo workspace: each push says so.
    expect(runs[0]?.pushes).toEqual([
      { engagement: 'PUSH_TO_SLACK', destination: 'slack', eventId: null, skipped: 'Slack is not connected' },
    ]);
  });

  it('shows none of it to another workspace', async () => {
    const other = (await ctx.registerAdmin()).me;
    expect(await counts(other.workspaceId)).toEqual({
      companies: 0,
      // The other admin's own person record.
      people: 1,
      users: 1,
      clients: 0,
      accounts: 0,
      account_assignees: 0,
      employments: 0,
      website_events: 0,
      interactions: 0,
      interaction_participants: 0,
      linkedin_connections: 0,
      edges: 0,
      network_rows: 0,
    });
  });
});
