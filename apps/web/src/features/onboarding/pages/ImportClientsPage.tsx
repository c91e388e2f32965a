import { Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { OnboardingChoice } from '../components/OnboardingChoice.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useAdvanceOnboardingStep } from '../useAdvanceOnboardingStep.ts';

/** Import clients, the last onboarding step: a CSV file now, or later from the main area. */
export function ImportClientsPage() {
  const navigate = useNavigate();
  const { advanceTo, isPending } = useAdvanceOnboardingStep();

  const later = () => advanceTo('COMPLETED', PATHS.recommendedActions);

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.importClients}>
      <PageHeader title="Import clients" />
      <Stack>
        <OnboardingChoice onClick={() => navigate(PATHS.signUp.importClientsUpload)}>Upload CSV</OnboardingChoice>
        <OnboardingChoice onClick={later} loading={isPending}>
          I'll do it later
        </OnboardingChoice>
      </Stack>
    </OnboardingLayout>
  );
}
