import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../test/graph-fixtures.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { edgesOf } from '../features/network/network.repo.ts';
import { markDirty } from './dirty.ts';
import { recordInteractions } from './evidence.repo.ts';
import { recomputeAfterWrites, recomputeAll, recomputeDirty } from './graph.service.ts';
import { DEFAULT_PROXIMITY_MODEL, type EdgeEvidenceRow, edgeEvidenceOf, proximitySql, scoreEdge } from './proximity.ts';
import { rebuildNetworkSummaries } from './recompute.ts';
import { loadGraphSettings } from './settings.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Row = { email: string; proximity: number; engagement: number; signal_mask: number; connectors: number };
async function rowsOf(ws: string) {
  const result = await ctx.database.inWorkspace(ws, (tx) =>
    tx.execute<Row>(sql`
      select p.email, r.proximity, r.engagement, r.signal_mask, cardinality(r.connector_ids) as connectors
        from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
       order by p.email`),
  );
  return Object.fromEntries(result.rows.map((row) => [row.email, row]));
}

/** The best path a table page shows to the prospect with this e-mail (network.repo.ts edgesOf). */
async function shownPath(ws: string, email: string) {
  return ctx.database.inWorkspace(ws, async (tx) => {
    const { model } = await loadGraphSettings(tx, ws);
    const person = await tx.execute<{ id: string }>(
      sql`select id from people where workspace_id = ${ws} and email = ${email}`,
    );
    const edges = await edgesOf(tx, ws, [person.rows[0]?.id ?? ''], model, null);
    return Math.max(...edges.map((edge) => edge.path));
  });
}

/** A meeting of these people `days` ago, in the calendar of the user `sourceUserId`. */
const meeting = (ws: string, sourceUserId: string, id: string, emails: string[], days: number) =>
  ctx.database.inWorkspace(ws, (tx) =>
    recordInteractions(tx, ws, sourceUserId, [
      {
        kind: 'meeting' as const,
        externalId: id,
        occurredAt: new Date(Date.now() - days * 86_400_000),
        participants: emails.map((email) => ({ email, name: null, role: 'attendee' as const })),
      },
    ]),
  );

/** Someone only the ally has met (twice), so reached through the ally alone; their e-mail. */
async function knownOnlyToTheAlly(ws: string, sourceUserId: string, ally: string) {
  const onlyViaAlly = `only-via-ally@${ally.split('@')[1]}.example`;
  await meeting(ws, sourceUserId, 'a1', [ally, onlyViaAlly], 5);
  await meeting(ws, sourceUserId, 'a2', [ally, onlyViaAlly], 8);
  return onlyViaAlly;
}

describe('the relationship graph', () => {
  it('turns evidence into edges and network rows, members and the workspace domain excluded', async () => {
    const { ws, people, admin, colleague } = await buildNetwork(ctx);
    const report = await recomputeDirty(ctx.database, ws);
    expect(report.people).toBeGreaterThan(0);
    const rows = await rowsOf(ws);

    expect(rows[admin.email]).toBeUndefined();
    expect(rows[colleague.email]).toBeUndefined();
    // Three meetings and two-way mail with a member: met, and close.
    expect(rows[people.met]).toMatchObject({ engagement: 2 });
    expect(rows[people.met]?.proximity).toBeGreaterThanOrEqual(50);
    // A bare LinkedIn connection stays Low and is not a meeting.
    expect(rows[people.linkedinOnly]).toMatchObject({ proximity: 20, engagement: 0 });
    // Mail that only went one way: touched, and weak.
    expect(rows[people.oneWay]?.engagement).toBe(1);
    expect(rows[people.oneWay]?.proximity).toBeLessThan(25);
    // The tracked client who moved is a past client even with no edge of their own.
    expect(rows[people.pastClient]?.signal_mask).toBe(1 << 4);
  });

  it('scores edges in SQL exactly as the TypeScript model does', async () => {
    const { ws } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const edges = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<EdgeEvidenceRow & { now: Date; proximity: number }>(
        sql`select e.*, now() as now, ${proximitySql(DEFAULT_PROXIMITY_MODEL, 'e')} as proximity from edges e`,
      ),
    );
    expect(edges.rows.length).toBeGreaterThan(4);
    for (const edge of edges.rows) {
      const expected = scoreEdge(edgeEvidenceOf(edge), DEFAULT_PROXIMITY_MODEL, new Date(edge.now));
      expect(edge.proximity).toBe(expected.proximity);
    }
  });

  it('reaches a prospect through a mapped ally, scaled by the team’s trust in the ally', async () => {
    const { ws, people } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const rows = await rowsOf(ws);
    const viaAlly = rows[people.viaAlly];
    expect(viaAlly?.connectors).toBe(2);
    // The member attended too, so a member's own edge exists; the ally adds the external connector.
    const external = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ has_external_connector: boolean }>(sql`
        select has_external_connector from network_rows r join people p on p.id = r.prospect_id
         where p.email = ${people.viaAlly}`),
    );
    expect(external.rows[0]?.has_external_connector).toBe(true);
  });

  it('leaves the people of a CRM client out of the network once the client is recorded', async () => {
    const { ws, people } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    expect((await rowsOf(ws))[people.met]).toBeDefined();
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`
        insert into crm_clients (workspace_id, company_id, company_name, company_domain)
        select p.workspace_id, c.id, c.name, c.domain from people p join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
         where p.email = ${people.met}`);
      await tx.execute(
        sql`insert into graph_dirty (workspace_id, person_id) select workspace_id, id from people where email = ${people.met}`,
      );
    });
    await recomputeDirty(ctx.database, ws);
    expect((await rowsOf(ws))[people.met]).toBeUndefined();
  });

  it('keeps the summaries exact batch by batch, as a rebuild from the rows would make them', async () => {
    const { ws, people } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const summaries = () =>
      ctx.database.inWorkspace(ws, async (tx) => ({
        cube: (await tx.execute(sql`select * from network_cube order by 2, 3, 4, 5, 6, 7, 8`)).rows,
        reach: (await tx.execute(sql`select * from network_reach order by kind, key`)).rows,
        rank: (await tx.execute(sql`select * from network_rank order by proximity, bucket`)).rows,
        facets: (await tx.execute(sql`select * from network_facets order by field, value`)).rows,
      }));
    const built = await summaries();
    // The report cards' companies: how many companies have a row, kept with the reach.
    const companiesReached = (reach: Record<string, unknown>[]) => ({
      kept: reach.find((row) => row.kind === 'companies')?.rows,
      counted: reach.filter((row) => row.kind === 'company').length,
    });
    expect(built.reach.find((row) => row.kind === 'total')?.rows).toBeGreaterThan(0);
    expect(companiesReached(built.reach).counted).toBeGreaterThan(0);
    expect(companiesReached(built.reach).kept).toBe(companiesReached(built.reach).counted);
    expect(built.rank.length).toBeGreaterThan(0);
    expect(built.facets).toContainEqual(expect.objectContaining({ field: 'engagement', value: 'MET' }));

    // Proximities move (a retuned model), a customer's people leave, in batches of two people.
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(
        sql`update workspaces set graph_settings = '{"proximity": {"weights": {"mail": 0.3}}}' where id = ${ws}`,
      );
      await tx.execute(sql`
        insert into crm_clients (workspace_id, company_id, company_name, company_domain)
        select p.workspace_id, c.id, c.name, c.domain from people p join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
         where p.email = ${people.oneWay}`);
      await tx.execute(sql`insert into graph_dirty (workspace_id, person_id) select workspace_id, id from people`);
    });
    await recomputeDirty(ctx.database, ws, { batch: 2 });
    const inStep = await summaries();
    expect(inStep).not.toEqual(built);
    expect(companiesReached(inStep.reach).kept).toBe(companiesReached(inStep.reach).counted);
    await ctx.database.inWorkspace(ws, (tx) => rebuildNetworkSummaries(tx, ws));
    expect(await summaries()).toEqual(inStep);

    // A full recompute after another retune writes the rows that move, and the summaries follow them alike.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(
        sql`update workspaces set graph_settings = '{"proximity": {"weights": {"meeting": 0.4, "mail": 0.9}}}' where id = ${ws}`,
      ),
    );
    expect((await recomputeAll(ctx.database, ws)).rowsWritten).toBeGreaterThan(0);
    const afterFull = await summaries();
    expect(afterFull).not.toEqual(inStep);
    await ctx.database.inWorkspace(ws, (tx) => rebuildNetworkSummaries(tx, ws));
    expect(await summaries()).toEqual(afterFull);
    // Run again on the same model, it has nothing to write.
    expect((await recomputeAll(ctx.database, ws)).rowsWritten).toBe(0);
    expect(await summaries()).toEqual(afterFull);
  });

  it('rolls up everyone an ally knows again when the team’s trust in the ally moves', async () => {
    const { ws, people, admin } = await buildNetwork(ctx);
    const meet = (id: string, emails: string[], days: number) => meeting(ws, admin.me.id, id, emails, days);
    const onlyViaAlly = await knownOnlyToTheAlly(ws, admin.me.id, people.ally);
    await recomputeDirty(ctx.database, ws);
    const before = (await rowsOf(ws))[onlyViaAlly]?.proximity;
    expect(before).toBeGreaterThan(0);
    // The path the table page shows through the ally is the row's, scored with the same trust.
    expect(await shownPath(ws, onlyViaAlly)).toBe(before);
    // The team gets much closer to the ally; the prospect's own evidence does not change.
    for (let n = 0; n < 8; n++) await meet(`t${n}`, [admin.email, people.ally], n + 1);
    await recomputeDirty(ctx.database, ws);
    const incremental = await rowsOf(ws);
    expect(incremental[onlyViaAlly]?.proximity).toBeGreaterThan(before ?? 0);
    expect(await shownPath(ws, onlyViaAlly)).toBe(incremental[onlyViaAlly]?.proximity);
    await recomputeAll(ctx.database, ws);
    expect(await rowsOf(ws)).toEqual(incremental);
  });

  it("marks the graph job's network writes as its own, and not a recompute a member's request waits for", async () => {
    const { ws, admin } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const versions = async () => {
      const found = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute<{ version: number; requested: number }>(
          sql`select version::float8 as version, requested_version::float8 as requested from network_versions where workspace_id = ${ws}`,
        ),
      );
      return found.rows[0];
    };
    const first = await versions();
    expect(first?.requested).toBe(first?.version);

    // The job's batches move the version, not the one a network copy must have reached to answer.
    await meeting(ws, admin.me.id, 'job-1', [admin.email, `new-1@${ctx.uniqueDomain()}`], 1);
    await recomputeAfterWrites(ctx.database, ws);
    const afterJob = await versions();
    expect(afterJob?.version).toBeGreaterThan(first?.version ?? 0);
    expect(afterJob?.requested).toBe(first?.requested);

    // A recompute a request runs (an erasure, a new ally) moves both.
    await meeting(ws, admin.me.id, 'request-1', [admin.email, `new-2@${ctx.uniqueDomain()}`], 1);
    await recomputeDirty(ctx.database, ws);
    const afterRequest = await versions();
    expect(afterRequest?.version).toBeGreaterThan(afterJob?.version ?? 0);
    expect(afterRequest?.requested).toBe(afterRequest?.version);
  });

  it('gives the same rows one person at a time, each ally in another step than the prospects it reaches', async () => {
    const { ws, people, admin } = await buildNetwork(ctx);
    const onlyViaAlly = await knownOnlyToTheAlly(ws, admin.me.id, people.ally);
    // Every step rolls up one person: a prospect reached through an ally is scored with the trust the
    // ally's own step stored, or, before that step, with the trust its own step computes for it.
    await recomputeDirty(ctx.database, ws, { batch: 1 });
    const oneByOne = await rowsOf(ws);
    await recomputeAll(ctx.database, ws);
    expect(await rowsOf(ws)).toEqual(oneByOne);

    // A workspace whose allies are not stored yet (as right after the upgrade that brought the table):
    // a prospect's step scores the ally it is reached through, and its row does not change.
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`delete from allies where workspace_id = ${ws}`);
      await markDirty(tx, ws, sql`select id from people where workspace_id = ${ws} and email = ${onlyViaAlly}`);
    });
    expect((await recomputeDirty(ctx.database, ws)).people).toBe(1);
    expect(oneByOne[onlyViaAlly]?.proximity).toBeGreaterThan(0);
    expect(await rowsOf(ws)).toEqual(oneByOne);
    expect(await shownPath(ws, onlyViaAlly)).toBe(oneByOne[onlyViaAlly]?.proximity);
  });

  it('gives the same rows incrementally as a full recompute from evidence', async () => {
    const { ws } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const incremental = await rowsOf(ws);
    await recomputeAll(ctx.database, ws, { fromEvidence: true });
    expect(await rowsOf(ws)).toEqual(incremental);
    await recomputeAll(ctx.database, ws);
    expect(await rowsOf(ws)).toEqual(incremental);
  });
});
