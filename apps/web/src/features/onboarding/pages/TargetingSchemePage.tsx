import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TargetingSchemeForm } from '../../targeting/components/TargetingSchemeForm.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
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
