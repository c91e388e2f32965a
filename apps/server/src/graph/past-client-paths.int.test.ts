import type { TJobChanges } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyoneScheme } from '../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { recommendActions } from '../features/actions/engine.ts';
import { networkRows } from '../features/network/network.repo.ts';
import { recordInteractions } from './evidence.repo.ts';
import { recomputeDirty } from './graph.service.ts';
import { inferJobChangesFromMail } from './job-changes.ts';
import { deriveMailEmployments } from './mail-employments.ts';
import { loadGraphSettings } from './settings.ts';

// A past client who moved is a path into their new company (issue 20): once the move is confirmed, the
// prospects there known only from mail have the past client among their connectors, and the day's
// recommendations ask them for an intro.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
type Address = { email: string; name: string };

/**
 * A workspace whose admin corresponded with Tina at OldCo, then at Newco (the team tracks her as a
 * client from OldCo), and got Pete's announcement to all of Newco (bcc: the admin is in no header, so
 * the admin knows Pete through nobody).
 */
async function mailbox() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const id = admin.me.id.slice(0, 6);
  const me = { email: admin.email, name: 'Admin' };
  const tinaOld = { email: `tina@oldco-${id}.test`, name: 'Tina Tracked' };
  const tinaNew = { email: `tina.tracked@newco-${id}.test`, name: 'Tina Tracked' };
  const pete = { email: `pete@newco-${id}.test`, name: 'Pete Prospect' };
  const everyone = { email: `all@newco-${id}.test`, name: 'Newco' };
  const mail = (key: string, from: Address, to: Address, days: number) => ({
    kind: 'mail' as const,
    externalId: key,
    occurredAt: daysAgo(days),
    participants: [
      { email: from.email, name: from.name, role: 'from' as const },
      { email: to.email, name: to.name, role: 'to' as const },
    ],
  });
  await ctx.database.inWorkspace(ws, async (tx) => {
    await recordInteractions(tx, ws, admin.me.id, [
      mail('o1', tinaOld, me, 200),
      mail('o2', me, tinaOld, 199),
      mail('n1', tinaNew, me, 20),
      mail('n2', me, tinaNew, 19),
      mail('p1', pete, everyone, 60),
    ]);
    await tx.execute(sql`insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
                         select ${ws}::uuid, id, 'manual', true, company_id from people
                          where workspace_id = ${ws} and email = ${tinaOld.email}`);
    await inferJobChangesFromMail(tx, ws);
    await deriveMailEmployments(tx, ws);
  });
  await recomputeDirty(ctx.database, ws);
  const saved = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/command/set-targeted-accounts-preferences',
    headers: bearer(admin.token),
    payload: everyoneScheme(['US']),
  });
  expect(saved.statusCode).toBe(200);
  const ids = await ctx.database.inWorkspace(ws, (tx) =>
    tx.execute<{ email: string; id: string }>(sql`select email, id from people where workspace_id = ${ws}`),
  );
  const idOf = (address: Address) => ids.rows.find((row) => row.email === address.email)?.id ?? '';
  return { admin, ws, pete: idOf(pete), tina: idOf(tinaNew), newco: `newco-${id}.test` };
}

type Fixture = Awaited<ReturnType<typeof mailbox>>;

/** Pete's network row as the admin sees it, or null when he has none. */
async function peteRow({ admin, ws, pete }: Fixture) {
  return ctx.database.inWorkspace(ws, async (tx) => {
    const { model } = await loadGraphSettings(tx, ws);
    const [row] = await networkRows(tx, { workspaceId: ws, userId: admin.me.id }, [pete], model);
    return row ?? null;
  });
}

/** The actions recommended through anybody, with their prospect and connector. */
async function asks({ ws }: Fixture) {
  const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
    tx.execute<{ type: string; prospect_id: string; connector_id: string | null; reason: string | null }>(sql`
      select type, prospect_id, connector_id, reason from actions
       where workspace_id = ${ws} and type = 'ask-intro' order by prospect_id`),
  );
  return rows;
}

const confirmTinasMove = async ({ admin }: Fixture) => {
  const listed = await ctx.app.inject({ url: '/api/clients/query/job-changes', headers: bearer(admin.token) });
  const [change] = listed.json<TJobChanges>().changes;
  const confirmed = await ctx.app.inject({
    method: 'POST',
    url: `/api/clients/command/confirm-job-change/${change?.id}`,
    headers: bearer(admin.token),
  });
  expect(confirmed.statusCode).toBe(204);
};

describe('a past client at a new company', () => {
  it('is nobody’s connector while the move is only probable', async () => {
    const fixture = await mailbox();
    // Pete works at Newco as his address says, though no export ever said so.
    const { rows: stints } = await ctx.database.inWorkspace(fixture.ws, (tx) =>
      tx.execute(sql`select c.domain, e.source, e.started_on from employments e
                       join companies c on c.id = e.company_id where e.person_id = ${fixture.pete}`),
    );
    expect(stints).toEqual([{ domain: fixture.newco, source: 'mail', started_on: null }]);
    expect(await peteRow(fixture)).toBeNull();
    await recommendActions(ctx.database, fixture.ws, { userId: fixture.admin.me.id });
    expect(await asks(fixture)).toEqual([]);
  });

  it('once the move is confirmed, connects the team to their new colleagues and is asked for an intro, once', async () => {
    const fixture = await mailbox();
    await confirmTinasMove(fixture);
    await recomputeDirty(ctx.database, fixture.ws);

    const row = await peteRow(fixture);
    expect(row?.connectors).toEqual([]);
    expect(row?.clientsConnected).toEqual([
      expect.objectContaining({ id: fixture.tina, name: 'Tina Tracked', connectionSources: ['SHARED_EXPERIENCE'] }),
    ]);
    expect(row?.signals.map((signal) => signal.type)).toContain('WORKED_WITH_CLIENT');

    await recommendActions(ctx.database, fixture.ws, { userId: fixture.admin.me.id });
    const company = row?.companyName;
    expect(await asks(fixture)).toContainEqual({
      type: 'ask-intro',
      prospect_id: fixture.pete,
      connector_id: fixture.tina,
      reason: expect.stringContaining(`ask Tina Tracked, a former client now at ${company}, for an intro`),
    });

    // Everything again: the sync's derivation, the graph job, the day's run. Nothing is added twice.
    const counts = () =>
      ctx.database.inWorkspace(fixture.ws, async (tx) => {
        const { rows } = await tx.execute<{ employments: number; edges: number; actions: number }>(sql`
          select (select count(*)::int from employments where workspace_id = ${fixture.ws}) as employments,
                 (select count(*)::int from edges where workspace_id = ${fixture.ws}) as edges,
                 (select count(*)::int from actions where workspace_id = ${fixture.ws}) as actions`);
        return rows[0];
      });
    const before = await counts();
    expect(await ctx.database.inWorkspace(fixture.ws, (tx) => deriveMailEmployments(tx, fixture.ws))).toBe(0);
    await recomputeDirty(ctx.database, fixture.ws);
    await recommendActions(ctx.database, fixture.ws, { userId: fixture.admin.me.id });
    expect(await counts()).toEqual(before);
  });

  it('shows another workspace nothing', async () => {
    const fixture = await mailbox();
    await confirmTinasMove(fixture);
    await recomputeDirty(ctx.database, fixture.ws);
    const other = await ctx.registerAdmin();
    const ows = other.me.workspaceId;
    expect(await ctx.database.inWorkspace(ows, (tx) => deriveMailEmployments(tx, ows))).toBe(0);
    const { rows } = await ctx.database.inWorkspace(ows, (tx) =>
      tx.execute<{ employments: number; edges: number }>(sql`
        select (select count(*)::int from employments) as employments, (select count(*)::int from edges) as edges`),
    );
    // Row-level security shows the other workspace only its own rows: none of these.
    expect(rows).toEqual([{ employments: 0, edges: 0 }]);
    const contacts = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query',
      headers: bearer(other.token),
      payload: { filters: [] },
    });
    expect(contacts.json<{ rows: unknown[] }>().rows).toEqual([]);
  });
});
