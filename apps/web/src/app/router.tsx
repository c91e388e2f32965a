import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { RouteTabs } from '../components/RouteTabs.tsx';
import { ScreenLoading } from '../components/ScreenLoading.tsx';
import { PATHS } from '../lib/paths.ts';
import { AuthCallbackPage } from './AuthCallbackPage.tsx';
import { ErrorScreen } from './ErrorScreen.tsx';
import { GuardedOutlet } from './GuardedOutlet.tsx';
import {
  adminGuard,
  bookADemoGuard,
  createDetailsGuard,
  inviteTeammatesGuard,
  onboardingGuard,
  privateRouteGuard,
  type RouteGuard,
  signUpEntryGuard,
} from './guards.ts';
import { ADMIN_TABS, activeAdminTab, activeProfileTab, PROFILE_TABS } from './navigationTabs.ts';
import { RootRoute } from './RootRoute.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { load, type ScreenLoader } from './screens.ts';

function guarded(guard: RouteGuard, children: RouteObject[]): RouteObject {
  return { element: <GuardedOutlet guard={guard} />, children };
}

/** How many screens lazyScreen has made: each one's key. */
let screenCount = 0;

/**
 * A screen whose code is a chunk of its own (with the libraries only it uses), fetched when it is first
 * shown (the first page's, as the app starts: firstScreen.ts), with a loader in its place meanwhile.
 * React.lazy rather than the router's lazy routes: a navigation stays synchronous, so a page that
 * updates the user and navigates in one render (useSetMe) is never seen by its guard with the new
 * user and the old address.
 */
function lazyScreen<Module>(
  loadModule: ScreenLoader<Module>,
  render: (module: Module) => ReactNode,
): Pick<RouteObject, 'element'> {
  const Screen = lazy(async () => {
    const module = await loadModule();
    return { default: () => render(module) };
  });
  // Its own key: two routes' screens at the same place in the tree (/workflows, then one workflow)
  // are two components, never one kept with the other's module, as two lazy components were.
  const key = `screen-${screenCount++}`;
  return {
    element: (
      <Suspense fallback={<ScreenLoading />}>
        <ReadyScreen key={key} loadModule={loadModule} Lazy={Screen} render={render} />
      </Suspense>
    ),
  };
}

/**
 * A module already loaded (the first page's, fetched as the app started) is rendered at once: a
 * suspended screen costs a fallback's render and React's wait (up to 300 ms) before it reveals what
 * is ready, for each nested screen. Decided once per mount, so the page is never remounted.
 */
function ReadyScreen<Module>({
  loadModule,
  Lazy,
  render,
}: {
  loadModule: ScreenLoader<Module>;
  Lazy: ComponentType;
  render: (module: Module) => ReactNode;
}) {
  const [module] = useState(() => loadModule.loaded);
  return module === undefined ? <Lazy /> : render(module);
}

const recommendedActions = lazyScreen(load.recommendedActions, (m) => <m.RecommendedActionsPage />);
const workspaceSettings = lazyScreen(load.workspaceSettings, (m) => <m.WorkspaceSettingsPage />);

/** The spec's route table (section 2). Screens of later issues are their heading for now. */
export const routes: RouteObject[] = [
  {
    path: PATHS.root,
    element: <RootRoute />,
    children: [
      { index: true, element: <Navigate to={PATHS.actions} replace /> },
      { path: PATHS.authCallback, element: <AuthCallbackPage /> },
      { path: PATHS.allyShare, ...lazyScreen(load.allyShare, (m) => <m.AllySharePage />) },
      guarded(privateRouteGuard, [
        {
          ...lazyScreen(load.appLayout, (m) => <m.AppLayout />),
          children: [
            {
              ...lazyScreen(load.actionsLayout, (m) => <m.ActionsLayout />),
              children: [
                { path: PATHS.actions, ...recommendedActions },
                { path: PATHS.recommendedActions, ...recommendedActions },
                // Keyed: each tab keeps its own filters and page.
                {
                  path: PATHS.pastActions,
                  ...lazyScreen(load.pastActions, (m) => <m.PastActionsPage key="past" tab="past" />),
                },
                {
                  path: PATHS.pendingActions,
                  ...lazyScreen(load.pastActions, (m) => <m.PastActionsPage key="pending" tab="pending" />),
                },
                {
                  path: PATHS.skippedActions,
                  ...lazyScreen(load.pastActions, (m) => <m.PastActionsPage key="skipped" tab="skipped" />),
                },
              ],
            },
            { path: PATHS.network, ...lazyScreen(load.network, (m) => <m.NetworkPage />) },
            {
              element: <RouteTabs label="Targeting" tabs={PROFILE_TABS} resolveActive={activeProfileTab} />,
              children: [
                { path: PATHS.personas, ...lazyScreen(load.personas, (m) => <m.PersonasPage />) },
                {
                  path: PATHS.targetedAccounts,
                  ...lazyScreen(load.targetedAccounts, (m) => <m.TargetedAccountsPage />),
                },
              ],
            },
            // The workflow diagram (@xyflow/react) comes with these two only.
            { path: PATHS.workflows, ...lazyScreen(load.workflows, (m) => <m.WorkflowsPage />) },
            { path: `${PATHS.workflows}/:id`, ...lazyScreen(load.workflowDetail, (m) => <m.WorkflowDetailPage />) },
            { path: PATHS.hubspotOauthCallback, ...lazyScreen(load.hubspotCallback, (m) => <m.HubspotCallbackPage />) },
            guarded(adminGuard, [
              {
                element: <RouteTabs label="Admin" tabs={ADMIN_TABS} resolveActive={activeAdminTab} />,
                children: [
                  { path: PATHS.admin.workspace, ...workspaceSettings },
                  // Unknown admin paths land on Workspace, whose tab the bar highlights for them.
                  { path: `${PATHS.admin.root}/*`, ...workspaceSettings },
                  { path: PATHS.admin.integrations, ...lazyScreen(load.integrations, (m) => <m.IntegrationsPage />) },
                  { path: PATHS.admin.webhook, ...lazyScreen(load.webhook, (m) => <m.WebhookPage />) },
                  { path: PATHS.admin.users, ...lazyScreen(load.users, (m) => <m.UsersPage />) },
                  { path: PATHS.admin.accounts, ...lazyScreen(load.accounts, (m) => <m.AccountsPage />) },
                  {
                    path: PATHS.admin.networkAllies,
                    ...lazyScreen(load.clientList, (m) => <m.ClientListPage key="allies" list="MAP_NETWORK" />),
                  },
                  {
                    path: PATHS.admin.jobChangesTracking,
                    ...lazyScreen(load.clientList, (m) => <m.ClientListPage key="tracked" list="TRACK_JOB_CHANGES" />),
                  },
                  { path: PATHS.admin.crmClients, ...lazyScreen(load.crmClients, (m) => <m.CrmClientsPage />) },
                ],
              },
            ]),
          ],
        },
      ]),
      guarded(signUpEntryGuard, [
        { path: PATHS.signUp.connect, ...lazyScreen(load.connect, (m) => <m.ConnectPage />) },
        { path: PATHS.signUp.registerInvite, ...lazyScreen(load.registerInvite, (m) => <m.RegisterInvitePage />) },
        // Accepting is the second stage of the invitee's registration: the same page, by either link.
        { path: PATHS.signUp.acceptInvite, ...lazyScreen(load.registerInvite, (m) => <m.RegisterInvitePage />) },
      ]),
      guarded(createDetailsGuard, [
        { path: PATHS.signUp.createDetails, ...lazyScreen(load.createDetails, (m) => <m.CreateDetailsPage />) },
      ]),
      {
        path: PATHS.signUp.domainsNotWhitelisted,
        ...lazyScreen(load.domainsNotWhitelisted, (m) => <m.DomainsNotWhitelistedPage />),
      },
      guarded(bookADemoGuard, [
        { path: PATHS.signUp.bookADemo, ...lazyScreen(load.bookADemo, (m) => <m.BookADemoPage />) },
      ]),
      guarded(onboardingGuard, [
        { path: PATHS.signUp.sync, ...lazyScreen(load.sync, (m) => <m.SyncPage />) },
        { path: PATHS.signUp.importAccounts, ...lazyScreen(load.importAccounts, (m) => <m.ImportAccountsPage />) },
        {
          path: PATHS.signUp.importAccountsUpload,
          ...lazyScreen(load.uploadAccounts, (m) => <m.UploadAccountsPage />),
        },
        { path: PATHS.signUp.targetingScheme, ...lazyScreen(load.targetingScheme, (m) => <m.TargetingSchemePage />) },
        { path: PATHS.signUp.importClients, ...lazyScreen(load.importClients, (m) => <m.ImportClientsPage />) },
        { path: PATHS.signUp.importClientsUpload, ...lazyScreen(load.uploadClients, (m) => <m.UploadClientsPage />) },
      ]),
      guarded(inviteTeammatesGuard, [
        { path: PATHS.signUp.inviteTeammates, ...lazyScreen(load.inviteTeammates, (m) => <m.InviteTeammatesPage />) },
      ]),
    ],
  },
  // What no route matches: the error screen, as the data router's error element showed it.
  { path: '*', element: <ErrorScreen /> },
];

/** The routes at the router's location (BrowserRouter in the app, MemoryRouter in tests). */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  return <RouteErrorBoundary location={location}>{element}</RouteErrorBoundary>;
}
