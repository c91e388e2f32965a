import type { SigninRedirectArgs, SignoutRedirectArgs, UserProfile } from 'oidc-client-ts';
import { createContext, useContext } from 'react';
import { isExpired } from './auth.ts';

// The sign-in's state for the screens, as react-oidc-context gave it (the same fields, actions and
// transitions), over a user manager loaded on first need (auth.ts): that library imported it at start.

/** A failed sign-in step: its message is shown. */
export type AuthError = { readonly name: string; readonly message: string; readonly source: string };

/** The user as the screens read them: the identity provider's claims. */
export type AuthUser = { readonly profile: UserProfile; readonly expires_at?: number };

export type Navigator = 'signinRedirect' | 'signoutRedirect';

export type AuthState = {
  readonly isLoading: boolean;
  readonly isAuthenticated: boolean;
  readonly user?: AuthUser | null;
  /** A redirect to the identity provider under way: the page stays as it is meanwhile. */
  readonly activeNavigator?: Navigator;
  readonly error?: AuthError;
};

export type AuthAction =
  | { type: 'INITIALISED' | 'USER_LOADED'; user: AuthUser | null }
  | { type: 'USER_SIGNED_OUT' | 'USER_UNLOADED' | 'NAVIGATOR_CLOSE' }
  | { type: 'NAVIGATOR_INIT'; method: Navigator }
  | { type: 'ERROR'; error: AuthError };

export const LOADING_AUTH_STATE: AuthState = { isLoading: true, isAuthenticated: false };

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'INITIALISED':
    case 'USER_LOADED':
      return {
        ...state,
        user: action.user,
        isLoading: false,
        isAuthenticated: action.user ? !isExpired(action.user) : false,
        error: undefined,
      };
    case 'USER_SIGNED_OUT':
    case 'USER_UNLOADED':
      return { ...state, user: undefined, isAuthenticated: false };
    case 'NAVIGATOR_INIT':
      return { ...state, isLoading: true, activeNavigator: action.method };
    case 'NAVIGATOR_CLOSE':
      return { ...state, isLoading: false, activeNavigator: undefined };
    case 'ERROR':
      return { ...state, isLoading: false, error: action.error };
  }
}

/** A thrown value as an AuthError, its message kept when it has one. */
export function authError(error: unknown, source: string, fallbackMessage: string): AuthError {
  const isObject = typeof error === 'object' && error !== null;
  const name = isObject && 'name' in error ? error.name : undefined;
  const message = isObject && 'message' in error ? error.message : undefined;
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : fallbackMessage,
    source,
  };
}

export type Auth = AuthState & {
  /** Leaves for the identity provider's sign-in; a failure becomes `error` rather than a rejection. */
  signinRedirect(args?: SigninRedirectArgs): Promise<void>;
  signoutRedirect(args?: SignoutRedirectArgs): Promise<void>;
  /** Forgets the user here, without the identity provider. */
  removeUser(): Promise<void>;
};

export const AuthContext = createContext<Auth | undefined>(undefined);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthProvider above it');
  return auth;
}
