import { z } from 'zod';
import { TEAMMATE_STATUSES } from '../enums.ts';
import { VALIDATION } from '../messages.ts';
import { ZRole } from './users.ts';

/** Spec section 3, Teammate: a row of the Users page. */
export const ZTeammate = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role: ZRole,
  status: z.enum(TEAMMATE_STATUSES),
  isLinkedinConnected: z.boolean(),
  isGoogleConnected: z.boolean(),
});
export type TTeammate = z.infer<typeof ZTeammate>;

export const ZSearchQuery = z.object({ searchTerm: z.string().trim().max(200).optional() });

/** `PUT /users/command/change-role/{id}`: the users screen sends the e-mail too. */
export const ZChangeRole = z.object({ role: ZRole, email: z.string().optional() });
export type TChangeRole = z.infer<typeof ZChangeRole>;

/** Spec section 5: an invite e-mail is text, an at sign, text, a dot, text, without spaces. */
export const INVITE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One teammate to invite: the e-mail and the role, lower-case (spec section 6). */
export const ZInviteTeammate = z.object({
  email: z.string().trim().toLowerCase().regex(INVITE_EMAIL_PATTERN, VALIDATION.inviteEmailInvalid),
  role: ZRole,
});
export type TInviteTeammate = z.infer<typeof ZInviteTeammate>;

/** `POST /teammates/invite`. */
export const ZInviteTeammatesRequest = z.object({ teammates: z.array(ZInviteTeammate).min(1) });
export type TInviteTeammatesRequest = z.input<typeof ZInviteTeammatesRequest>;

/** Spec section 3, Invitee, as the server created it; its id is the invitation's. */
export const ZInvitedTeammate = z.object({ id: z.uuid(), email: z.string(), role: ZRole });
export const ZInviteTeammatesResponse = z.object({ invited: z.array(ZInvitedTeammate) });
export type TInviteTeammatesResponse = z.infer<typeof ZInviteTeammatesResponse>;

export const INVITE_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/**
 * `GET /teammates/query/invited-user-teammates/{inviteId}`: spec section 3, Invited user and Invite
 * info, for the invitee's registration screen.
 */
export const ZInviteInfo = z.object({
  inviteId: z.uuid(),
  email: z.string(),
  role: ZRole,
  firstName: z.string(),
  lastName: z.string(),
  workspaceName: z.string(),
  workspaceLogo: z.string().nullable(),
  members: z.array(z.object({ name: z.string(), avatar: z.string().nullable() })),
  status: z.enum(INVITE_STATUSES),
});
export type TInviteInfo = z.infer<typeof ZInviteInfo>;

/** `POST /teammates/accept-invitation`; answers with the new user (TMe). Spec section 5: names required. */
export const ZAcceptInvitation = z.object({
  firstName: z.string().trim().min(1, VALIDATION.firstNameRequired).max(100),
  lastName: z.string().trim().min(1, VALIDATION.lastNameRequired).max(100),
  inviteId: z.uuid(),
});
export type TAcceptInvitation = z.infer<typeof ZAcceptInvitation>;

/** `GET /users/query/admin-targeting-schemes?inviteId=`: answers with the inviting admin's scheme or null. */
export const ZAdminTargetingSchemesQuery = z.object({ inviteId: z.uuid() });
