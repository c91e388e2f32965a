import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import type { TMe, TPublicConfig } from '@warmpath/shared';
import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { type Location, MemoryRouter, type NavigateFunction, useLocation, useNavigate } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { AuthProvider } from '../app/AuthProvider.tsx';
import { AppRoutes } from '../app/router.tsx';
import { load } from '../app/screens.ts';
import { publicKeys } from '../features/public/api.ts';
import { userKeys } from '../features/users/api.ts';
import { authSession } from '../lib/auth.ts';
import { renderWithMantine } from './render.tsx';

export const idTokenProfile = {
  iss: 'http://idp.test',
  aud: 'web',
  exp: 4_102_444_800,
  iat: 1_700_000_000,
  sub: 'idp|ada',
  email: 'ada@engines.example',
  given_name: 'Ada',
  family_name: 'Lovelace',
};

export { admin, member } from './users.ts';

/** Tests that mount the whole app: generous, since test files run side by side on few cores. */
export const APP_TEST_TIMEOUT_MS = 30_000;

export type Visitor = { signedIn: boolean; me?: TMe | null };

/** The server's public configuration, which the app loads before anything else; analytics off unless a test turns it on. */
export const publicConfig: TPublicConfig = {
  oidc: { authority: 'http://idp.test', clientId: 'web', audience: 'backend', extraQueryParams: {} },
  demoCalendarUrl: 'https://calendar.example/warmpath',
  posthogKey: null,
};

// The router loads each screen when it is first visited. Tests of the whole app import them all up
// front, as the test file did when the router imported them statically, so that a screen's first
// import (transformed on the fly) is not counted against the timeout of a query waiting for it.
const everyScreen = Promise.all(Object.values(load).map((screen) => screen()));

/** Where the app is, and a way to go elsewhere as a link would: what the tests read of the router. */
export type TestRouter = { state: { location: Location }; navigate: (to: string) => Promise<void> };

/** Keeps the test's router up to date with the app's location. */
function RouterProbe({ router, navigateRef }: { router: TestRouter; navigateRef: { current?: NavigateFunction } }) {
  router.state.location = useLocation();
  navigateRef.current = useNavigate();
  return null;
}

/** The whole app at `path`, for a signed-out visitor or a signed-in one with the given user. */
export async function renderApp(path: string, visitor: Visitor, config: TPublicConfig = publicConfig) {
  await everyScreen;
  const userManager = new UserManager({
    authority: 'http://idp.test',
    client_id: 'web',
    redirect_uri: 'http://localhost/auth/callback',
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  queryClient.setQueryData(publicKeys.config(), config);
  if (visitor.signedIn) {
    await userManager.storeUser(new User({ access_token: 'token', token_type: 'Bearer', profile: idTokenProfile }));
    queryClient.setQueryData(userKeys.me(), visitor.me ?? null);
  }
  const navigateRef: { current?: NavigateFunction } = {};
  const router: TestRouter = {
    state: { location: { pathname: path, search: '', hash: '', state: null, key: 'default' } },
    navigate: async (to) => {
      const navigate = navigateRef.current;
      if (!navigate) throw new Error('The app is not mounted');
      await act(async () => {
        await navigate(to);
      });
    },
  };
  renderWithMantine(
    <QueryClientProvider client={queryClient}>
      {/* The user is in the test's own store, which only the user manager reads. */}
      <AuthProvider
        session={authSession(async () => userManager, undefined)}
        skipSigninCallback
        onSigninCallback={async () => {}}
      >
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <RouterProbe router={router} navigateRef={navigateRef} />
        </MemoryRouter>
      </AuthProvider>
      <ToastContainer />
    </QueryClientProvider>,
  );
  return { router, queryClient, userManager };
}
