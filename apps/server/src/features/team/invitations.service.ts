import type { TAcceptInvitation, TInviteInfo, TInviteTeammatesRequest, TMe, TTargetingScheme } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import type { EventsDeps } from '../../events/record.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Caller, Member } from '../../plugins/auth.ts';
import { findTargetingScheme } from '../targeting/targeting.repo.ts';
import { findIdentity, findMe, insertUser } from '../users/users.repo.ts';
import { recordTeammateJoined } from '../users/users.service.ts';
import {
  emailsOfUsers,
  findInvitationContext,
  findInvite,
  findWorkspaceOfInvite,
  setInvite,
  upsertPendingInvite,
} from './invitations.repo.ts';

export type InvitationsDeps = { database: Database } & EventsDeps;

export function invitationLink(publicUrl: string, inviteId: string) {
  return `${publicUrl}/sign-up/register-invite/${inviteId}`;
}

/**
 * Invites teammates: one pending invitation per address, and its e-mail from the admin's Google
 * account, queued in the same transaction (no invitation without its e-mail, nor the reverse).
 */
export async function inviteTeammates(deps: InvitationsDeps, member: Member, request: TInviteTeammatesRequest) {
  const byEmail = new Map(request.teammates.map((teammate) => [teammate.email, teammate.role]));
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const existing = await emailsOfUsers(tx, member.workspaceId, [...byEmail.keys()]);
    if (existing.length > 0) {
      throw new AppError('ALREADY_EXISTS', `${existing.join(', ')} already belong to the workspace`);
    }
    const context = await findInvitationContext(tx, member.workspaceId);
    const inviter = await findMe(tx, member.workspaceId, member.userId);
    const inviterName = inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() : 'A colleague';
    const workspaceName = context.workspace?.name ?? 'their workspace';
    const invited = [];
    for (const [email, role] of byEmail) {
      const id = await upsertPendingInvite(tx, {
        workspaceId: member.workspaceId,
        email,
        role,
        invitedByUserId: member.userId,
      });
      await deps.events.sendEmail(tx, member, {
        purpose: 'invitation',
        to: [email],
        subject: `${inviterName} invited you to join ${workspaceName} on Warmpath`,
        text: [
          'Hello,',
          '',
          `${inviterName} invited you to join ${workspaceName} on Warmpath, where your team finds warm introductions to the people it wants to meet.`,
          '',
          `Accept the invitation: ${invitationLink(deps.publicUrl, id)}`,
          '',
          'The link is valid for 14 days.',
        ].join('\n'),
      });
      invited.push({ id, email, role });
    }
    return { invited };
  });
}

async function loadInvite(deps: InvitationsDeps, inviteId: string) {
  const workspaceId = await findWorkspaceOfInvite(deps.database.db, inviteId);
  if (!workspaceId) throw new AppError('NOT_FOUND', 'This invitation does not exist. Ask your admin for a new one.');
  const invite = await deps.database.inWorkspace(workspaceId, (tx) => findInvite(tx, workspaceId, inviteId));
  if (!invite) throw new AppError('NOT_FOUND', 'This invitation does not exist. Ask your admin for a new one.');
  const expired = invite.status === 'pending' && invite.expiresAt.getTime() <= Date.now();
  return { workspaceId, invite, status: expired ? ('expired' as const) : invite.status };
}

export async function getInvitation(deps: InvitationsDeps, caller: Caller, inviteId: string): Promise<TInviteInfo> {
  const { workspaceId, invite, status } = await loadInvite(deps, inviteId);
  // The workspace and its members are shown to the invited address only, not to whoever holds the link.
  assertInvitedAccount(caller, invite.email);
  const context = await deps.database.inWorkspace(workspaceId, (tx) => findInvitationContext(tx, workspaceId));
  return {
    inviteId,
    email: invite.email,
    role: invite.role,
    firstName: '',
    lastName: '',
    workspaceName: context.workspace?.name ?? '',
    workspaceLogo: context.workspace?.logoUrl ?? null,
    members: context.members.map((m) => ({ name: `${m.firstName} ${m.lastName}`.trim(), avatar: m.avatar })),
    status,
  };
}

function assertInvitedAccount(caller: Caller, invitedEmail: string) {
  if (caller.email !== invitedEmail) {
    throw new AppError('WRONG_ACCOUNT', `This invitation is for ${invitedEmail}. Sign in with that address.`);
  }
}

/** The invitee becomes a user with the invitation's role; the invitation can be used once. */
export async function acceptInvitation(
  deps: InvitationsDeps,
  caller: Caller,
  request: TAcceptInvitation,
): Promise<TMe> {
  const { workspaceId, invite, status } = await loadInvite(deps, request.inviteId);
  if (status === 'expired')
    throw new AppError('INVITATION_EXPIRED', 'This invitation has expired. Ask your admin for a new one.');
  if (status !== 'pending') throw new AppError('INVITATION_USED', 'This invitation has already been used.');
  assertInvitedAccount(caller, invite.email);
  if (await findIdentity(deps.database, caller.subject)) {
    throw new AppError('ALREADY_REGISTERED', 'This account already belongs to a workspace');
  }
  return deps.database.inWorkspace(workspaceId, async (tx) => {
    const userId = await insertUser(tx, {
      workspaceId,
      idpSubject: caller.subject,
      firstName: request.firstName,
      lastName: request.lastName,
      email: invite.email,
      role: invite.role,
      joinedVia: 'invite',
    });
    // The status check in setInvite makes a concurrent second acceptance fail and roll back.
    if (!(await setInvite(tx, workspaceId, invite.id, { status: 'accepted', acceptedUserId: userId }))) {
      throw new AppError('INVITATION_USED', 'This invitation has already been used.');
    }
    await recordTeammateJoined(deps.events, tx, workspaceId, userId, invite.role, 'invite');
    const me = await findMe(tx, workspaceId, userId);
    if (!me) throw new Error('the new user cannot be read back');
    return me;
  });
}

/** The inviting admin's targeting scheme, which pre-fills the invitee's (spec section 4). */
export async function adminTargetingScheme(
  deps: InvitationsDeps,
  member: Member,
  inviteId: string,
): Promise<TTargetingScheme | null> {
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const invite = await findInvite(tx, member.workspaceId, inviteId);
    if (!invite) throw new AppError('NOT_FOUND', 'This invitation does not exist');
    return findTargetingScheme(tx, member.workspaceId, invite.invitedByUserId);
  });
}
