import { COMPANY_SIZES, COMPANY_TYPES, JOB_DEPARTMENTS, untargetedScheme } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { recordInteractions, upsertPeopleByEmail } from '../src/graph/evidence.repo.ts';
import type { TestContext } from './harness.ts';

// A small network built from evidence the way syncs and imports record it: two members, outsiders at
// a prospect company (met, LinkedIn-only, one-way mail, reached through an ally), one mapped ally and
// one tracked client who changed company.

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** A workspace with two members, outsiders at a prospect company, one mapped ally and one tracked client. */
export async function buildNetwork(ctx: TestContext) {
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
    );
    await recordInteractions(tx, ws, admin.me.id, [
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
    ]);
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

/** A targeting scheme that leaves nobody out: what a mailbox tells of companies is mostly unknown anyway. */
export const everyoneScheme = (countries: string[] = ['US', 'FR', 'GB', 'DE', 'ES']) => ({
  ...untargetedScheme(),
  countries,
  companySize: [...COMPANY_SIZES],
  companyType: [...COMPANY_TYPES],
  jobDepartments: [...JOB_DEPARTMENTS],
});
