import { PATHS } from '../lib/paths.ts';

/** A screen's loader, which keeps its module once loaded. */
export type ScreenLoader<Module> = (() => Promise<Module>) & { loaded?: Module };

/**
 * Keeps the module once loaded: a screen already there (the first page's, fetched as the app starts)
 * is then rendered at once rather than suspended (router.tsx).
 */
function remembered<Module>(loader: () => Promise<Module>): ScreenLoader<Module> {
  const load: ScreenLoader<Module> = () =>
    loader().then((module) => {
      load.loaded = module;
      return module;
    });
  return load;
}

/**
 * Each screen's module, fetched when the screen is first shown (router.tsx), or for the
 * first page as soon as the app's script starts (firstScreen.ts). Nothing else imports a screen.
 */
const loaders = {
  // The signed-in frame (sidebar, account menu): not needed by the sign-up pages.
  appLayout: () => import('./AppLayout.tsx'),
  actionsLayout: () => import('../features/actions/pages/ActionsLayout.tsx'),
  recommendedActions: () => import('../features/actions/pages/RecommendedActionsPage.tsx'),
  pastActions: () => import('../features/actions/pages/PastActionsPage.tsx'),
  network: () => import('../features/network/pages/NetworkPage.tsx'),
  personas: () => import('../features/targeting/pages/PersonasPage.tsx'),
  targetedAccounts: () => import('../features/targeting/pages/TargetedAccountsPage.tsx'),
  workflows: () => import('../features/workflows/pages/WorkflowsPage.tsx'),
  workflowDetail: () => import('../features/workflows/pages/WorkflowDetailPage.tsx'),
  hubspotCallback: () => import('../features/integrations/pages/HubspotCallbackPage.tsx'),
  workspaceSettings: () => import('../features/workspace/pages/WorkspaceSettingsPage.tsx'),
  integrations: () => import('../features/integrations/pages/IntegrationsPage.tsx'),
  webhook: () => import('../features/integrations/pages/WebhookPage.tsx'),
  users: () => import('../features/team/pages/UsersPage.tsx'),
  accounts: () => import('../features/lists/pages/AccountsPage.tsx'),
  clientList: () => import('../features/lists/pages/ClientListPage.tsx'),
  crmClients: () => import('../features/lists/pages/CrmClientsPage.tsx'),
  connect: () => import('../features/onboarding/pages/ConnectPage.tsx'),
  registerInvite: () => import('../features/onboarding/pages/RegisterInvitePage.tsx'),
  createDetails: () => import('../features/onboarding/pages/CreateDetailsPage.tsx'),
  domainsNotWhitelisted: () => import('../features/onboarding/pages/DomainsNotWhitelistedPage.tsx'),
  bookADemo: () => import('../features/onboarding/pages/BookADemoPage.tsx'),
  sync: () => import('../features/onboarding/pages/SyncPage.tsx'),
  importAccounts: () => import('../features/onboarding/pages/ImportAccountsPage.tsx'),
  uploadAccounts: () => import('../features/onboarding/pages/UploadAccountsPage.tsx'),
  targetingScheme: () => import('../features/onboarding/pages/TargetingSchemePage.tsx'),
  importClients: () => import('../features/onboarding/pages/ImportClientsPage.tsx'),
  uploadClients: () => import('../features/onboarding/pages/UploadClientsPage.tsx'),
  inviteTeammates: () => import('../features/onboarding/pages/InviteTeammatesPage.tsx'),
  allyShare: () => import('../features/public/pages/AllySharePage.tsx'),
};

type Loaders = typeof loaders;
export const load = Object.fromEntries(
  Object.entries(loaders).map(([screen, loader]) => [screen, remembered<unknown>(loader)]),
) as { [S in keyof Loaders]: ScreenLoader<Awaited<ReturnType<Loaders[S]>>> };

export type Screen = keyof typeof load;

/**
 * The screens a first visit to `pathname` shows, for the pages people open the app on: fetched while
 * the app's first script is still evaluating rather than after it. A path not listed loads as usual,
 * when the router matches it.
 */
export function firstScreensOf(pathname: string): readonly Screen[] {
  const path = pathname.replace(/\/$/, '');
  if (path === PATHS.network) return ['appLayout', 'network'];
  if (path === PATHS.actions || path === PATHS.recommendedActions)
    return ['appLayout', 'actionsLayout', 'recommendedActions'];
  if (path === PATHS.signUp.connect) return ['connect'];
  return [];
}
