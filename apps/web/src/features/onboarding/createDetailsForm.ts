import { ZRegistration } from '@warmpath/shared';
import { z } from 'zod';
import type { RegistrationInput } from '../users/api.ts';
import { ZTermsAccepted } from './terms.ts';

/** The Create account form (spec section 5), built from the registration contract's own rules. */
export const ZCreateDetailsForm = z.object({
  firstName: ZRegistration.shape.firstName,
  lastName: ZRegistration.shape.lastName,
  companyName: ZRegistration.shape.workspaceName,
  domains: ZRegistration.shape.workspaceDomains,
  termsAccepted: ZTermsAccepted,
});
export type TCreateDetailsFormInput = z.input<typeof ZCreateDetailsForm>;
export type TCreateDetailsForm = z.output<typeof ZCreateDetailsForm>;

/** What the ID token tells about the person signing up. */
export type SignUpProfile = { sub: string; email?: string; given_name?: string; family_name?: string };

/** Names from the ID token, and the e-mail's domain as the first company domain. */
export function createDetailsDefaults(profile: SignUpProfile | undefined): TCreateDetailsFormInput {
  const emailDomain = profile?.email?.split('@')[1]?.trim().toLowerCase();
  return {
    firstName: profile?.given_name ?? '',
    lastName: profile?.family_name ?? '',
    companyName: '',
    domains: emailDomain ? [emailDomain] : [],
    termsAccepted: false,
  };
}

export function toRegistration(form: TCreateDetailsForm, profile: SignUpProfile): RegistrationInput {
  return {
    idpId: profile.sub,
    firstName: form.firstName,
    lastName: form.lastName,
    email: profile.email ?? '',
    workspaceName: form.companyName,
    workspaceDomains: form.domains,
  };
}
