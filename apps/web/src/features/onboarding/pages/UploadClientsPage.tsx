import { Button, Group } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { clientsImport } from '../../lists/api.ts';
import { CsvImport } from '../../lists/components/CsvImport.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useAdvanceOnboardingStep } from '../useAdvanceOnboardingStep.ts';

/** Clients are allies to map the network from and people whose job changes matter: both lists. */
const ONBOARDING_CLIENTS_IMPORT = clientsImport({ mapNetwork: true, trackJobChanges: true });

/** Clients upload, the last onboarding step: clients and allies from a CSV file, then the app (spec: to /). */
export function UploadClientsPage() {
  const navigate = useNavigate();
  const { advanceTo, isPending } = useAdvanceOnboardingStep();

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.clientsUpload}>
      <PageHeader title="Upload clients" description="Your clients and allies, from a CSV file." />
      <CsvImport
        title="Import clients and allies"
        target={ONBOARDING_CLIENTS_IMPORT}
        onBack={() => navigate(PATHS.signUp.importClients)}
        completedAction={
          <Group justify="flex-end">
            <Button onClick={() => advanceTo('COMPLETED', PATHS.root)} loading={isPending}>
              Continue
            </Button>
          </Group>
        }
      />
    </OnboardingLayout>
  );
}
