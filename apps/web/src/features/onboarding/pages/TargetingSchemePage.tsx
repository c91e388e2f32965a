import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { OnboardingLayout } from '../../../app/OnboardingLayout.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TargetingSchemeForm } from '../../targeting/components/TargetingSchemeForm.tsx';
import { useFinishAccountsStep } from '../useFinishAccountsStep.ts';

/** Onboarding without a list of accounts: describe the accounts to target instead. */
export function TargetingSchemePage() {
  const finishAccountsStep = useFinishAccountsStep();

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.targetingScheme}>
      <PageHeader title="Alright, no specific accounts" />
      <TargetingSchemeForm
        context="onboarding"
        onSaved={finishAccountsStep.finish}
        busy={finishAccountsStep.isPending}
      />
    </OnboardingLayout>
  );
}
