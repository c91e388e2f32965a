import { Button, Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useAuth } from 'react-oidc-context';
import { toast } from 'react-toastify';
import { OnboardingLayout } from '../../../app/OnboardingLayout.tsx';
import { PATHS } from '../../../app/paths.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { type SignInState, storeRegistration } from '../../../lib/auth.ts';

/** Start of registration: sign in at the identity provider, then create the account. */
export function ConnectPage() {
  const auth = useAuth();

  const connect = () => {
    storeRegistration({ process: 'admin-registration', target: PATHS.signUp.createDetails });
    const state: SignInState = { returnTo: PATHS.signUp.createDetails };
    auth.signinRedirect({ state }).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
    });
  };

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
