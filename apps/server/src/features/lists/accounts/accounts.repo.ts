import type { TAccount, TAccountUser } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';

// Accounts (target companies) and who is assigned to them.

type AccountRow = {
  id: string;
  name: string;
  domain: string;
  logo_url: string | null;
  assigned_to: TAccountUser[];
  last_activity: string | Date | null;
};

const toAccount = (row: AccountRow): TAccount => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  avatar: row.logo_url,
  assignedTo: row.assigned_to,
  lastActivity: row.last_activity === null ? null : new Date(row.last_activity).toISOString(),
});

const userName = sql`trim(u.first_name || ' ' || u.last_name)`;

/**
 * The company of the account `a`, by its primary key, once per account (behind 'offset 0'). Joined
 * plainly, the planner hashed all of a workspace's companies (258,000 in the 1M demo, 50 ms) to find the
 * few thousand accounts' ones (15 ms this way).
 */
const companyOfAccount = sql`
  select co.name, co.domain, co.logo_url from companies co
   where co.workspace_id = a.workspace_id and co.id = a.company_id offset 0`;

/**
 * The accounts matching `where` (aliases a, co), ordered and cut by `tail`, with their assignees and
 * last activity (the latest intro or message sent about one of their people). The page is chosen
 * first: assignees and activity are looked up for the rows shown only, never for the whole list.
 */
function selectAccounts(workspaceId: string, where: SQL, tail: SQL) {
  return sql`
    with page as (
      select a.id, a.company_id, a.last_activity_at, a.sort_name, co.name, co.domain, co.logo_url
        from accounts a
        cross join lateral (${companyOfAccount}) co
       where a.workspace_id = ${workspaceId} and ${where}
       ${tail}
    )
    select a.id, a.name, a.domain, a.logo_url,
           coalesce((select json_agg(json_build_object('id', u.id, 'name', ${userName}, 'avatar', u.avatar)
                                     order by ${userName}, u.id)
                       from account_assignees aa
                       join users u on u.workspace_id = aa.workspace_id and u.id = aa.user_id
                      where aa.workspace_id = ${workspaceId} and aa.account_id = a.id), '[]'::json) as assigned_to,
           greatest(a.last_activity_at,
                    (select max(x.acted_at) from people p
                       join actions x on x.workspace_id = p.workspace_id and x.prospect_id = p.id
                      where p.workspace_id = ${workspaceId} and p.company_id = a.company_id
                        and x.status = 'completed')) as last_activity
      from page a
     order by a.sort_name, a.id`;
}

export async function listAccounts(
  tx: Tx,
  workspaceId: string,
  options: { pattern: string | null; page: number; pageSize: number },
) {
  const matches =
    options.pattern === null
      ? sql`true`
      : sql`(co.name ilike ${options.pattern} or co.domain ilike ${options.pattern})`;
  // Without a search, every account counts, and no company is read: an account's company always exists
  // (a merge moves or removes the account before its company goes, graph/company-names.ts).
  const total = await tx.execute<{ n: number }>(
    options.pattern === null
      ? sql`select count(*)::int as n from accounts a where a.workspace_id = ${workspaceId}`
      : sql`select count(*)::int as n from accounts a cross join lateral (${companyOfAccount}) co
             where a.workspace_id = ${workspaceId} and ${matches}`,
  );
  const rows = await tx.execute<AccountRow>(
    selectAccounts(
      workspaceId,
      matches,
      // In the order of accounts_sort_idx: without a search, the page is read from it, its companies only.
      sql`order by a.sort_name, a.id limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}`,
    ),
  );
  return { totalCount: total.rows[0]?.n ?? 0, rows: rows.rows.map(toAccount) };
}

export async function findAccount(tx: Tx, workspaceId: string, id: string): Promise<TAccount | null> {
  const rows = await tx.execute<AccountRow>(selectAccounts(workspaceId, sql`a.id = ${id}`, sql``));
  const row = rows.rows[0];
  return row ? toAccount(row) : null;
}

/** Every user of the workspace, and whether they are assigned to the account. */
export async function accountUsers(tx: Tx, workspaceId: string, accountId: string) {
  const rows = await tx.execute<TAccountUser & { assigned: boolean }>(sql`
    select u.id, ${userName} as name, u.avatar,
           exists (select 1 from account_assignees aa
                    where aa.workspace_id = u.workspace_id and aa.account_id = ${accountId} and aa.user_id = u.id) as assigned
      from users u where u.workspace_id = ${workspaceId}
     order by ${userName}, u.id`);
  return rows.rows;
}

/** How many of these ids are users of the workspace. */
export async function countUsers(tx: Tx, workspaceId: string, userIds: string[]) {
  const rows = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from users
     where workspace_id = ${workspaceId} and id = any(${sql.param(userIds)}::uuid[])`);
  return rows.rows[0]?.n ?? 0;
}

/** Makes the account's assignees exactly these users. */
export async function replaceAssignees(tx: Tx, workspaceId: string, accountId: string, userIds: string[]) {
  await tx.execute(sql`
    delete from account_assignees
     where workspace_id = ${workspaceId} and account_id = ${accountId}
       and user_id <> all(${sql.param(userIds)}::uuid[])`);
  await tx.execute(sql`
    insert into account_assignees (workspace_id, account_id, user_id)
    select ${workspaceId}::uuid, ${accountId}::uuid, id from unnest(${sql.param(userIds)}::uuid[]) as ids(id)
    on conflict do nothing`);
}

/** How many of these ids are the workspace's accounts. */
export async function countAccounts(tx: Tx, workspaceId: string, accountIds: string[]) {
  const rows = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from accounts
     where workspace_id = ${workspaceId} and id = any(${sql.param(accountIds)}::uuid[])`);
  return rows.rows[0]?.n ?? 0;
}

/** Makes the user an assignee of exactly these accounts (and of no other). */
export async function replaceUserAccounts(tx: Tx, workspaceId: string, userId: string, accountIds: string[]) {
  await tx.execute(sql`
    delete from account_assignees
     where workspace_id = ${workspaceId} and user_id = ${userId}
       and account_id <> all(${sql.param(accountIds)}::uuid[])`);
  await tx.execute(sql`
    insert into account_assignees (workspace_id, account_id, user_id)
    select ${workspaceId}::uuid, id, ${userId}::uuid from unnest(${sql.param(accountIds)}::uuid[]) as ids(id)
    on conflict do nothing`);
}

/** Removes an account and its assignments; false when there was none. */
export async function deleteAccount(tx: Tx, workspaceId: string, id: string) {
  await tx.execute(sql`delete from account_assignees where workspace_id = ${workspaceId} and account_id = ${id}`);
  const deleted = await tx.execute(sql`delete from accounts where workspace_id = ${workspaceId} and id = ${id}`);
  return (deleted.rowCount ?? 0) > 0;
}
