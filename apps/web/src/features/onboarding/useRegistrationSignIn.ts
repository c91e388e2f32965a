import { type SignInState, type StoredRegistration, storeRegistration } from '../../lib/auth.ts';
import { toast } from '../../lib/toasts.tsx';
import { useAuth } from '../../lib/useAuth.ts';

/**
 * Starts a registration (spec section 2): remember the process and where it continues, then sign in
 * at the identity provider, which brings the visitor back there.
 */
export function useRegistrationSignIn() {
  const auth = useAuth();
  return (registration: StoredRegistration) => {
    storeRegistration(registration);
    const state: SignInState = { returnTo: registration.target };
    auth.signinRedirect({ state }).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
    });
  };
}
