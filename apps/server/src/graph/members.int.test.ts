import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { membersCte } from './graph.sql.ts';

// The graph knows the team's members by their person records (users.person_id, kept by the triggers of
// migration 0069): the person with the member's e-mail, whichever was written first, and whatever
// writes it (a sync's rows, an import's thousands, an erasure, an address filled in later).
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function workspace() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const member = await ctx.addUser(ws, 'member', admin.domain);
  const run = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    ctx.database.inWorkspace(ws, (tx) => tx.execute<T>(query)).then((result) => result.rows);
  /** The members as the graph's statements see them: e-mail -> person id. */
  const members = async () =>
    Object.fromEntries(
      (
        await run<{ email: string; person_id: string }>(sql`
          with ${membersCte(ws)}
          select u.email, m.person_id from members m join users u on u.workspace_id = ${ws} and u.id = m.user_id`)
      ).map((row) => [row.email, row.person_id]),
    );
  const addPeople = (emails: string[]) =>
    run<{ id: string; email: string }>(sql`
      insert into people (workspace_id, full_name, email)
      select ${ws}::uuid, 'Someone', email from unnest(${sql.param(emails)}::text[]) as email
      returning id, email`);
  /** A member written straight into users, as nothing else writes their person. */
  const addUser = async (email: string) => {
    await run(sql`insert into users (workspace_id, idp_subject, first_name, last_name, email, role)
                  values (${ws}, ${randomUUID()}, 'New', 'Member', ${email}, 'member')`);
    return email;
  };
  return { ws, admin, member, run, members, addPeople, addUser };
}

describe("the team's members in the graph", () => {
  it('are found by e-mail whether their person is written before or after them, and whatever the case', async () => {
    const { admin, member, members, addPeople, addUser } = await workspace();
    // Signing up writes the member, then their person.
    const signedUp = await members();
    expect(Object.keys(signedUp).sort()).toEqual([admin.email, member.email].sort());

    // A member nobody has mail from yet, then a sync's statement: many people at once, them among them.
    const quiet = await addUser(`quiet@${admin.domain}`);
    expect(Object.keys(await members())).not.toContain(quiet);
    const others = Array.from({ length: 500 }, (_, n) => `someone-${n}@${admin.domain}`);
    const added = await addPeople([...others, quiet]);
    expect((await members())[quiet]).toBe(added.find((row) => row.email === quiet)?.id);

    // A member who joins after their person is known (mail from them came first), their address in capitals.
    const [known] = await addPeople([`later@${admin.domain}`]);
    const later = await addUser(`LATER@${admin.domain.toUpperCase()}`);
    expect((await members())[later]).toBe(known?.id);
    expect(Object.keys(await members())).toHaveLength(4);
  });

  it('follow a person erased, an address filled in later, and a member whose address changes', async () => {
    const { ws, admin, member, run, members, addPeople } = await workspace();
    await run(sql`delete from people where workspace_id = ${ws} and email = ${member.email}`);
    expect(Object.keys(await members())).toEqual([admin.email]);

    // Known first by LinkedIn only, their e-mail filled in by a later import.
    const [nameless] = await run<{ id: string }>(sql`
      insert into people (workspace_id, full_name, linkedin_url) values (${ws}, 'Mia Member', 'https://www.linkedin.com/in/mia')
      returning id`);
    await run(sql`update people set email = ${member.email} where workspace_id = ${ws} and id = ${nameless?.id}`);
    expect((await members())[member.email]).toBe(nameless?.id);

    // The member's own address changes: their person is the one with the new address, or none.
    const changed = `renamed@${admin.domain}`;
    await run(sql`update users set email = ${changed} where workspace_id = ${ws} and email = ${member.email}`);
    expect(Object.keys(await members())).toEqual([admin.email]);
    const [renamed] = await addPeople([changed]);
    expect((await members())[changed]).toBe(renamed?.id);
  });
});
