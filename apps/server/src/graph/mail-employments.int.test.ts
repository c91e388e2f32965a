import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { recordInteractions } from './evidence.repo.ts';
import { deriveMailEmployments } from './mail-employments.ts';

// The stints an address proves (issue 20), beside a confirmed job change: a move *to* the address's
// company places the person there (the demo's moved clients, and a team whose member's newer LinkedIn
// export names the company their mail already showed); a move or departure *from* it does not.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('employments from mail beside confirmed job changes', () => {
  it('places someone who moved to the company of their address, and not someone who left it', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const id = admin.me.id.slice(0, 6);
    const arrived = `ann@acme-${id}.test`;
    const left = `dan@acme-${id}.test`;
    const stints = await ctx.database.inWorkspace(ws, async (tx) => {
      await recordInteractions(
        tx,
        ws,
        admin.me.id,
        [arrived, left].map((email, index) => ({
          kind: 'mail' as const,
          externalId: `m${index}`,
          occurredAt: new Date(Date.now() - 30 * 86_400_000),
          participants: [
            { email, name: email.startsWith('ann') ? 'Ann Arrived' : 'Dan Departed', role: 'from' as const },
            { email: admin.email, name: 'Admin', role: 'to' as const },
          ],
        })),
      );
      // Ann's move to Acme and Dan's departure from it, both confirmed.
      await tx.execute(sql`
        insert into job_changes (workspace_id, person_id, past_company_id, past_company_name, new_company_id,
                                 new_company_name, kind, changed_on, source, confidence, status)
        select ${ws}::uuid, p.id,
               case when p.email = ${left} then p.company_id end, case when p.email = ${left} then 'Acme' else 'Oldco' end,
               case when p.email = ${arrived} then p.company_id end, case when p.email = ${arrived} then 'Acme' end,
               case when p.email = ${arrived} then 'moved' else 'left' end, current_date, 'linkedin', 'certain', 'confirmed'
          from people p where p.workspace_id = ${ws} and p.email in (${arrived}, ${left})`);
      const added = await deriveMailEmployments(tx, ws);
      const { rows } = await tx.execute<{ email: string; domain: string; source: string }>(sql`
        select p.email, c.domain, e.source from employments e
          join people p on p.workspace_id = e.workspace_id and p.id = e.person_id
          join companies c on c.workspace_id = e.workspace_id and c.id = e.company_id
         where e.workspace_id = ${ws} and p.email in (${arrived}, ${left})`);
      return { added, rows };
    });
    expect(stints.rows).toEqual([{ email: arrived, domain: `acme-${id}.test`, source: 'mail' }]);
    expect(stints.added).toBeGreaterThanOrEqual(1);
  });
});
