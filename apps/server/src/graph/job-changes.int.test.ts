import type { TContactsPage, TJobChanges } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyoneScheme } from '../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { recommendActions } from '../features/actions/engine.ts';
import { inferDeparturesFromBounces } from './departures.ts';
import { recordDeadAddresses, recordInteractions, upsertPeopleByEmail } from './evidence.repo.ts';
import { recomputeDirty } from './graph.service.ts';
import { inferJobChangesFromMail } from './job-changes.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** A workspace whose admin got mail from Grace at the Navy long ago, then from Grace at Univac; and from two Johns. */
async function mailbox() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const mail = (id: string, from: { email: string; name: string }, days: number) => ({
    kind: 'mail' as const,
    externalId: id,
    occurredAt: daysAgo(days),
    participants: [
      { email: from.email, name: from.name, role: 'from' as const },
      { email: admin.email, name: null, role: 'to' as const },
    ],
  });
  const graceAtNavy = { email: 'grace@navy.test', name: 'Grace Hopper' };
  const graceAtUnivac = { email: 'grace@univac.test', name: 'Grace Hopper' };
  // Two different Johns writing at the same time: neither wrote after the other's last mail.
  const johnA = { email: 'john.smith@acme.test', name: 'John Smith' };
  const johnB = { email: 'jsmith@globex.test', name: 'John Smith' };
  await ctx.database.inWorkspace(ws, async (tx) => {
    await upsertPeopleByEmail(tx, ws, [graceAtNavy, graceAtUnivac, johnA, johnB]);
    await recordInteractions(tx, ws, admin.me.id, [
      mail('n1', graceAtNavy, 400),
      mail('n2', graceAtNavy, 200),
      mail('u1', graceAtUnivac, 30),
      mail('a1', johnA, 50),
      mail('b1', johnB, 40),
      mail('a2', johnA, 10),
    ]);
    // The team tracks Grace as a client, from when she was at the Navy.
    await tx.execute(sql`insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
                         select ${ws}::uuid, id, 'manual', true, company_id from people
                          where workspace_id = ${ws} and email = 'grace@navy.test'`);
  });
  await recomputeDirty(ctx.database, ws);
  return { admin, ws };
}

const listed = async (token: string) =>
  (await ctx.app.inject({ url: '/api/clients/query/job-changes', headers: bearer(token) })).json<TJobChanges>().changes;

/** Grace in the admin's LinkedIn export, at `company`. */
function uploadGraceAt(token: string, company: string) {
  const file = multipartBody({}, [
    {
      filename: 'Connections.csv',
      content: [
        'Notes:',
        '"Some emails are missing."',
        '',
        'First Name,Last Name,URL,Email Address,Company,Position,Connected On',
        `Grace,Hopper,https://www.linkedin.com/in/grace-hopper,,${company},Rear Admiral,01 Jan 2020`,
      ].join('\r\n'),
    },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/linkedin/command/upload-connections',
    headers: { ...bearer(token), 'content-type': file.contentType },
    payload: file.body,
  });
}

describe('job changes the mail implies', () => {
  it("come from no 'Private' member's mail (issue 22)", async () => {
    const { admin, ws } = await mailbox();
    const privacy = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-privacy',
      headers: bearer(admin.token),
      payload: { sharingLevel: 'private', acceptsIntros: true, weeklyIntroCap: null },
    });
    expect(privacy.statusCode).toBe(200);
    expect(await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws))).toBe(0);
    expect(await listed(admin.token)).toEqual([]);
  });

  it('are probable, once, until an admin confirms them; then the tracked client is a past client', async () => {
    const { admin, ws } = await mailbox();
    expect(await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws))).toBe(1);
    expect(await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws))).toBe(0);
    const [change] = await listed(admin.token);
    expect(change).toMatchObject({
      person: { name: 'Grace Hopper' },
      pastCompanyName: 'Navy',
      newCompanyName: 'Univac',
      source: 'mail',
      confidence: 'probable',
      status: 'detected',
      tracked: true,
    });
    expect(await listed(admin.token)).toHaveLength(1);

    const member = await ctx.addUser(ws, 'member', admin.domain);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/confirm-job-change/${change?.id}`,
      headers: bearer(member.token),
    });
    expect(refused.statusCode).toBe(403);
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/confirm-job-change/${change?.id}`,
      headers: bearer(admin.token),
    });
    expect(confirmed.statusCode).toBe(204);
    expect(await listed(admin.token)).toEqual([
      expect.objectContaining({ status: 'confirmed', confidence: 'certain' }),
    ]);
    // Decided once.
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/dismiss-job-change/${change?.id}`,
      headers: bearer(admin.token),
    });
    expect(again.statusCode).toBe(404);

    await recomputeDirty(ctx.database, ws);
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query',
      headers: bearer(admin.token),
      payload: { filters: [{ name: 'signal', values: ['PAST_CLIENT'] }] },
    });
    // The past client is who writes from the new address: a message to her reaches Univac, not the
    // Navy's dead address, and the old record no longer works at the Navy.
    expect(page.json<TContactsPage>().rows.map((row) => [row.email, row.companyName])).toEqual([
      ['grace@univac.test', 'Univac'],
    ]);
    const { rows: records } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select p.email, c.name as company, exists (select 1 from clients cl where cl.person_id = p.id) as tracked
                       from people p left join companies c on c.id = p.company_id
                      where p.email like 'grace@%' order by p.email`),
    );
    expect(records).toEqual([
      { email: 'grace@navy.test', company: null, tracked: false },
      { email: 'grace@univac.test', company: 'Univac', tracked: true },
    ]);
    // Old mail read again does not put the old record back at the Navy.
    await ctx.database.inWorkspace(ws, (tx) =>
      upsertPeopleByEmail(tx, ws, [{ email: 'grace@navy.test', name: 'Grace Hopper' }]),
    );
    const { rows: reread } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select company_id from people where email = 'grace@navy.test'`),
    );
    expect(reread).toEqual([{ company_id: null }]);

    // Her next recommendation is a direct message, as to a past client.
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/set-targeted-accounts-preferences',
      headers: bearer(admin.token),
      payload: everyoneScheme(['US']),
    });
    expect(saved.statusCode).toBe(200);
    await recommendActions(ctx.database, ws, { userId: admin.me.id });
    const { rows: actions } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select a.type, p.email from actions a join people p on p.id = a.prospect_id
                      where p.email like 'grace@%'`),
    );
    expect(actions).toEqual([{ type: 'DIRECT_MESSAGE', email: 'grace@univac.test' }]);
  });

  it('remembers a dismissal, and shows another workspace nothing', async () => {
    const { admin, ws } = await mailbox();
    await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws));
    const [change] = await listed(admin.token);
    const dismissed = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/dismiss-job-change/${change?.id}`,
      headers: bearer(admin.token),
    });
    expect(dismissed.statusCode).toBe(204);
    expect(await listed(admin.token)).toEqual([]);
    expect(await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws))).toBe(0);

    const other = await ctx.registerAdmin();
    expect(await listed(other.token)).toEqual([]);
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/confirm-job-change/${change?.id}`,
      headers: bearer(other.token),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('become certain when a LinkedIn export shows the same move', async () => {
    const { admin, ws } = await mailbox();
    await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws));
    const upload = (company: string) => uploadGraceAt(admin.token, company);
    expect((await upload('Navy')).statusCode).toBe(200);
    expect((await upload('Univac')).statusCode).toBe(200);
    const changes = await listed(admin.token);
    expect(changes.find((change) => change.source === 'mail')).toMatchObject({
      newCompanyName: 'Univac',
      confidence: 'certain',
      status: 'confirmed',
    });
    expect(changes.find((change) => change.source === 'linkedin')).toMatchObject({ newCompanyName: 'Univac' });
  });
});

/**
 * A workspace whose admin corresponded with Grace at the Navy (a tracked client) and with Alan at
 * Bletchley, met Ada, then got delivery failure reports for the three, for a mistyped address and for
 * a free mailbox.
 */
async function bouncedMailbox() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const grace = { email: 'grace@navy.test', name: 'Grace Hopper' };
  const alan = { email: 'alan@bletchley.test', name: 'Alan Turing' };
  const joe = { email: 'joe.bloggs@gmail.com', name: 'Joe Bloggs' };
  const typo = { email: 'garce@navy.test', name: 'Grace Hopper' };
  const ada = { email: 'ada@analytical.test', name: 'Ada Lovelace' };
  const mail = (
    id: string,
    from: { email: string; name: string | null },
    to: { email: string; name: string | null },
    days: number,
  ) => ({
    kind: 'mail' as const,
    externalId: id,
    occurredAt: daysAgo(days),
    participants: [
      { ...from, role: 'from' as const },
      { ...to, role: 'to' as const },
    ],
  });
  const me = { email: admin.email, name: null };
  const bounce = (email: string, days: number) => ({
    email,
    bouncedAt: daysAgo(days),
    messageId: `report-${email}-${days}`,
    sender: 'mailer-daemon@googlemail.com',
  });
  await ctx.database.inWorkspace(ws, async (tx) => {
    await recordInteractions(tx, ws, admin.me.id, [
      mail('g1', grace, me, 400),
      mail('g2', grace, me, 200),
      mail('g3', me, grace, 31),
      mail('a1', alan, me, 100),
      mail('t1', me, typo, 60),
      mail('j1', joe, me, 90),
      // Ada never wrote, but met the admin: her address was no guess.
      {
        kind: 'meeting',
        externalId: 'm1',
        occurredAt: daysAgo(120),
        participants: [
          { ...me, role: 'organizer' },
          { ...ada, role: 'attendee' },
        ],
      },
    ]);
    await recordDeadAddresses(tx, ws, admin.me.id, [
      bounce(grace.email, 31),
      bounce(alan.email, 50),
      bounce(typo.email, 60),
      bounce(joe.email, 80),
      bounce(ada.email, 45),
    ]);
    await tx.execute(sql`insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
                         select ${ws}::uuid, id, 'manual', true, company_id from people
                          where workspace_id = ${ws} and email = ${grace.email}`);
  });
  const write = (from: { email: string; name: string }, days: number) =>
    ctx.database.inWorkspace(ws, (tx) =>
      recordInteractions(tx, ws, admin.me.id, [mail(`later-${from.email}-${days}`, from, me, days)]),
    );
  const infer = () => ctx.database.inWorkspace(ws, (tx) => inferDeparturesFromBounces(tx, ws));
  return { admin, ws, grace, alan, write, infer };
}

const departures = async (token: string) =>
  (await ctx.app.inject({ url: '/api/clients/query/job-changes', headers: bearer(token) })).json<TJobChanges>()
    .departures;

describe('departures the bounces imply', () => {
  it('are probable, once, for the people who wrote from a company address that bounced since', async () => {
    const { admin, infer } = await bouncedMailbox();
    expect(await infer()).toEqual({ raised: 3, cleared: 0 });
    expect(await infer()).toEqual({ raised: 0, cleared: 0 });
    const listed = await departures(admin.token);
    expect(listed).toEqual([
      {
        id: expect.any(String),
        person: { id: expect.any(String), name: 'Grace Hopper' },
        pastCompanyName: 'Navy',
        address: 'grace@navy.test',
        bouncedOn: daysAgo(31).toISOString().slice(0, 10),
        source: 'mail',
        confidence: 'probable',
        tracked: true,
        status: 'detected',
      },
      expect.objectContaining({
        person: expect.objectContaining({ name: 'Ada Lovelace' }),
        pastCompanyName: 'Analytical',
      }),
      expect.objectContaining({ person: expect.objectContaining({ name: 'Alan Turing' }), tracked: false }),
    ]);
    // The job changes to a known company are apart, and there are none.
    const all = await ctx.app.inject({ url: '/api/clients/query/job-changes', headers: bearer(admin.token) });
    expect(all.json<TJobChanges>().changes).toEqual([]);
  });

  it('are withdrawn by mail from the address after the bounce, and raised again by a later bounce', async () => {
    const { admin, ws, alan, write, infer } = await bouncedMailbox();
    await write(alan, 70); // before the bounce: changes nothing
    await infer();
    await write(alan, 10);
    expect(await infer()).toEqual({ raised: 0, cleared: 1 });
    expect((await departures(admin.token)).map((departure) => departure.person.name)).toEqual([
      'Grace Hopper',
      'Ada Lovelace',
    ]);
    await ctx.database.inWorkspace(ws, (tx) =>
      recordDeadAddresses(tx, ws, admin.me.id, [
        { email: alan.email, bouncedAt: daysAgo(2), messageId: 'r2', sender: 'postmaster@bletchley.test' },
      ]),
    );
    expect(await infer()).toEqual({ raised: 1, cleared: 0 });
    expect(await departures(admin.token)).toContainEqual(
      expect.objectContaining({ address: alan.email, bouncedOn: daysAgo(2).toISOString().slice(0, 10) }),
    );
  });

  it('remember a dismissal, and show another workspace nothing', async () => {
    const { admin, infer } = await bouncedMailbox();
    await infer();
    const [grace] = await departures(admin.token);
    const dismiss = (token: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/clients/command/dismiss-job-change/${grace?.id}`,
        headers: bearer(token),
      });
    const other = await ctx.registerAdmin();
    expect((await dismiss(other.token)).statusCode).toBe(404);
    expect(await departures(other.token)).toEqual([]);
    expect((await dismiss(admin.token)).statusCode).toBe(204);
    expect(await infer()).toEqual({ raised: 0, cleared: 0 });
    expect((await departures(admin.token)).map((departure) => departure.person.name)).toEqual([
      'Ada Lovelace',
      'Alan Turing',
    ]);
  });

  it('once confirmed, end the employment for good: old mail read again does not bring the company back', async () => {
    const { admin, ws, grace, write, infer } = await bouncedMailbox();
    await infer();
    const listed = await departures(admin.token);
    const id = listed.find((departure) => departure.address === grace.email)?.id;
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: `/api/clients/command/confirm-job-change/${id}`,
      headers: bearer(admin.token),
    });
    expect(confirmed.statusCode).toBe(204);
    expect(await departures(admin.token)).toContainEqual(
      expect.objectContaining({ id, status: 'confirmed', confidence: 'certain' }),
    );
    await write(grace, 300);
    const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select company_id from people where workspace_id = ${ws} and email = ${grace.email}`),
    );
    expect(rows).toEqual([{ company_id: null }]);
    // Where she went is unknown: no PAST_CLIENT without a new company.
    await recomputeDirty(ctx.database, ws);
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query',
      headers: bearer(admin.token),
      payload: { filters: [{ name: 'signal', values: ['PAST_CLIENT'] }] },
    });
    expect(page.json<TContactsPage>().rows).toEqual([]);
  });

  it('become certain when a LinkedIn export shows a move away from the company', async () => {
    const { admin, infer } = await bouncedMailbox();
    await infer();
    expect((await uploadGraceAt(admin.token, 'Navy')).statusCode).toBe(200);
    expect(await departures(admin.token)).toContainEqual(expect.objectContaining({ status: 'detected' }));
    expect((await uploadGraceAt(admin.token, 'Univac')).statusCode).toBe(200);
    expect(await departures(admin.token)).toContainEqual(
      expect.objectContaining({ address: 'grace@navy.test', status: 'confirmed', confidence: 'certain' }),
    );
  });

  it('become certain when the mail shows the same person at a new company', async () => {
    const { admin, ws, write, infer } = await bouncedMailbox();
    await infer();
    await write({ email: 'grace@univac.test', name: 'Grace Hopper' }, 20);
    await ctx.database.inWorkspace(ws, (tx) => inferJobChangesFromMail(tx, ws));
    expect(await departures(admin.token)).toContainEqual(
      expect.objectContaining({ address: 'grace@navy.test', status: 'confirmed', confidence: 'certain' }),
    );
    const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select evidence->>'confirmedBy' as by from job_changes where workspace_id = ${ws} and kind = 'left'
                      and status = 'confirmed'`),
    );
    expect(rows).toEqual([{ by: 'mail' }]);
  });
});
