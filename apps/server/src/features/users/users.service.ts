import { randomUUID } from 'node:crypto';
import {
  MESSAGES,
  type Role,
  type TCheckDomainResponse,
  type TMe,
  type TRegistration,
  type TUpdateMe,
} from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../events/record.ts';
import { eventUser } from '../../events/subjects.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import { emailDomain, isFreeEmailDomain } from '../../lib/free-email-domains.ts';
import type { Caller, Member } from '../../plugins/auth.ts';
import {
  findDomainOwners,
  findIdentity,
  findJoinableWorkspace,
  insertUser,
  insertWorkspace,
  readMe,
  updateUserNames,
} from './users.repo.ts';

export type UsersDeps = {
  database: Database;
  workspaceDomainAllowlist: string[];
  events: EventRecorder;
  /** Finishing onboarding queues the user's first recommendations. */
  jobs: Pick<JobQueue, 'enqueueFirstRecommendations' | 'enqueueGraphRecompute'>;
  /** After a role change or a removal (features/team/team.service.ts). */
  memberChanged?: (workspaceId: string, userId: string) => void;
};

/**
 * A domain may name a workspace when it is not a free mailbox provider, and it is either the
 * registering person's own e-mail domain (their identity provider vouched for it) or on the
 * operator's allow-list.
 */
export function nonWhitelistedDomains(domains: string[], email: string, allowlist: string[]) {
  const own = emailDomain(email);
  return domains.filter((domain) => isFreeEmailDomain(domain) || (domain !== own && !allowlist.includes(domain)));
}

export async function getMe(deps: UsersDeps, member: Member): Promise<TMe> {
  const me = await readMe(deps.database, member.workspaceId, member.userId);
  if (!me) throw new AppError('NOT_FOUND', 'Failed to fetch user');
  return me;
}

export async function updateMe(deps: UsersDeps, member: Member, names: TUpdateMe): Promise<TMe> {
  await deps.database.inWorkspace(member.workspaceId, (tx) =>
    updateUserNames(tx, member.workspaceId, member.userId, names),
  );
  return getMe(deps, member);
}

/** Refuses an e-mail in a request body that differs from the one the identity provider asserted. */
function assertOwnEmail(caller: Caller, email: string) {
  if (caller.email && caller.email !== email.toLowerCase()) {
    throw new AppError('WRONG_ACCOUNT', 'The e-mail does not match the signed-in account');
  }
}

export async function checkDomain(
  deps: UsersDeps,
  options: { caller: Caller; email: string },
): Promise<TCheckDomainResponse> {
  assertOwnEmail(options.caller, options.email);
  const domain = emailDomain(options.email);
  const isWhitelisted = nonWhitelistedDomains([domain], options.email, deps.workspaceDomainAllowlist).length === 0;
  const joinableWorkspace = isWhitelisted ? await findJoinableWorkspace(deps.database, domain) : null;
  return { domain, isWhitelisted, joinableWorkspace };
}

async function joinWorkspace(deps: UsersDeps, caller: Caller, registration: TRegistration, workspaceId: string) {
  const userId = await deps.database.inWorkspace(workspaceId, async (tx) => {
    const joined = await insertUser(tx, {
      workspaceId,
      idpSubject: caller.subject,
      firstName: registration.firstName,
      lastName: registration.lastName,
      email: registration.email.toLowerCase(),
      role: 'member',
      joinedVia: 'domain',
    });
    await recordTeammateJoined(deps.events, tx, workspaceId, joined, 'member', 'domain');
    return joined;
  });
  return getMe(deps, { ...caller, workspaceId, userId, role: 'member' });
}

export async function createWorkspaceAdmin(
  deps: UsersDeps,
  options: { caller: Caller; registration: TRegistration },
): Promise<TMe> {
  const { caller, registration } = options;
  if (registration.idpId !== caller.subject) {
    throw new AppError('WRONG_ACCOUNT', 'The identity does not match the signed-in account');
  }
  assertOwnEmail(caller, registration.email);
  if (await findIdentity(deps.database, caller.subject)) {
    throw new AppError('ALREADY_REGISTERED', 'This account is already registered');
  }
  // 'Allow anyone with domain name to join Workspace': a colleague joins it instead of creating one.
  const joinable = await findJoinableWorkspace(deps.database, emailDomain(registration.email));
  if (joinable) return joinWorkspace(deps, caller, registration, joinable.id);

  const domains = [...new Set(registration.workspaceDomains)];
  const refused = nonWhitelistedDomains(domains, registration.email, deps.workspaceDomainAllowlist);
  if (refused.length > 0) {
    throw new AppError('DOMAIN_NOT_WHITELISTED', `${MESSAGES.domainsNotWhitelisted}: ${refused.join(', ')}`);
  }
  const taken = await findDomainOwners(deps.database.db, domains);
  if (taken.length > 0) {
    throw new AppError(
      'DOMAIN_TAKEN',
      `These domains already belong to a workspace: ${taken.map((row) => row.domain).join(', ')}. Ask its admin for an invitation.`,
    );
  }

  const workspaceId = randomUUID();
  const userId = await deps.database.inWorkspace(workspaceId, async (tx) => {
    await insertWorkspace(tx, {
      id: workspaceId,
      name: registration.workspaceName,
      domains,
      allowDomainJoin: registration.allowDomainJoin,
    });
    // A new workspace has no destination yet: nothing is recorded, and nothing is owed.
    return insertUser(tx, {
      workspaceId,
      idpSubject: caller.subject,
      firstName: registration.firstName,
      lastName: registration.lastName,
      email: registration.email.toLowerCase(),
      role: 'admin',
    });
  });
  return getMe(deps, { ...caller, workspaceId, userId, role: 'admin' });
}

/** `teammate.joined`: whoever joins a workspace, by an invitation or by its domain. */
export function recordTeammateJoined(
  events: EventRecorder,
  tx: Tx,
  workspaceId: string,
  userId: string,
  role: Role,
  via: 'invite' | 'domain',
) {
  return events.record(tx, workspaceId, 'teammate.joined', async () => ({
    user: await eventUser(tx, workspaceId, userId),
    role,
    via,
  }));
}
