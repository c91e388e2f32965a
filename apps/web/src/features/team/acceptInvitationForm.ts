import { type InviteStatus, type TInviteInfo, ZAcceptInvitation } from '@warmpath/shared';
import { z } from 'zod';
import { ZTermsAccepted } from '../onboarding/terms.ts';

/** The invitee's acceptance (spec section 5): terms, first name and last name, with Create account's messages. */
export const ZAcceptInvitationForm = z.object({
  firstName: ZAcceptInvitation.shape.firstName,
  lastName: ZAcceptInvitation.shape.lastName,
  termsAccepted: ZTermsAccepted,
});
export type TAcceptInvitationFormInput = z.input<typeof ZAcceptInvitationForm>;
export type TAcceptInvitationForm = z.output<typeof ZAcceptInvitationForm>;

/** What the ID token tells about the person signing in. */
export type InviteeProfile = { given_name?: string; family_name?: string };

/** The names the admin typed in the invitation, else those of the ID token. */
export function acceptInvitationDefaults(
  info: Pick<TInviteInfo, 'firstName' | 'lastName'>,
  profile: InviteeProfile | undefined,
): TAcceptInvitationFormInput {
  return {
    firstName: info.firstName.trim() || profile?.given_name || '',
    lastName: info.lastName.trim() || profile?.family_name || '',
    termsAccepted: false,
  };
}

/** Why an invitation the server still knows cannot be accepted; null while it can. */
export function closedInvitationMessage(status: InviteStatus): string | null {
  switch (status) {
    case 'pending':
      return null;
    case 'accepted':
      return 'This invitation has already been used.';
    case 'expired':
      return 'This invitation has expired. Ask an admin of the workspace to invite you again.';
    case 'revoked':
      return 'This invitation was withdrawn. Ask an admin of the workspace to invite you again.';
  }
}
