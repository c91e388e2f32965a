import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Calls `url` on `app` until it answers `status`; how long that took, or a failure past `limitMs`. */
async function msUntil(call: () => Promise<{ statusCode: number }>, status: number, limitMs = 2000) {
  const started = performance.now();
  for (;;) {
    if ((await call()).statusCode === status) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`no ${status} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the verified members each process keeps (plugins/session-cache.ts)', () => {
  it('drops a removed member at once here, and in another process as PostgreSQL notifies it', async () => {
    const admin = await ctx.registerAdmin();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    const other = await ctx.appWith();
    try {
      // Both processes know the member now.
      for (const app of [ctx.app, other.app]) {
        expect((await app.inject({ url: '/api/users/query/me', headers: bearer(member.token) })).statusCode).toBe(200);
      }
      const teammates = await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) });
      const memberId = teammates.json<{ id: string; email: string }[]>().find((t) => t.email === member.email)?.id;
      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/users/command/delete/${memberId}`,
        headers: bearer(admin.token),
      });
      expect(removed.statusCode).toBe(204);
      // The process that removed them: the very next request.
      const here = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(member.token) });
      expect(here.json().code).toBe('NOT_REGISTERED');
      // Another process: at the notice, well before the 5 s the cache would keep them otherwise.
      const ms = await msUntil(
        () => other.app.inject({ url: '/api/users/query/me', headers: bearer(member.token) }),
        403,
        1000,
      );
      expect(ms).toBeLessThan(1000);
    } finally {
      await other.app.close();
    }
  });

  it('sees a role changed by anyone (plain SQL, the CLI) in every process', async () => {
    const admin = await ctx.registerAdmin();
    const second = await ctx.addUser(admin.me.workspaceId, 'admin', admin.domain);
    const other = await ctx.appWith();
    try {
      const adminOnly = (app: typeof ctx.app) =>
        app.inject({ url: '/api/integrations/query/webhook', headers: bearer(second.token) });
      expect((await adminOnly(ctx.app)).statusCode).toBe(200);
      expect((await adminOnly(other.app)).statusCode).toBe(200);
      await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
        tx.execute(
          sql`update users set role = 'viewer' where workspace_id = ${admin.me.workspaceId} and email = ${second.email}`,
        ),
      );
      expect(await msUntil(() => adminOnly(ctx.app), 403, 1000)).toBeLessThan(1000);
      expect(await msUntil(() => adminOnly(other.app), 403, 1000)).toBeLessThan(1000);
    } finally {
      await other.app.close();
    }
  });

  it('answers /me from the database every time: a renamed member sees the new name at once', async () => {
    const admin = await ctx.registerAdmin();
    const headers = bearer(admin.token);
    await ctx.app.inject({ url: '/api/users/query/me', headers });
    const renamed = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-me',
      headers,
      payload: { firstName: 'Renamed', lastName: 'Admin' },
    });
    expect(renamed.statusCode).toBe(200);
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers });
    expect(me.json()).toMatchObject({ firstName: 'Renamed', lastName: 'Admin', role: 'admin' });
  });

  it('reads /me in one statement that leaves no workspace on the connection, and only its own workspace', async () => {
    const admin = await ctx.registerAdmin();
    const other = await ctx.registerAdmin();
    const client = await ctx.database.pool.connect();
    try {
      const mine = await client.query('select * from read_me($1, $2)', [admin.me.workspaceId, admin.me.id]);
      expect(mine.rows).toHaveLength(1);
      expect(mine.rows[0]).toMatchObject({ email: admin.email, role: 'admin' });
      // The setting ended with the statement: the next statement on this pooled connection sees no workspace.
      const left = await client.query("select coalesce(current_setting('app.workspace_id', true), '') as ws");
      expect(left.rows[0].ws).toBe('');
      // Another workspace's user through this workspace: row-level security and the filter both refuse.
      const crossed = await client.query('select * from read_me($1, $2)', [admin.me.workspaceId, other.me.id]);
      expect(crossed.rows).toHaveLength(0);
    } finally {
      client.release();
    }
  });
});
