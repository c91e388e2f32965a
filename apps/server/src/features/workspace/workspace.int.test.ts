import { type TWorkspace, VALIDATION } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the workspace’s time zone', () => {
  it('is UTC at first, changes with the update to a zone PostgreSQL knows, and is kept when not sent', async () => {
    const admin = await ctx.registerAdmin();
    const read = async () =>
      (await ctx.app.inject({ url: '/api/workspace/query', headers: bearer(admin.token) })).json<TWorkspace>();
    const update = (extra: object) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/workspace/command/update',
        headers: bearer(admin.token),
        payload: { name: 'Acme', domains: [admin.domain], allowDomainJoin: false, ...extra },
      });
    expect((await read()).timeZone).toBe('UTC');

    const paris = await update({ timeZone: 'Europe/Paris' });
    expect(paris.statusCode).toBe(200);
    expect(paris.json<TWorkspace>().timeZone).toBe('Europe/Paris');
    expect(await read()).toMatchObject({ name: 'Acme', timeZone: 'Europe/Paris' });
    // The daily run's day is the workspace's own.
    const day = await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute<{ same: boolean }>(sql`
        select (now() at time zone time_zone)::date = (now() at time zone 'Europe/Paris')::date as same
          from workspaces where id = ${admin.me.workspaceId}`),
    );
    expect(day.rows[0]?.same).toBe(true);

    expect((await update({ name: 'Acme Europe' })).json<TWorkspace>()).toMatchObject({
      name: 'Acme Europe',
      timeZone: 'Europe/Paris',
    });
  });

  it('knows every zone a browser offers', async () => {
    const offered = Intl.supportedValuesOf('timeZone');
    const known = await ctx.database.db.execute<{ name: string }>(
      sql`select name from pg_timezone_names where name = any(${sql.param(offered)}::text[])`,
    );
    const unknown = new Set(offered);
    for (const row of known.rows) unknown.delete(row.name);
    expect([...unknown]).toEqual([]);
  });

  it('refuses a zone PostgreSQL does not know, changing nothing', async () => {
    const admin = await ctx.registerAdmin();
    const update = (timeZone: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/workspace/command/update',
        headers: bearer(admin.token),
        payload: { name: 'Renamed', domains: [admin.domain], allowDomainJoin: false, timeZone },
      });
    for (const timeZone of ['Mars/Olympus_Mons', '', "UTC'; drop table workspaces; --"]) {
      const refused = await update(timeZone);
      expect(refused.statusCode, timeZone).toBe(400);
      expect(refused.json(), timeZone).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(VALIDATION.unknownTimeZone),
      });
    }
    const workspace = (
      await ctx.app.inject({ url: '/api/workspace/query', headers: bearer(admin.token) })
    ).json<TWorkspace>();
    expect(workspace).toMatchObject({ name: 'Acme', timeZone: 'UTC' });
    // A member may read it, not change it.
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    expect(
      (await ctx.app.inject({ url: '/api/workspace/query', headers: bearer(member.token) })).json<TWorkspace>()
        .timeZone,
    ).toBe('UTC');
    const byMember = await ctx.app.inject({
      method: 'PUT',
      url: '/api/workspace/command/update',
      headers: bearer(member.token),
      payload: { name: 'Acme', domains: [admin.domain], allowDomainJoin: false, timeZone: 'Asia/Tokyo' },
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe('FORBIDDEN');
  });
});
