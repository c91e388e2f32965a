import { ROLES } from '@warmpath/shared';

const KNOWN_ROLES: readonly string[] = ROLES;

/** The spec's restricted third role: any role outside admin, member and viewer. */
export function isRestrictedRole(role: string): boolean {
  return !KNOWN_ROLES.includes(role);
}
