import type { Role } from '@warmpath/shared';
import {
  ONBOARDING_STEPS,
  type TAdvanceOnboarding,
  type TeammateStatus,
  type TMe,
  type TTeammate,
} from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { queueFirstRecommendations } from '../actions/engine.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import {
  deleteUser,
  findMe,
  findTeammate,
  findTeammates,
  lockAdmins,
  setOnboarding,
  setRole,
  type TeammateRow,
} from '../users/users.repo.ts';
import { findInvite, findPendingInvites, setInvite } from './invitations.repo.ts';

export type TeamDeps = {
  database: Database;
  /**
   * Told after a member's role changed or they were removed, once committed: this process's session
   * cache forgets them before the answer goes (other processes learn it from PostgreSQL's notice).
   */
  memberChanged?: (workspaceId: string, userId: string) => void;
};

/** Activated once onboarding is done; before that, how the person came in. */
export function teammateStatus(row: Pick<TeammateRow, 'hasCompletedOnboarding' | 'joinedVia'>): TeammateStatus {
  if (row.hasCompletedOnboarding) return 'Activated';
  if (row.joinedVia === 'invite') return 'Accepted';
  if (row.joinedVia === 'domain') return 'Joined';
  return 'Activated';
}

function toTeammate(row: TeammateRow): TTeammate {
  return {
    id: row.id,
    fullName: `${row.firstName} ${row.lastName}`.trim() || row.email,
    email: row.email,
    avatar: row.avatar,
    role: row.role,
    status: teammateStatus(row),
    isLinkedinConnected: row.linkedinConnectedAt !== null,
    isGoogleConnected: row.googleConnected,
  };
}

/** A pending invitation as a row of the Users page. */
function invitedTeammate(invite: { id: string; email: string; role: Role }): TTeammate {
  return {
    id: invite.id,
    fullName: invite.email,
    email: invite.email,
    avatar: null,
    role: invite.role,
    status: 'Invited',
    isLinkedinConnected: false,
    isGoogleConnected: false,
  };
}

/** The workspace's users, then its pending invitations (status Invited). */
export async function listTeammates(deps: TeamDeps, member: Member, searchTerm?: string): Promise<TTeammate[]> {
  const [rows, pending] = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    Promise.all([
      findTeammates(tx, member.workspaceId, searchTerm),
      findPendingInvites(tx, member.workspaceId, searchTerm),
    ]),
  );
  return [...rows.map(toTeammate), ...pending.map(invitedTeammate)];
}

/**
 * Role changes and removals by an admin: never on their own row (spec section 6), never leaving the
 * workspace without an admin.
 */
async function changeTeammate(
  deps: TeamDeps,
  member: Member,
  userId: string,
  change: { role: Role } | 'remove',
): Promise<TTeammate | null> {
  if (userId === member.userId) throw new AppError('FORBIDDEN', 'You cannot change your own account here');
  const changed = await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const admins = await lockAdmins(tx, member.workspaceId);
    const target = await findTeammate(tx, member.workspaceId, userId);
    if (!target) return changeInvitation(tx, member.workspaceId, userId, change);
    const losesAdmin = target.role === 'admin' && (change === 'remove' || change.role !== 'admin');
    if (losesAdmin && admins.length <= 1) {
      throw new AppError('LAST_ADMIN', 'A workspace needs at least one admin');
    }
    if (change === 'remove') {
      await recordAudit(tx, member.workspaceId, {
        actorUserId: member.userId,
        action: 'member.removed',
        subject: target.email,
        details: { role: target.role },
      });
      await deleteUser(tx, member.workspaceId, userId);
      return null;
    }
    await setRole(tx, member.workspaceId, userId, change.role);
    return toTeammate({ ...target, role: change.role });
  });
  deps.memberChanged?.(member.workspaceId, userId);
  return changed;
}

/** Role changes and removals on a pending invitation (removal revokes it). */
async function changeInvitation(tx: Tx, workspaceId: string, inviteId: string, change: { role: Role } | 'remove') {
  const invite = await findInvite(tx, workspaceId, inviteId);
  const changed =
    invite !== null &&
    (await setInvite(tx, workspaceId, inviteId, change === 'remove' ? { status: 'revoked' } : { role: change.role }));
  if (!invite || !changed) throw new AppError('NOT_FOUND', 'Teammate not found');
  return change === 'remove' ? null : invitedTeammate({ ...invite, role: change.role });
}

export async function changeRole(deps: TeamDeps, member: Member, userId: string, role: Role): Promise<TTeammate> {
  const teammate = await changeTeammate(deps, member, userId, { role });
  if (!teammate) throw new AppError('NOT_FOUND', 'Teammate not found');
  return teammate;
}

export async function removeTeammate(deps: TeamDeps, member: Member, userId: string): Promise<void> {
  await changeTeammate(deps, member, userId, 'remove');
}

/** Onboarding only moves forward; COMPLETED also marks the last step done. */
/**
 * Finishing onboarding starts the user's first recommendations: at once when their data is already in
 * the network, else as the graph job rolls it in (not at the next morning's run).
 */
export async function advanceOnboarding(
  deps: TeamDeps & { jobs: Pick<JobQueue, 'enqueueFirstRecommendations' | 'enqueueGraphRecompute'> },
  member: Member,
  { step }: TAdvanceOnboarding,
): Promise<TMe> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const me = await findMe(tx, member.workspaceId, member.userId);
    if (!me) throw new AppError('NOT_FOUND', 'Failed to fetch user');
    const target = step === 'COMPLETED' ? 'ACCOUNTS_IMPORT_DONE' : step;
    const onboardingStep =
      ONBOARDING_STEPS.indexOf(target) > ONBOARDING_STEPS.indexOf(me.onboardingStep) ? target : me.onboardingStep;
    const completing = step === 'COMPLETED' && !me.hasCompletedOnboarding;
    const hasCompletedOnboarding = me.hasCompletedOnboarding || completing;
    // A morning run during onboarding saw only part of the user's data: their first run comes after it.
    const firstRun = completing ? { recommendationsRanOn: null } : {};
    await setOnboarding(tx, member.workspaceId, member.userId, { onboardingStep, hasCompletedOnboarding, ...firstRun });
    if (completing) await queueFirstRecommendations(tx, deps.jobs, member.workspaceId, [member.userId]);
    return { ...me, onboardingStep, hasCompletedOnboarding };
  });
}
