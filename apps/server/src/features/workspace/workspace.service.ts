import { MESSAGES, type TWorkspace, type TWorkspaceUpdate, VALIDATION } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { findDomainOwners } from '../users/users.repo.ts';
import { nonWhitelistedDomains } from '../users/users.service.ts';
import { findWorkspace, isKnownTimeZone, updateWorkspace } from './workspace.repo.ts';

export type WorkspaceDeps = {
  database: Database;
  workspaceDomainAllowlist: string[];
  /** Keeps the HubSpot lists the CRM clients page chose (hubspot.service.ts's `chooseHubspotLists`). */
  chooseHubspotLists: (member: Member, lists: { customers?: string[]; exclusions?: string[] }) => Promise<void>;
};

export async function getWorkspace(deps: WorkspaceDeps, member: Member): Promise<TWorkspace> {
  const workspace = await deps.database.inWorkspace(member.workspaceId, (tx) => findWorkspace(tx, member.workspaceId));
  if (!workspace) throw new AppError('NOT_FOUND', 'Failed to fetch my workspace');
  return workspace;
}

/**
 * Domains already on the workspace stay; a new one follows the sign-up rule (never a free mailbox,
 * the admin's own domain or the allow-list) and must not belong to another workspace, because with
 * 'Allow anyone with domain name to join Workspace' a domain is a key to the workspace.
 */
export async function changeWorkspace(
  deps: WorkspaceDeps,
  member: Member,
  update: TWorkspaceUpdate,
): Promise<TWorkspace> {
  const current = await getWorkspace(deps, member);
  const domains = [...new Set(update.domains)];
  const added = domains.filter((domain) => !current.domains.includes(domain));
  const refused = nonWhitelistedDomains(added, member.email ?? '', deps.workspaceDomainAllowlist);
  if (refused.length > 0)
    throw new AppError('DOMAIN_NOT_WHITELISTED', `${MESSAGES.domainsNotWhitelisted}: ${refused.join(', ')}`);
  const taken = (await findDomainOwners(deps.database.db, added)).filter(
    (owner) => owner.workspaceId !== member.workspaceId,
  );
  if (taken.length > 0) {
    throw new AppError(
      'DOMAIN_TAKEN',
      `These domains already belong to another workspace: ${taken.map((row) => row.domain).join(', ')}`,
    );
  }
  await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    // The daily run's day and hour are computed in this zone: only one PostgreSQL knows is kept.
    if (update.timeZone !== undefined && update.timeZone !== current.timeZone) {
      if (!(await isKnownTimeZone(tx, update.timeZone)))
        throw new AppError('VALIDATION_FAILED', VALIDATION.unknownTimeZone);
    }
    await updateWorkspace(tx, member.workspaceId, { ...update, domains });
  });
  // The web app sends the whole object: lists it sends back unchanged (the Workspace page) change nothing.
  const changed = (next: string[] | undefined, before: string[]) =>
    next && [...new Set(next)].sort().join() !== [...before].sort().join() ? next : undefined;
  const customers = changed(update.activeCrmClientExclusionLists, current.activeCrmClientExclusionLists);
  const exclusions = changed(update.selectedHubspotExclusionLists, current.selectedHubspotExclusionLists);
  if (customers || exclusions)
    await deps.chooseHubspotLists(member, {
      ...(customers ? { customers } : {}),
      ...(exclusions ? { exclusions } : {}),
    });
  return getWorkspace(deps, member);
}
