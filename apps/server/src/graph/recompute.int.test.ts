import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { FREE_EMAIL_DOMAINS } from '../lib/free-email-domains.ts';
import { recordInteractions, upsertPeopleByEmail } from './evidence.repo.ts';
import { recomputeAll, recomputeDirty } from './graph.service.ts';
import { DEFAULT_PROXIMITY_MODEL, proximitySql, scoreEdge } from './proximity.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** A workspace with two members, outsiders at a prospect company, one mapped ally and one tracked client. */
async function buildNetwork() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const colleague = await ctx.addUser(ws, 'member', admin.domain);
  const target = ctx.uniqueDomain();
  const people = {
    met: `met@${target}`,
    linkedinOnly: `linked@${target}`,
    oneWay: `oneway@${target}`,
    viaAlly: `via-ally@${target}`,
    ally: `ally@${ctx.uniqueDomain()}`,
    pastClient: `past@${target}`,
  };
  const mail = (id: string, from: string, to: string[], days: number) => ({
    kind: 'mail' as const,
    externalId: id,
    occurredAt: daysAgo(days),
    participants: [
      { email: from, name: null, role: 'from' as const },
      ...to.map((email) => ({ email, name: null, role: 'to' as const })),
    ],
  });
  const meeting = (id: string, attendees: string[], days: number) => ({
    kind: 'meeting' as const,
    externalId: id,
    occurredAt: daysAgo(days),
    participants: attendees.map((email) => ({ email, name: null, role: 'attendee' as const })),
  });
  await ctx.database.inWorkspace(ws, async (tx) => {
    await upsertPeopleByEmail(
      tx,
      ws,
      Object.values(people).map((email) => ({ email, name: null })),
      FREE_EMAIL_DOMAINS,
    );
    await recordInteractions(
      tx,
      ws,
      admin.me.id,
      [
        meeting('m1', [admin.email, people.met], 10),
        meeting('m2', [admin.email, people.met], 40),
        meeting('m3', [admin.email, people.met, colleague.email], 70),
        mail('e1', admin.email, [people.met], 5),
        mail('e2', people.met, [admin.email], 4),
        mail('e3', colleague.email, [people.oneWay], 3),
        // The ally met the prospect with a member present: how an ally's network is mapped.
        meeting('m4', [admin.email, people.ally, people.viaAlly], 20),
        meeting('m5', [people.ally, people.viaAlly, admin.email], 30),
        meeting('m6', [admin.email, people.ally], 15),
      ],
      FREE_EMAIL_DOMAINS,
    );
    await tx.execute(sql`
      insert into linkedin_connections (workspace_id, user_id, person_id)
      select ${ws}::uuid, ${admin.me.id}::uuid, id from people where workspace_id = ${ws} and email = ${people.linkedinOnly}`);
    await tx.execute(sql`insert into graph_dirty (workspace_id, person_id)
      select ${ws}::uuid, id from people where workspace_id = ${ws} and email = ${people.linkedinOnly}`);
    await tx.execute(sql`
      insert into clients (workspace_id, person_id, tag, source, map_network)
      select ${ws}::uuid, id, 'investor', 'manual', true from people where workspace_id = ${ws} and email = ${people.ally}`);
    await tx.execute(sql`
      insert into companies (workspace_id, domain, name) values (${ws}, ${`old-${target}`}, 'Oldco')`);
    await tx.execute(sql`
      insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
      select ${ws}::uuid, p.id, 'csv', true, c.id from people p, companies c
       where p.workspace_id = ${ws} and p.email = ${people.pastClient} and c.workspace_id = ${ws} and c.domain = ${`old-${target}`}`);
    await tx.execute(sql`insert into graph_dirty (workspace_id, person_id)
      select ${ws}::uuid, id from people where workspace_id = ${ws} and email in (${people.pastClient}, ${people.ally})
      on conflict do nothing`);
  });
  return { admin, ws, colleague, people };
}

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

describe('the relationship graph', () => {
  it('turns evidence into edges and network rows, members and the workspace domain excluded', async () => {
    const { ws, people, admin, colleague } = await buildNetwork();
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
    const { ws } = await buildNetwork();
    await recomputeDirty(ctx.database, ws);
    const edges = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{
        meeting_weight: number;
        meetings: number;
        mails_sent: number;
        mails_received: number;
        mail_sent_weight: number;
        mail_received_weight: number;
        shared_months: number;
        shared_same_department: boolean;
        shared_ended_on: string | null;
        linkedin: boolean;
        evidence_at: Date;
        now: Date;
        proximity: number;
      }>(sql`select e.*, now() as now, ${proximitySql(DEFAULT_PROXIMITY_MODEL, 'e')} as proximity from edges e`),
    );
    expect(edges.rows.length).toBeGreaterThan(4);
    for (const edge of edges.rows) {
      const expected = scoreEdge(
        {
          meetingWeight: edge.meeting_weight,
          meetings: edge.meetings,
          mailsSent: edge.mails_sent,
          mailsReceived: edge.mails_received,
          mailSentWeight: edge.mail_sent_weight,
          mailReceivedWeight: edge.mail_received_weight,
          sharedMonths: edge.shared_months,
          sharedSameDepartment: edge.shared_same_department,
          sharedEndedOn: edge.shared_ended_on ? new Date(edge.shared_ended_on) : null,
          linkedin: edge.linkedin,
          evidenceAt: new Date(edge.evidence_at),
        },
        DEFAULT_PROXIMITY_MODEL,
        new Date(edge.now),
      );
      expect(edge.proximity).toBe(expected.proximity);
    }
  });

  it('reaches a prospect through a mapped ally, scaled by the team’s trust in the ally', async () => {
    const { ws, people } = await buildNetwork();
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

  it('gives the same rows incrementally as a full recompute from evidence', async () => {
    const { ws } = await buildNetwork();
    await recomputeDirty(ctx.database, ws);
    const incremental = await rowsOf(ws);
    await recomputeAll(ctx.database, ws, { fromEvidence: true });
    expect(await rowsOf(ws)).toEqual(incremental);
    await recomputeAll(ctx.database, ws);
    expect(await rowsOf(ws)).toEqual(incremental);
  });
});
