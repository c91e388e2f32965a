import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { OnboardingLayout } from '../../../app/OnboardingLayout.tsx';
import { useSession } from '../../../app/useSession.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';

/** Sync your connections; its progress value grows once Google is connected. */
export function SyncPage() {
  const { user } = useSession();
  const progress = user?.isGoogleConnected ? ONBOARDING_PROGRESS.syncGoogleConnected : ONBOARDING_PROGRESS.sync;

  return (
    <OnboardingLayout progress={progress}>
      <PageHeader title="Sync your connections" />
    </OnboardingLayout>
  );
}
