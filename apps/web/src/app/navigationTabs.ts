import { activeRouteTab, type RouteTab } from '../components/routeTabs.ts';
import { PATHS } from '../lib/paths.ts';

/** The admin tab bar of spec section 2, in its order. */
export const ADMIN_TABS: readonly RouteTab[] = [
  { label: 'Workspace', path: PATHS.admin.workspace },
  { label: 'Integrations', path: PATHS.admin.integrations },
  { label: 'Users', path: PATHS.admin.users },
  { label: 'Assigned Accounts', path: PATHS.admin.accounts },
  { label: 'Allies to map network from', path: PATHS.admin.networkAllies },
  { label: 'Job changes tracking', path: PATHS.admin.jobChangesTracking },
  { label: 'Clients & Exclusions', path: PATHS.admin.crmClients },
];

/** The highlighted admin tab; unknown admin paths highlight Workspace. */
export function activeAdminTab(pathname: string): string {
  return activeRouteTab(ADMIN_TABS, pathname, PATHS.admin.workspace);
}

export const PROFILE_TABS: readonly RouteTab[] = [
  { label: 'Target Personas', path: PATHS.personas },
  { label: 'Target Accounts', path: PATHS.targetedAccounts },
];

export function activeProfileTab(pathname: string): string {
  return activeRouteTab(PROFILE_TABS, pathname, PATHS.personas);
}
