import type { TCrmClientsPage, TListParams } from '@warmpath/shared';
import { containsPattern } from '../../../lib/like-pattern.ts';
import type { Member } from '../../../plugins/auth.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { listCrmClients } from './crm-clients.repo.ts';

export async function queryCrmClients(deps: ImportDeps, member: Member, query: TListParams): Promise<TCrmClientsPage> {
  const { page, pageSize } = query;
  const { rows, totalCount } = await deps.database.readInWorkspace(member.workspaceId, (tx) =>
    listCrmClients(tx, member.workspaceId, { pattern: containsPattern(query.searchTerm), page, pageSize }),
  );
  return {
    rows,
    pagination: { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) },
  };
}
