import { Anchor, Button, Stack, Text } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import type { SignInState } from '../../../lib/auth.ts';
import { PATHS } from '../../../lib/paths.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useAuth } from '../../../lib/useAuth.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { WarmPathPicture } from '../components/WarmPathPicture.tsx';
import { useRegistrationSignIn } from '../useRegistrationSignIn.ts';

/**
 * The first page: what the product does, in a sentence and a picture, then the start of registration
 * (sign in at the identity provider, then create the account), or a plain sign-in for a returning user.
 */
export function ConnectPage() {
  const auth = useAuth();
  const signIn = useRegistrationSignIn();
  const connect = () => signIn({ process: 'admin-registration', target: PATHS.signUp.createDetails });
  const signInAgain = () => {
    // No registration stored: once signed in, the guards send a known user to their place.
    const state: SignInState = { returnTo: '/' };
    auth.signinRedirect({ state }).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
    });
  };

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.connect}>
      <PageHeader title="Get started" />
      <Stack>
        <Text>
          Warmpath finds who in your team's network already knows the people you want to sell to, scores how well they
          know them, and helps you ask for a warm introduction from your own mailbox.
        </Text>
        <WarmPathPicture />
        <Button onClick={connect}>Connect with Google</Button>
        <Button onClick={connect} variant="default">
          Connect with Microsoft
        </Button>
        <Text size="sm" ta="center">
          Already have an account?{' '}
          <Anchor component="button" type="button" onClick={signInAgain}>
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </OnboardingLayout>
  );
}
