import { Button, Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useRegistrationSignIn } from '../useRegistrationSignIn.ts';

/** Start of registration: sign in at the identity provider, then create the account. */
export function ConnectPage() {
  const signIn = useRegistrationSignIn();
  const connect = () => signIn({ process: 'admin-registration', target: PATHS.signUp.createDetails });

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.connect}>
      <PageHeader title="Get started" />
      <Stack>
        <Button onClick={connect}>Connect with Google</Button>
        <Button onClick={connect} variant="default">
          Connect with Microsoft
        </Button>
      </Stack>
    </OnboardingLayout>
  );
}
