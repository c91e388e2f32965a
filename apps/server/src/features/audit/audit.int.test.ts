import type { TAuditPage, TTeammate } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { multipartBody } from '../../../test/multipart.ts';
import { purgeAuditLog } from './audit.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const auditOf = async (token: string, query = '') => {
  const response = await ctx.app.inject({ url: `/api/workspace/query/audit-log${query}`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<TAuditPage>();
};

describe('the audit log', { timeout: 60_000 }, () => {
  it('records each source, export, erasure and removal, newest first, for admins only and this workspace only', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const member = await ctx.addUser(ws, 'member', admin.domain);
    const outsider = await ctx.registerAdmin();
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: bearer(admin.token), ...(payload ? { payload } : {}) });

    expect(await ctx.connectGoogle(admin.token, admin.email)).toContain('google=connected');
    await ctx.connectSlack(admin.token);
    expect((await call('DELETE', '/api/workspace/command/delete-slack-token')).statusCode).toBe(204);
    expect((await ctx.connectHubspot(admin.token, admin.email)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/workspace/command/delete-hubspot-token')).statusCode).toBe(204);
    const hook = 'http://127.0.0.1:9/warmpath-audit';
    expect((await call('POST', '/api/workspace/command/set-webhook-url', { webhookUrl: hook })).statusCode).toBe(200);
    expect((await call('DELETE', '/api/workspace/command/delete-webhook-url')).statusCode).toBe(204);
    const file = multipartBody({}, [
      {
        filename: 'Connections.csv',
        content:
          'First Name,Last Name,URL,Email Address,Company,Position,Connected On\r\nLin,Ked,https://www.linkedin.com/in/lin-ked,,Acme,CTO,01 Jan 2024\r\n',
      },
    ]);
    const linkedin = await ctx.app.inject({
      method: 'POST',
      url: '/api/linkedin/command/upload-connections',
      headers: { ...bearer(admin.token), 'content-type': file.contentType },
      payload: file.body,
    });
    expect(linkedin.statusCode).toBe(200);
    expect((await call('POST', '/api/contacts/query/export-csv', { filters: [] })).statusCode).toBe(200);
    const person = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ id: string }>(sql`select id from people where linkedin_url = 'https://www.linkedin.com/in/lin-ked'`),
    );
    const personId = person.rows[0]?.id ?? '';
    expect((await call('POST', `/api/people/command/export/${personId}`)).statusCode).toBe(200);
    expect((await call('POST', `/api/people/command/erase/${personId}`)).statusCode).toBe(204);
    const teammates = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) })).json<
      TTeammate[]
    >();
    const memberId = teammates.find((teammate) => teammate.email === member.email)?.id ?? '';
    expect((await call('DELETE', `/api/users/command/delete/${memberId}`)).statusCode).toBe(204);

    const log = await auditOf(admin.token, '?pageSize=100');
    expect(log.rows.map((row) => [row.action, row.subject]).reverse()).toEqual([
      ['source.connected', 'Google'],
      ['source.connected', 'Slack'],
      ['source.disconnected', 'Slack'],
      ['source.connected', 'HubSpot'],
      ['source.disconnected', 'HubSpot'],
      ['source.connected', 'Webhook'],
      ['source.disconnected', 'Webhook'],
      ['source.connected', 'LinkedIn import'],
      ['network.exported', 'Network table (CSV)'],
      ['person.exported', expect.stringContaining('linkedin.com/in/lin-ked')],
      ['person.erased', expect.stringContaining('linkedin.com/in/lin-ked')],
      ['member.removed', member.email],
    ]);
    expect(new Set(log.rows.map((row) => row.actorEmail))).toEqual(new Set([admin.email]));
    expect(log.pagination).toMatchObject({ totalCount: 12, totalPages: 1 });

    // Paged, newest first.
    const second = await auditOf(admin.token, '?page=2&pageSize=5');
    expect(second.rows.map((row) => row.action)).toEqual(log.rows.slice(5, 10).map((row) => row.action));
    expect(second.pagination).toMatchObject({ page: 2, totalPages: 3 });

    // Admins only; another workspace sees none of it.
    const asMember = await ctx.app.inject({
      url: '/api/workspace/query/audit-log',
      headers: bearer((await ctx.addUser(ws, 'member', admin.domain)).token),
    });
    expect(asMember.statusCode).toBe(403);
    expect((await auditOf(outsider.token)).rows).toEqual([]);
  });

  it('cannot be changed or deleted by the application, and forgets entries after a year', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query/export-csv',
      headers: bearer(admin.token),
      payload: { filters: [] },
    });
    // PostgreSQL's insufficient_privilege, whatever drizzle wraps it in.
    const refusal = (statement: ReturnType<typeof sql>) =>
      ctx.database
        .inWorkspace(ws, (tx) => tx.execute(statement))
        .then(
          () => 'allowed',
          (error: { code?: string; cause?: { code?: string } }) => error.cause?.code ?? error.code,
        );
    expect(await refusal(sql`update audit_log set subject = 'nothing happened'`)).toBe('42501');
    expect(await refusal(sql`delete from audit_log`)).toBe('42501');
    expect(await refusal(sql`truncate audit_log`)).toBe('42501');
    expect((await auditOf(admin.token)).rows).toHaveLength(1);

    // An entry from 13 months ago goes with the nightly purge; this month's stays.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into audit_log (workspace_id, actor_email, action, subject, at)
                     values (${ws}, 'old@example.test', 'person.erased', 'Long Ago', now() - interval '13 months')`),
    );
    expect((await auditOf(admin.token)).rows.map((row) => row.subject)).toEqual(['Network table (CSV)', 'Long Ago']);
    expect(await purgeAuditLog(ctx.database)).toBeGreaterThanOrEqual(1);
    expect((await auditOf(admin.token)).rows.map((row) => row.subject)).toEqual(['Network table (CSV)']);
  });
});
