import type { TMe } from '@warmpath/shared';
import { useMe } from '../features/users/api.ts';
import { readRegistration, type StoredRegistration } from './auth.ts';
import { useAuth } from './useAuth.ts';

export type Session = {
  /** The sign-in or the current user is still loading. */
  isLoading: boolean;
  /** An identity-provider session exists. */
  isAuthenticated: boolean;
  /** The registered user; null when signed out, not registered, or when loading them failed (spec section 4). */
  user: TMe | null;
  registration: StoredRegistration | null;
};

export function useSession(): Session {
  const auth = useAuth();
  const me = useMe(auth.isAuthenticated);
  return {
    isLoading: auth.isLoading || (auth.isAuthenticated && me.isPending),
    isAuthenticated: auth.isAuthenticated,
    user: me.data ?? null,
    registration: readRegistration(),
  };
}
