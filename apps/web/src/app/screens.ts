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
export const load = {
  // The signed-in frame (sidebar, account menu): not needed by the sign-up pages.
  appLayout: remembered(() => import('./AppLayout.tsx')),
  actionsLayout: remembered(() => import('../features/actions/pages/ActionsLayout.tsx')),
  recommendedActions: remembered(() => import('../features/actions/pages/RecommendedActionsPage.tsx')),
  pastActions: remembered(() => import('../features/actions/pages/PastActionsPage.tsx')),
  network: remembered(() => import('../features/network/pages/NetworkPage.tsx')),
  personas: remembered(() => import('../features/targeting/pages/PersonasPage.tsx')),
  targetedAccounts: remembered(() => import('../features/targeting/pages/TargetedAccountsPage.tsx')),
  workflows: remembered(() => import('../features/workflows/pages/WorkflowsPage.tsx')),
  workflowDetail: remembered(() => import('../features/workflows/pages/WorkflowDetailPage.tsx')),
  hubspotCallback: remembered(() => import('../features/integrations/pages/HubspotCallbackPage.tsx')),
  workspaceSettings: remembered(() => import('../features/workspace/pages/WorkspaceSettingsPage.tsx')),
  integrations: remembered(() => import('../features/integrations/pages/IntegrationsPage.tsx')),
  webhook: remembered(() => import('../features/integrations/pages/WebhookPage.tsx')),
  users: remembered(() => import('../features/team/pages/UsersPage.tsx')),
  accounts: remembered(() => import('../features/lists/pages/AccountsPage.tsx')),
  clientList: remembered(() => import('../features/lists/pages/ClientListPage.tsx')),
  crmClients: remembered(() => import('../features/lists/pages/CrmClientsPage.tsx')),
  connect: remembered(() => import('../features/onboarding/pages/ConnectPage.tsx')),
  registerInvite: remembered(() => import('../features/onboarding/pages/RegisterInvitePage.tsx')),
  createDetails: remembered(() => import('../features/onboarding/pages/CreateDetailsPage.tsx')),
  domainsNotWhitelisted: remembered(() => import('../features/onboarding/pages/DomainsNotWhitelistedPage.tsx')),
  bookADemo: remembered(() => import('../features/onboarding/pages/BookADemoPage.tsx')),
  sync: remembered(() => import('../features/onboarding/pages/SyncPage.tsx')),
  importAccounts: remembered(() => import('../features/onboarding/pages/ImportAccountsPage.tsx')),
  uploadAccounts: remembered(() => import('../features/onboarding/pages/UploadAccountsPage.tsx')),
  targetingScheme: remembered(() => import('../features/onboarding/pages/TargetingSchemePage.tsx')),
  importClients: remembered(() => import('../features/onboarding/pages/ImportClientsPage.tsx')),
  uploadClients: remembered(() => import('../features/onboarding/pages/UploadClientsPage.tsx')),
  inviteTeammates: remembered(() => import('../features/onboarding/pages/InviteTeammatesPage.tsx')),
  allyShare: remembered(() => import('../features/public/pages/AllySharePage.tsx')),
};

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
