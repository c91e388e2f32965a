import { Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useSession } from '../../../lib/useSession.ts';
import { leaveForHubspot } from '../../integrations/api.ts';
import { advanceOnboarding } from '../../users/api.ts';
import { OnboardingChoice } from '../components/OnboardingChoice.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useAdvanceOnboardingStep } from '../useAdvanceOnboardingStep.ts';

/**
 * Import clients, the last onboarding step: a CSV file now, the CRM's lists (offered once targeted
 * accounts are set and while the CRM is not connected, spec section 2), or later from the main area.
 */
export function ImportClientsPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  const { advanceTo, isPending } = useAdvanceOnboardingStep();
  const [leaving, setLeaving] = useState(false);

  const later = () => advanceTo('COMPLETED', PATHS.recommendedActions);
  // Onboarding ends here: HubSpot's return lands on the main page, and the lists are chosen on the CRM
  // clients page. Plain calls, not the session's mutations: the page must not move before the browser leaves.
  const fromCrm = () => {
    setLeaving(true);
    advanceOnboarding({ step: 'COMPLETED' })
      .then(leaveForHubspot)
      .catch((error: Error) => {
        setLeaving(false);
        toast.error(error.message);
      });
  };
  const offerCrm = Boolean(user?.isTargetedAccountsSet && !user.isHubspotConnected);

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.importClients}>
      <PageHeader title="Import clients" />
      <Stack>
        <OnboardingChoice onClick={() => navigate(PATHS.signUp.importClientsUpload)}>Upload CSV</OnboardingChoice>
        {offerCrm ? (
          <OnboardingChoice onClick={fromCrm} loading={leaving}>
            Import from a CRM provider
          </OnboardingChoice>
        ) : null}
        <OnboardingChoice onClick={later} loading={isPending}>
          I'll do it later
        </OnboardingChoice>
      </Stack>
    </OnboardingLayout>
  );
}
