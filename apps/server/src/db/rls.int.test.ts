import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { APP_ROLE } from './client.ts';
import { NON_TENANT_TABLES } from './tenancy-tables.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('row-level security, the second wall', () => {
  it('runs every query of the product as a role that owns no table and cannot bypass policies', async () => {
    const { rows } = await ctx.database.pool.query<{ current_user: string; rolbypassrls: boolean; owned: string }>(
      `select current_user, r.rolbypassrls,
              (select count(*) from pg_tables where schemaname = 'public' and tableowner = current_user)::text as owned
         from pg_roles r where r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({ current_user: APP_ROLE, rolbypassrls: false, owned: '0' });
  });

  it('enables and forces a tenant policy on every table that has a workspace_id', async () => {
    const { rows } = await ctx.database.pool.query<{ table_name: string; protected: boolean }>(
      `select c.relname as table_name,
              (c.relrowsecurity and c.relforcerowsecurity
               and exists (select 1 from pg_policies p where p.tablename = c.relname and p.policyname = 'tenant_isolation'))
              as protected
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and (exists (select 1 from information_schema.columns col
                        where col.table_schema = 'public' and col.table_name = c.relname
                          and col.column_name = 'workspace_id')
               or c.relname = 'workspaces')
          and c.relname <> all($1::text[])`,
      [Object.keys(NON_TENANT_TABLES)],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((row) => !row.protected)).toEqual([]);
  });

  it("hides other workspaces' rows and refuses writes into them, even when the code asks", async () => {
    const first = await ctx.registerAdmin();
    const second = await ctx.registerAdmin();

    const withoutContext = await ctx.database.pool.query('select id from users where workspace_id = $1', [
      second.me.workspaceId,
    ]);
    expect(withoutContext.rowCount).toBe(0);

    const seen = await ctx.database.inWorkspace(first.me.workspaceId, (tx) =>
      tx.execute(
        `select email from users where workspace_id in ('${first.me.workspaceId}', '${second.me.workspaceId}')`,
      ),
    );
    expect(seen.rows).toEqual([{ email: first.email }]);

    await expect(
      ctx.database.inWorkspace(first.me.workspaceId, (tx) =>
        tx.execute(
          `insert into users (workspace_id, idp_subject, first_name, last_name, email, role)
           values ('${second.me.workspaceId}', 'intruder', 'I', 'N', 'intruder@x.test', 'admin')`,
        ),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/row-level security/) } });
  });
});
