import type { TMe } from '@warmpath/shared';
import { isRestrictedRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/useSession.ts';

export type ActionsAccess = {
  user: TMe | null;
  /** The restricted role loads no actions data (spec section 6). */
  canLoad: boolean;
  /** Admins see the team's past actions and filter the recommended ones. */
  isAdmin: boolean;
};

export function useActionsAccess(): ActionsAccess {
  const { user } = useSession();
  return {
    user,
    canLoad: user !== null && !isRestrictedRole(user.role),
    isAdmin: user?.role === 'admin',
  };
}
