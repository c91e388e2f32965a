import { Badge, Button, Group, Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { OnboardingChoice } from '../components/OnboardingChoice.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useFinishAccountsStep } from '../useFinishAccountsStep.ts';

/** Import accounts: a targeting scheme instead of a list, a CSV file, or nothing for now. */
export function ImportAccountsPage() {
  const navigate = useNavigate();
  const finishAccountsStep = useFinishAccountsStep();

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.importAccounts}>
      <PageHeader title="Import accounts" />
      <Stack>
        <OnboardingChoice onClick={() => navigate(PATHS.signUp.targetingScheme)}>
          I don't have a specific list
        </OnboardingChoice>
        <OnboardingChoice onClick={() => navigate(PATHS.signUp.importAccountsUpload)}>Upload CSV</OnboardingChoice>
        <OnboardingChoice
          onClick={() => navigate(PATHS.signUp.targetingScheme)}
          badge={
            <Badge variant="light" color="gray">
              Soon
            </Badge>
          }
        >
          Salesforce
        </OnboardingChoice>
        <Group justify="flex-end">
          <Button variant="subtle" onClick={finishAccountsStep.finish} loading={finishAccountsStep.isPending}>
            Skip
          </Button>
        </Group>
      </Stack>
    </OnboardingLayout>
  );
}
