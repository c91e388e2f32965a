import { MESSAGES } from '@warmpath/shared';
import type { ReactNode } from 'react';
import { LoadingScreen } from '../components/LoadingScreen.tsx';
import { MessageScreen } from '../components/MessageScreen.tsx';
import { usePublicConfig } from '../features/public/api.ts';
import { AUTH_CALLBACK_PATH, authSessionFor, readReturnTo } from '../lib/auth.ts';
import { useAuth } from '../lib/useAuth.ts';
import { useDrawnInBackground } from '../lib/useDrawnInBackground.ts';
import { AuthProvider } from './AuthProvider.tsx';

/** Builds the sign-in from the server's public configuration; the app waits for both. */
export function AuthSetup({ children }: { children: ReactNode }) {
  const config = usePublicConfig();
  // The sign-in, the router and the page's shell: drawn in the task that brought the configuration,
  // they held the main thread for about 50 ms after the first page's frame was painted.
  const drawn = useDrawnInBackground(config.data !== undefined);
  if (config.isError) return <MessageScreen message={MESSAGES.unexpectedError} />;
  if (!config.data || !drawn) return <LoadingScreen />;

  return (
    <AuthProvider
      session={authSessionFor(config.data)}
      // Other pages get code and state in their query too (the CRM's OAuth return): not ours to process.
      skipSigninCallback={window.location.pathname !== AUTH_CALLBACK_PATH}
      onSigninCallback={async (user) => {
        // Replacing the entry also drops code and state from the address bar. The router is not
        // mounted yet (AuthReady waits for the sign-in), so it starts at this address.
        window.history.replaceState(null, '', readReturnTo(user?.state));
      }}
    >
      <AuthReady>{children}</AuthReady>
    </AuthProvider>
  );
}

function AuthReady({ children }: { children: ReactNode }) {
  const auth = useAuth();
  // Loading with no navigator is the start-up; a redirect in progress keeps the page as it is.
  return auth.isLoading && !auth.activeNavigator ? <LoadingScreen /> : children;
}
