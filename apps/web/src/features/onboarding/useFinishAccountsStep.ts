import { afterAccountsStepPath } from './onboardingSteps.ts';
import { useAdvanceOnboardingStep } from './useAdvanceOnboardingStep.ts';

/** Ends the accounts step (Skip, or the targeting form saved) and goes where the user's role leads. */
export function useFinishAccountsStep() {
  const { advanceTo, isPending } = useAdvanceOnboardingStep();
  const finish = () => advanceTo('ACCOUNTS_IMPORT_DONE', (user) => afterAccountsStepPath(user.role));
  return { finish, isPending };
}
