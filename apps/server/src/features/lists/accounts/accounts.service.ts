import type { TAccount, TAccountsPage, TAssignableAccountUsers, TListParams } from '@warmpath/shared';
import type { Database } from '../../../db/client.ts';
import { AppError } from '../../../lib/app-error.ts';
import { containsPattern } from '../../../lib/like-pattern.ts';
import type { Member } from '../../../plugins/auth.ts';
import {
  accountUsers,
  countAccounts,
  countUsers,
  deleteAccount,
  findAccount,
  listAccounts,
  replaceAssignees,
  replaceUserAccounts,
} from './accounts.repo.ts';

export type AccountsDeps = { database: Database };

export async function queryAccounts(deps: AccountsDeps, member: Member, query: TListParams): Promise<TAccountsPage> {
  const { page, pageSize } = query;
  const { rows, totalCount } = await deps.database.readInWorkspace(member.workspaceId, (tx) =>
    listAccounts(tx, member.workspaceId, { pattern: containsPattern(query.searchTerm), page, pageSize }),
  );
  return {
    rows,
    pagination: { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) },
  };
}

const notFound = () => new AppError('NOT_FOUND', 'Account not found');

export async function assignableUsers(
  deps: AccountsDeps,
  member: Member,
  id: string,
): Promise<TAssignableAccountUsers> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    if (!(await findAccount(tx, member.workspaceId, id))) throw notFound();
    const users = await accountUsers(tx, member.workspaceId, id);
    const card = ({ id: userId, name, avatar }: (typeof users)[number]) => ({ id: userId, name, avatar });
    return {
      assignedTo: users.filter((user) => user.assigned).map(card),
      assignable: users.filter((user) => !user.assigned).map(card),
    };
  });
}

export async function updateAssignees(
  deps: AccountsDeps,
  member: Member,
  id: string,
  assigneeIds: string[],
): Promise<TAccount> {
  const ids = [...new Set(assigneeIds)];
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    if (!(await findAccount(tx, member.workspaceId, id))) throw notFound();
    if ((await countUsers(tx, member.workspaceId, ids)) !== ids.length) {
      throw new AppError('VALIDATION_FAILED', 'Only users of the workspace can be assigned');
    }
    await replaceAssignees(tx, member.workspaceId, id, ids);
    const account = await findAccount(tx, member.workspaceId, id);
    if (!account) throw notFound();
    return account;
  });
}

/** 'My accounts': the caller works exactly these accounts, which drive the network's My accounts filter. */
export async function setMyAccounts(deps: AccountsDeps, member: Member, accountIds: string[]) {
  const ids = [...new Set(accountIds)];
  await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    if ((await countAccounts(tx, member.workspaceId, ids)) !== ids.length) {
      throw new AppError('VALIDATION_FAILED', 'Only accounts of the workspace can be yours');
    }
    await replaceUserAccounts(tx, member.workspaceId, member.userId, ids);
  });
  return { accountIds: ids };
}

export async function removeAccount(deps: AccountsDeps, member: Member, id: string) {
  const deleted = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    deleteAccount(tx, member.workspaceId, id),
  );
  if (!deleted) throw notFound();
}
