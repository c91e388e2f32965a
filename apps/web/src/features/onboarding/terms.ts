import { VALIDATION } from '@warmpath/shared';
import { z } from 'zod';

/** The terms agreement of account creation and invitation acceptance (spec section 5). */
export const TERMS_LABEL = 'I agree to the terms and conditions and the privacy policy.';
export const ZTermsAccepted = z.boolean().refine((accepted) => accepted, VALIDATION.termsRequired);
