import {
  INVITE_EMAIL_PATTERN,
  MESSAGES,
  type Role,
  type TInviteTeammatesRequest,
  type TSuggestion,
  VALIDATION,
} from '@warmpath/shared';

/** Spec section 3, Invitee: someone added to the invite form, not invited yet. */
export type Invitee = { email: string; role: Role };

/** The role picker's order (spec section 2); Member is the default. */
export const INVITE_ROLES: readonly Role[] = ['member', 'admin', 'viewer'];
export const DEFAULT_INVITE_ROLE: Role = 'member';

export type AddInviteeResult = { invitees: readonly Invitee[]; error: string | null };

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Adds a typed e-mail with a role (spec section 5): it must look like text@text.text without spaces
 * ('Invalid email address!'); one already in the list is ignored; nothing typed does nothing.
 */
export function addInvitee(invitees: readonly Invitee[], typed: string, role: Role): AddInviteeResult {
  const email = typed.trim().toLowerCase();
  if (email === '') return { invitees, error: null };
  if (!INVITE_EMAIL_PATTERN.test(email)) return { invitees, error: VALIDATION.inviteEmailInvalid };
  if (invitees.some((invitee) => invitee.email === email)) return { invitees, error: null };
  return { invitees: [...invitees, { email, role }], error: null };
}

/** 'Invite' for one invitee (the button is disabled with none), 'Invite n' for several. */
export function inviteButtonLabel(count: number): string {
  return count > 1 ? `Invite ${count}` : 'Invite';
}

export function inviteSuccessMessage(count: number): string {
  return count > 1 ? MESSAGES.usersInvited : MESSAGES.userInvited;
}

/** The suggestions still to offer: each e-mail once, none already in the list. */
export function remainingSuggestions(suggestions: readonly TSuggestion[], invitees: readonly Invitee[]): TSuggestion[] {
  const remaining: TSuggestion[] = [];
  for (const suggestion of suggestions) {
    const taken = [...invitees.map((invitee) => invitee.email), ...remaining.map((kept) => kept.email)];
    if (!taken.some((email) => sameEmail(email, suggestion.email))) remaining.push(suggestion);
  }
  return remaining;
}

/** The invite call's body: roles lower-case, as they are kept. */
export function toInviteRequest(invitees: readonly Invitee[]): TInviteTeammatesRequest {
  return { teammates: invitees.map(({ email, role }) => ({ email, role })) };
}
