import { randomUUID } from 'node:crypto';
import type { TImportStatus, TMe, TPersonExport, TTeammate } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, registration, subjectOf, type TestContext } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/multipart.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { ERASED_ROW_REASON } from '../lists/imports/merge.ts';
import { googleAccountDeps } from '../sources/google/google-deps.ts';
import { type SyncDeps, syncGoogleAccount } from '../sources/google/google-sync.ts';
import { insertUser } from '../users/users.repo.ts';

let ctx: TestContext;
let deps: SyncDeps;
beforeAll(async () => {
  ctx = await createTestContext();
  deps = { ...googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey), sleep: async () => {} };
});
afterAll(() => ctx.close());

const DAY = 86_400_000;

/** An admin whose Google account is a brand-new one (`+empty`): its mail is only what a test adds. */
async function adminWithEmptyMailbox() {
  const domain = ctx.uniqueDomain();
  const email = `ada+empty@${domain}`;
  const token = await ctx.tokenFor(email, 'Ada Admin');
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/command/create-workspace-admin',
    headers: bearer(token),
    payload: registration(token, { email, workspaceDomains: [domain] }),
  });
  expect(response.statusCode).toBe(201);
  const me = response.json<TMe>();
  await ctx.connectGoogle(token, email);
  return { token, email, domain, me, ws: me.workspaceId, target: { workspaceId: me.workspaceId, userId: me.id } };
}

/** Mail both ways and a past meeting between a member and someone outside. */
function correspond(member: string, other: string, daysAgo: number) {
  const at = Date.now() - daysAgo * DAY;
  ctx.google.addMail(member, { count: 2, from: other, to: [member], at });
  ctx.google.addMail(member, { count: 2, from: member, to: [other], at: at + 60_000 });
  ctx.google.addMeetings(member, { count: 1, attendees: [member, other], start: at + 3_600_000 });
}

const held = (ws: string, email: string) =>
  ctx.database.inWorkspace(ws, async (tx) => {
    const { rows } = await tx.execute<{ people: number; rows: number; edges: number; participants: number }>(sql`
      select (select count(*) from people where email = ${email})::int as people,
             (select count(*) from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
               where p.email = ${email})::int as rows,
             (select count(*) from edges e join people p on p.workspace_id = e.workspace_id and p.id = e.prospect_id
               where p.email = ${email})::int as edges,
             (select count(*) from interaction_participants ip join people p on p.workspace_id = ip.workspace_id and p.id = ip.person_id
               where p.email = ${email})::int as participants`);
    return rows[0];
  });

const personIdOf = async (ws: string, email: string) =>
  (
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ id: string }>(sql`select id from people where email = ${email}`),
    )
  ).rows[0]?.id ?? '';

describe("people's rights", { timeout: 120_000 }, () => {
  it('exports everything held about a person, and erases them so that the next sync does not bring them back', async () => {
    const admin = await adminWithEmptyMailbox();
    const company = `erasable-${randomUUID().slice(0, 6)}.test`;
    const erased = `eve.erased@${company}`;
    const kept = `kim.kept@${company}`;
    correspond(admin.email, erased, 30);
    correspond(admin.email, kept, 30);
    await syncGoogleAccount(deps, admin.target);
    await recomputeDirty(ctx.database, admin.ws);
    expect(await held(admin.ws, erased)).toMatchObject({ people: 1, rows: 1, edges: 1 });
    const personId = await personIdOf(admin.ws, erased);

    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/people/command/export/${personId}`,
      headers: bearer(admin.token),
    });
    expect(json.statusCode).toBe(200);
    const data = json.json<TPersonExport>();
    expect(data.identity).toMatchObject({ id: personId, email: erased });
    expect(data.interactions.length).toBeGreaterThanOrEqual(5);
    expect(data.interactions.every((row) => row.account === admin.email)).toBe(true);
    expect(data.edges).toHaveLength(1);
    expect(data.sources).toContain(`Mail and calendar of ${admin.email}`);
    const csv = await ctx.app.inject({
      method: 'POST',
      url: `/api/people/command/export-csv/${personId}`,
      headers: bearer(admin.token),
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('section,item,field,value');
    expect(csv.body).toContain(`identity,1,email,${erased}`);
    expect(csv.body).toContain('interaction,1,kind,');

    // Another workspace's admin can neither read nor erase them.
    const outsider = await ctx.registerAdmin();
    for (const url of [`/api/people/command/export/${personId}`, `/api/people/command/erase/${personId}`]) {
      const theirs = await ctx.app.inject({ method: 'POST', url, headers: bearer(outsider.token) });
      expect(theirs.statusCode).toBe(404);
    }

    const erase = await ctx.app.inject({
      method: 'POST',
      url: `/api/people/command/erase/${personId}`,
      headers: bearer(admin.token),
    });
    expect(erase.statusCode).toBe(204);
    expect(await held(admin.ws, erased)).toEqual({ people: 0, rows: 0, edges: 0, participants: 0 });
    expect(await held(admin.ws, kept)).toMatchObject({ people: 1, rows: 1, edges: 1 });
    const tombstones = await ctx.database.inWorkspace(admin.ws, (tx) =>
      tx.execute<{ key_hash: string }>(sql`select key_hash from erased_people`),
    );
    // Only a hash is kept, never the address.
    expect(tombstones.rows).toHaveLength(1);
    expect(JSON.stringify(tombstones.rows)).not.toContain('eve');

    // New mail from them, and the whole mailbox read again: they are not created again.
    correspond(admin.email, erased, 1);
    ctx.google.dropHistory(admin.email);
    ctx.google.invalidateCalendarSyncTokens(admin.email);
    ctx.google.invalidatePeopleSyncTokens(admin.email);
    await syncGoogleAccount(deps, admin.target);
    await recomputeDirty(ctx.database, admin.ws);
    expect(await held(admin.ws, erased)).toEqual({ people: 0, rows: 0, edges: 0, participants: 0 });
    expect(await held(admin.ws, kept)).toMatchObject({ people: 1, rows: 1, edges: 1 });

    // Nor by an admin's list: the CSV row naming them is refused with its line and why, the rest imported;
    // the add-client form says why too.
    const list = multipartBody({ mapNetwork: 'true', trackJobChanges: 'true' }, [
      {
        filename: 'clients.csv',
        content: [
          'First name,Last name,Email,Company name,Company domain,Linkedin profile URL,Contact owner,Tag',
          `Eve,Erased,${erased},Company,${company},https://www.linkedin.com/in/eve-erased,,`,
          `Kim,Kept,kim.kept@${company},Company,${company},https://www.linkedin.com/in/kim-kept,,`,
        ].join('\r\n'),
      },
    ]);
    const imported = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients/command/upload-clients',
      headers: { ...bearer(admin.token), 'content-type': list.contentType },
      payload: list.body,
    });
    expect(imported.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 1, rejected: 1 });
    const refused = await ctx.app.inject({
      url: imported.json<TImportStatus>().rejectedRowsUrl ?? '',
      headers: bearer(admin.token),
    });
    expect(refused.body).toBe(`line,reason\r\n2,${ERASED_ROW_REASON}\r\n`);
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients/command/create-update-single-client',
      headers: bearer(admin.token),
      payload: {
        firstName: 'Eve',
        lastName: 'Erased',
        email: erased,
        companyName: 'Company',
        companyDomain: company,
        linkedinUrl: 'https://www.linkedin.com/in/eve-erased',
        mapNetwork: false,
        trackJobChanges: true,
      },
    });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toEqual({ code: 'VALIDATION_FAILED', message: ERASED_ROW_REASON });
    expect(await held(admin.ws, erased)).toEqual({ people: 0, rows: 0, edges: 0, participants: 0 });

    // A member is not erased this way: they leave the workspace first.
    const self = await ctx.app.inject({
      method: 'POST',
      url: `/api/people/command/erase/${await personIdOf(admin.ws, admin.email)}`,
      headers: bearer(admin.token),
    });
    expect(self.statusCode).toBe(403);
  });

  it("takes a removed member's evidence with them: their edges leave everyone's network", async () => {
    const admin = await adminWithEmptyMailbox();
    const leaverEmail = `leo+empty@${admin.domain}`;
    const leaverToken = await ctx.tokenFor(leaverEmail, 'Leo Leaver');
    await ctx.database.inWorkspace(admin.ws, (tx) =>
      insertUser(tx, {
        workspaceId: admin.ws,
        idpSubject: subjectOf(leaverToken),
        firstName: 'Leo',
        lastName: 'Leaver',
        email: leaverEmail,
        role: 'member',
      }),
    );
    const leaver = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) }))
      .json<TTeammate[]>()
      .find((teammate) => teammate.email === leaverEmail);
    if (!leaver) throw new Error('the leaver is not listed');
    await ctx.connectGoogle(leaverToken, leaverEmail);
    const company = `known-${randomUUID().slice(0, 6)}.test`;
    const theirs = `only.theirs@${company}`;
    const shared = `both.know@${company}`;
    // The leaver's mailbox knows two people; the admin's, one of them.
    correspond(leaverEmail, theirs, 20);
    correspond(leaverEmail, shared, 20);
    correspond(admin.email, shared, 10);
    // A meeting only the leaver's calendar holds, the admin among its guests: evidence of the admin's
    // acquaintance that leaves with the leaver.
    const metThrough = `met.through@${company}`;
    ctx.google.addMeetings(leaverEmail, {
      count: 2,
      attendees: [leaverEmail, admin.email, metThrough],
      start: Date.now() - 15 * DAY,
    });
    await syncGoogleAccount(deps, admin.target);
    await syncGoogleAccount(deps, { workspaceId: admin.ws, userId: leaver.id });
    await recomputeDirty(ctx.database, admin.ws);
    expect(await held(admin.ws, theirs)).toMatchObject({ rows: 1, edges: 1 });
    expect(await held(admin.ws, shared)).toMatchObject({ rows: 1, edges: 2 });
    expect(await held(admin.ws, metThrough)).toMatchObject({ rows: 1, edges: 2 });

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete/${leaver.id}`,
      headers: bearer(admin.token),
    });
    expect(removed.statusCode).toBe(204);
    await recomputeDirty(ctx.database, admin.ws);
    expect(await held(admin.ws, theirs)).toMatchObject({ rows: 0, edges: 0, participants: 0 });
    expect(await held(admin.ws, metThrough)).toMatchObject({ rows: 0, edges: 0, participants: 0 });
    // The admin's own evidence of the shared contact stays: one edge, theirs.
    expect(await held(admin.ws, shared)).toMatchObject({ rows: 1, edges: 1 });
    const left = await ctx.database.inWorkspace(admin.ws, (tx) =>
      tx.execute<{ n: number }>(sql`select count(*)::int as n from interactions where source_user_id = ${leaver.id}`),
    );
    expect(left.rows[0]?.n).toBe(0);
  });
});
