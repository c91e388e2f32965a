import type { TAdvanceOnboarding, TMe } from '@warmpath/shared';
import { PATHS } from '../../lib/paths.ts';

export type AdvanceStep = TAdvanceOnboarding['step'];

// Spec section 4: the steps in order; COMPLETED is hasCompletedOnboarding.
const STEP_ORDER: readonly string[] = ['SIGNUP_DONE', 'EXTERNALS_DONE', 'ACCOUNTS_IMPORT_DONE', 'COMPLETED'];

/** The user is at this step or past it; steps only move forward, so there is nothing to send. */
export function hasReachedStep(
  user: Pick<TMe, 'onboardingStep' | 'hasCompletedOnboarding'>,
  step: AdvanceStep,
): boolean {
  if (user.hasCompletedOnboarding) return true;
  return STEP_ORDER.indexOf(user.onboardingStep) >= STEP_ORDER.indexOf(step);
}

/** After the accounts step an admin invites teammates; any other role imports clients (spec section 2). */
export function afterAccountsStepPath(role: string): string {
  return role === 'admin' ? PATHS.signUp.inviteTeammates : PATHS.signUp.importClients;
}
