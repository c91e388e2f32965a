import type { TContactsPage, TMe } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const inDemo = { 'x-warmpath-workspace': 'demo' };

const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, demo = false) =>
  ctx.app.inject({
    method,
    url,
    headers: { ...bearer(token), ...(demo ? inDemo : {}) },
    ...(method === 'POST' && url.startsWith('/api/contacts') ? { payload: {} } : {}),
  });

const networkSize = async (token: string, demo: boolean) =>
  (await call(token, 'POST', '/api/contacts/query?page=1&pageSize=10', demo)).json<TContactsPage>().pagination
    .totalCount;

describe('the demo workspace', { timeout: 60_000 }, () => {
  it('is opened by a member, apart from their workspace, and acted in as its admin with the header', async () => {
    const admin = await ctx.registerAdmin();
    const viewer = await ctx.addUser(admin.me.workspaceId, 'viewer', admin.domain);
    expect((await call(viewer.token, 'GET', '/api/demo/query')).json()).toEqual({ status: 'none' });

    const opened = await call(viewer.token, 'POST', '/api/demo/command/open');
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ status: 'ready' });
    // Opening again changes nothing.
    expect((await call(viewer.token, 'POST', '/api/demo/command/open')).json()).toEqual({ status: 'ready' });

    const demoMe = (await call(viewer.token, 'GET', '/api/users/query/me', true)).json<TMe>();
    expect(demoMe).toMatchObject({ role: 'admin', email: viewer.email, hasCompletedOnboarding: true });
    expect(demoMe.workspaceId).not.toBe(admin.me.workspaceId);
    expect(await networkSize(viewer.token, true)).toBeGreaterThan(1000);

    // Their own workspace is untouched, and they are still a viewer there.
    const ownMe = (await call(viewer.token, 'GET', '/api/users/query/me')).json<TMe>();
    expect(ownMe).toMatchObject({ role: 'viewer', workspaceId: admin.me.workspaceId });
    expect(await networkSize(viewer.token, false)).toBe(0);
    expect(await networkSize(admin.token, false)).toBe(0);

    // The demo owns no domain: nobody joins it, it blocks no sign-up.
    const { rows } = await ctx.database.inWorkspace(demoMe.workspaceId, (tx) =>
      tx.execute(sql`select domains, name from workspaces where id = ${demoMe.workspaceId}`),
    );
    expect(rows[0]).toMatchObject({ domains: [], name: expect.stringMatching(/\(demo\)$/) });
  });

  it('is nobody else’s: a teammate with the header has none, and a removed demo is gone for good', async () => {
    const admin = await ctx.registerAdmin();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    await call(admin.token, 'POST', '/api/demo/command/open');
    const demoWorkspace = (await call(admin.token, 'GET', '/api/users/query/me', true)).json<TMe>().workspaceId;

    const teammate = await call(member.token, 'GET', '/api/users/query/me', true);
    expect(teammate.statusCode).toBe(404);
    expect(teammate.json().message).toBe('Your demo workspace no longer exists');

    // Removed from inside the demo itself, in one call.
    expect((await call(admin.token, 'DELETE', '/api/demo/command/remove', true)).statusCode).toBe(204);
    expect((await call(admin.token, 'GET', '/api/users/query/me', true)).statusCode).toBe(404);
    expect((await call(admin.token, 'GET', '/api/demo/query')).json()).toEqual({ status: 'none' });
    expect((await call(admin.token, 'DELETE', '/api/demo/command/remove')).statusCode).toBe(404);
    const left = await ctx.database.inWorkspace(demoWorkspace, (tx) =>
      tx.execute(sql`select (select count(*) from people)::int as people, (select count(*) from users)::int as users`),
    );
    expect(left.rows[0]).toEqual({ people: 0, users: 0 });
    expect((await call(admin.token, 'GET', '/api/users/query/me')).json<TMe>().workspaceId).toBe(admin.me.workspaceId);
  });
});
