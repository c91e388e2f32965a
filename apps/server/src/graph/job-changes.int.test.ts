import type { TContactsPage, TJobChanges } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { recordInteractions, upsertPeopleByEmail } from './evidence.repo.ts';
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

describe('job changes the mail implies', () => {
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
    expect(page.json<TContactsPage>().rows.map((row) => [row.email, row.companyName])).toEqual([
      ['grace@navy.test', 'Univac'],
    ]);
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
    const upload = (company: string) => {
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
        headers: { ...bearer(admin.token), 'content-type': file.contentType },
        payload: file.body,
      });
    };
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
