import { Anchor, Center, Stack, Text } from '@mantine/core';
import { Link, Navigate } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { PATHS } from '../lib/paths.ts';
import { useAuth } from '../lib/useAuth.ts';

/** The identity provider's return; a successful sign-in navigates on from the auth provider. */
export function AuthCallbackPage() {
  const auth = useAuth();

  if (auth.error) {
    return (
      <Center component="main" h="100vh" p="md">
        <Stack align="center">
          <Text role="alert">{auth.error.message}</Text>
          <Anchor component={Link} to={PATHS.signUp.connect}>
            Back to sign-up
          </Anchor>
        </Stack>
      </Center>
    );
  }
  if (auth.isLoading) return <LoadingScreen />;
  return <Navigate to={auth.isAuthenticated ? PATHS.root : PATHS.signUp.connect} replace />;
}
