import { ROLES, type Role, type TeammateStatus } from '@warmpath/shared';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', member: 'Member', viewer: 'Viewer' };

/** The roles a teammate can be moved to: all but the current one, in the menu's order. */
export function otherRoles(current: Role): Role[] {
  return ROLES.filter((role) => role !== current);
}

/** Each status its own badge colour (spec section 4: the colours differ). */
export const STATUS_COLORS: Record<TeammateStatus, string> = {
  Activated: 'green',
  Joined: 'teal',
  Accepted: 'blue',
  Invited: 'yellow',
};
