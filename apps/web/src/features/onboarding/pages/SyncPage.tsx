import { Button, Group, Stack, Text } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/useSession.ts';
import { GoogleConnectionCard } from '../../sources/components/GoogleConnectionCard.tsx';
import { LinkedinConnectionCard } from '../../sources/components/LinkedinConnectionCard.tsx';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useAdvanceOnboardingStep } from '../useAdvanceOnboardingStep.ts';

const CONNECTIONS = 2;

/** Sync your connections: Google and the LinkedIn export; its progress value grows once Google is connected. */
export function SyncPage() {
  const { user } = useSession();
  const { advanceTo, isPending } = useAdvanceOnboardingStep();
  const progress = user?.isGoogleConnected ? ONBOARDING_PROGRESS.syncGoogleConnected : ONBOARDING_PROGRESS.sync;
  const connected = Number(Boolean(user?.isGoogleConnected)) + Number(Boolean(user?.isLinkedinConnected));

  const proceed = () => advanceTo('EXTERNALS_DONE', PATHS.signUp.importAccounts);

  return (
    <OnboardingLayout progress={progress}>
      <PageHeader title="Sync your connections" />
      <Stack>
        {user ? (
          <>
            <GoogleConnectionCard user={user} />
            <LinkedinConnectionCard user={user} expandedByDefault={!user.isLinkedinConnected} />
          </>
        ) : null}
        <Group justify="space-between">
          <Text>
            {connected}/{CONNECTIONS} accounts connected
          </Text>
          <Button onClick={proceed} loading={isPending}>
            Continue
          </Button>
        </Group>
      </Stack>
    </OnboardingLayout>
  );
}
