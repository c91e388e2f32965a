import { Button, Group } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { ACCOUNTS_IMPORT } from '../../lists/api.ts';
import { CsvImport } from '../../lists/components/CsvImport.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useFinishAccountsStep } from '../useFinishAccountsStep.ts';

/** Accounts upload: the target companies from a CSV file; once imported, on to the next step. */
export function UploadAccountsPage() {
  const navigate = useNavigate();
  const finishAccountsStep = useFinishAccountsStep();

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.accountsUpload}>
      <PageHeader title="Upload accounts" description="The companies your team targets, from a CSV file." />
      <CsvImport
        title="Import accounts"
        target={ACCOUNTS_IMPORT}
        onBack={() => navigate(PATHS.signUp.importAccounts)}
        completedAction={
          <Group justify="flex-end">
            <Button onClick={finishAccountsStep.finish} loading={finishAccountsStep.isPending}>
              Continue
            </Button>
          </Group>
        }
      />
    </OnboardingLayout>
  );
}
