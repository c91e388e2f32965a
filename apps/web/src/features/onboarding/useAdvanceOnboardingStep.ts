import type { TMe } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/useSession.ts';
import { useAdvanceOnboarding } from '../users/api.ts';
import { type AdvanceStep, hasReachedStep } from './onboardingSteps.ts';

/** Where to go once the step is reached: a path, or a path chosen from the up-to-date user. */
export type StepDestination = string | ((user: TMe) => string);

/**
 * Reaches an onboarding step, then goes on. A user already at or past the step (back on an earlier
 * screen) goes on without a call.
 */
export function useAdvanceOnboardingStep() {
  const { user } = useSession();
  const navigate = useNavigate();
  const advance = useAdvanceOnboarding();

  const goOn = (current: TMe, destination: StepDestination) => {
    navigate(typeof destination === 'string' ? destination : destination(current));
  };

  const advanceTo = (step: AdvanceStep, destination: StepDestination) => {
    if (!user) return;
    if (hasReachedStep(user, step)) goOn(user, destination);
    // Not mutate's own onSuccess: TanStack drops it when the page has not subscribed to the mutation
    // yet, and a page drawn in the background subscribes a task after it is shown (a click in between,
    // answered at once, stayed on the page). The failure's toast is the hook's.
    else
      advance.mutateAsync({ step }).then(
        (updated) => goOn(updated, destination),
        () => {},
      );
  };

  return { advanceTo, isPending: advance.isPending };
}
