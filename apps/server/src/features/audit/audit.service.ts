import type { TAuditPage, TAuditQuery } from '@warmpath/shared';
import { ZAuditQuery } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import type { Member } from '../../plugins/auth.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import { findAuditPage, purgeOldAudit } from './audit.repo.ts';

export type AuditDeps = { database: Database };

/** Admin › Workspace › Audit log: newest first. */
export async function listAuditLog(deps: AuditDeps, member: Member, query: TAuditQuery): Promise<TAuditPage> {
  const { page, pageSize } = ZAuditQuery.parse(query);
  const { rows, totalCount } = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findAuditPage(tx, member.workspaceId, { offset: (page - 1) * pageSize, limit: pageSize }),
  );
  return {
    rows,
    pagination: { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) },
  };
}

/** The nightly job: every workspace's entries older than a year go, each under its own row-level security. */
export async function purgeAuditLog(database: Database): Promise<number> {
  let total = 0;
  for (const workspaceId of await listWorkspaceIds(database)) {
    total += await database.inWorkspace(workspaceId, (tx) => purgeOldAudit(tx));
  }
  return total;
}
