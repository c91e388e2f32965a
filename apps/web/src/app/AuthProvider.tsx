import type { User } from 'oidc-client-ts';
import { type ReactNode, useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { AuthSession } from '../lib/auth.ts';
import {
  type Auth,
  AuthContext,
  type AuthUser,
  authError,
  authReducer,
  LOADING_AUTH_STATE,
  type Navigator,
} from '../lib/useAuth.ts';

/** Whether the address carries an identity provider's answer (react-oidc-context's test). */
function hasAuthParams(location: Location = window.location): boolean {
  for (const params of [new URLSearchParams(location.search), new URLSearchParams(location.hash.replace('#', '?'))])
    if ((params.get('code') || params.get('error')) && params.get('state')) return true;
  return false;
}

type Props = {
  session: AuthSession;
  /** Leave an answer in the address to its page (another OAuth return) rather than completing a sign-in with it. */
  skipSigninCallback: boolean;
  onSigninCallback: (user: User | undefined) => Promise<void>;
  children: ReactNode;
};

/**
 * The sign-in's state (lib/useAuth.ts) for the screens below. With a user stored and no sign-in to
 * complete, it starts from that user without loading the user manager; otherwise it loads it at
 * once, completes the sign-in or reads the user through it, as react-oidc-context did.
 */
export function AuthProvider({ session, skipSigninCallback, onSigninCallback, children }: Props) {
  const completesSignIn = !skipSigninCallback && hasAuthParams();
  const needsUserManager = completesSignIn || session.storedUser === undefined;
  const [state, dispatch] = useReducer(authReducer, undefined, () =>
    needsUserManager
      ? LOADING_AUTH_STATE
      : authReducer(LOADING_AUTH_STATE, { type: 'INITIALISED', user: session.storedUser ?? null }),
  );

  // The user manager's events, once it is loaded (at start, for a sign-in, or to renew a token).
  useEffect(
    () =>
      session.onUserManager((userManager) => {
        const { events } = userManager;
        const loaded = (user: AuthUser) => dispatch({ type: 'USER_LOADED', user });
        const unloaded = () => dispatch({ type: 'USER_UNLOADED' });
        const signedOut = () => dispatch({ type: 'USER_SIGNED_OUT' });
        const renewFailed = (error: Error) =>
          dispatch({ type: 'ERROR', error: authError(error, 'renewSilent', 'Renew silent failed') });
        events.addUserLoaded(loaded);
        events.addUserUnloaded(unloaded);
        events.addUserSignedOut(signedOut);
        events.addSilentRenewError(renewFailed);
        return () => {
          events.removeUserLoaded(loaded);
          events.removeUserUnloaded(unloaded);
          events.removeUserSignedOut(signedOut);
          events.removeSilentRenewError(renewFailed);
        };
      }),
    [session],
  );

  // Once only, whatever StrictMode's second effect run or a new callback would ask.
  const didInitialize = useRef(false);
  const initialisation = useRef({ needsUserManager, completesSignIn, onSigninCallback });
  useEffect(() => {
    const { needsUserManager, completesSignIn, onSigninCallback } = initialisation.current;
    if (!needsUserManager || didInitialize.current) return;
    didInitialize.current = true;
    void (async () => {
      try {
        const userManager = await session.userManager();
        let user: AuthUser | null = null;
        if (completesSignIn) {
          const signedIn = await userManager.signinCallback();
          await onSigninCallback(signedIn);
          user = signedIn ?? null;
        }
        dispatch({ type: 'INITIALISED', user: user ?? (await userManager.getUser()) });
      } catch (error) {
        dispatch({ type: 'ERROR', error: authError(error, 'signinCallback', 'Sign-in failed') });
      }
    })();
  }, [session]);

  const navigate = useCallback(
    async (method: Navigator, run: (userManager: Awaited<ReturnType<AuthSession['userManager']>>) => Promise<void>) => {
      dispatch({ type: 'NAVIGATOR_INIT', method });
      try {
        await run(await session.userManager());
      } catch (error) {
        dispatch({
          type: 'ERROR',
          error: authError(error, method, `Unknown error while executing ${method}(...).`),
        });
      } finally {
        dispatch({ type: 'NAVIGATOR_CLOSE' });
      }
    },
    [session],
  );

  const auth = useMemo<Auth>(
    () => ({
      ...state,
      signinRedirect: (args) => navigate('signinRedirect', (userManager) => userManager.signinRedirect(args)),
      signoutRedirect: (args) => navigate('signoutRedirect', (userManager) => userManager.signoutRedirect(args)),
      removeUser: async () => (await session.userManager()).removeUser(),
    }),
    [state, navigate, session],
  );
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
