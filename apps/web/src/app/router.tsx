import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteTabs } from '../components/RouteTabs.tsx';
import { ActionsLayout } from '../features/actions/pages/ActionsLayout.tsx';
import { PastActionsPage } from '../features/actions/pages/PastActionsPage.tsx';
import { RecommendedActionsPage } from '../features/actions/pages/RecommendedActionsPage.tsx';
import { HubspotCallbackPage } from '../features/integrations/pages/HubspotCallbackPage.tsx';
import { IntegrationsPage } from '../features/integrations/pages/IntegrationsPage.tsx';
import { WebhookPage } from '../features/integrations/pages/WebhookPage.tsx';
import { AccountsPage } from '../features/lists/pages/AccountsPage.tsx';
import { ClientListPage } from '../features/lists/pages/ClientListPage.tsx';
import { CrmClientsPage } from '../features/lists/pages/CrmClientsPage.tsx';
import { NetworkPage } from '../features/network/pages/NetworkPage.tsx';
import { BookADemoPage } from '../features/onboarding/pages/BookADemoPage.tsx';
import { ConnectPage } from '../features/onboarding/pages/ConnectPage.tsx';
import { CreateDetailsPage } from '../features/onboarding/pages/CreateDetailsPage.tsx';
import { DomainsNotWhitelistedPage } from '../features/onboarding/pages/DomainsNotWhitelistedPage.tsx';
import { ImportAccountsPage } from '../features/onboarding/pages/ImportAccountsPage.tsx';
import { ImportClientsPage } from '../features/onboarding/pages/ImportClientsPage.tsx';
import { InviteTeammatesPage } from '../features/onboarding/pages/InviteTeammatesPage.tsx';
import { RegisterInvitePage } from '../features/onboarding/pages/RegisterInvitePage.tsx';
import { SyncPage } from '../features/onboarding/pages/SyncPage.tsx';
import { TargetingSchemePage } from '../features/onboarding/pages/TargetingSchemePage.tsx';
import { UploadAccountsPage } from '../features/onboarding/pages/UploadAccountsPage.tsx';
import { UploadClientsPage } from '../features/onboarding/pages/UploadClientsPage.tsx';
import { AllySharePage } from '../features/public/pages/AllySharePage.tsx';
import { PersonasPage } from '../features/targeting/pages/PersonasPage.tsx';
import { TargetedAccountsPage } from '../features/targeting/pages/TargetedAccountsPage.tsx';
import { UsersPage } from '../features/team/pages/UsersPage.tsx';
import { WorkflowDetailPage } from '../features/workflows/pages/WorkflowDetailPage.tsx';
import { WorkflowsPage } from '../features/workflows/pages/WorkflowsPage.tsx';
import { WorkspaceSettingsPage } from '../features/workspace/pages/WorkspaceSettingsPage.tsx';
import { PATHS } from '../lib/paths.ts';
import { AppLayout } from './AppLayout.tsx';
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

function guarded(guard: RouteGuard, children: RouteObject[]): RouteObject {
  return { element: <GuardedOutlet guard={guard} />, children };
}

const recommendedActions = <RecommendedActionsPage />;
const workspaceSettings = <WorkspaceSettingsPage />;

/** The spec's route table (section 2). Screens of later issues are their heading for now. */
export const routes: RouteObject[] = [
  {
    path: PATHS.root,
    element: <RootRoute />,
    errorElement: <ErrorScreen />,
    children: [
      { index: true, element: <Navigate to={PATHS.actions} replace /> },
      { path: PATHS.authCallback, element: <AuthCallbackPage /> },
      { path: PATHS.allyShare, element: <AllySharePage /> },
      guarded(privateRouteGuard, [
        {
          element: <AppLayout />,
          children: [
            {
              element: <ActionsLayout />,
              children: [
                { path: PATHS.actions, element: recommendedActions },
                { path: PATHS.recommendedActions, element: recommendedActions },
                // Keyed: each tab keeps its own filters and page.
                { path: PATHS.pastActions, element: <PastActionsPage key="past" tab="past" /> },
                { path: PATHS.pendingActions, element: <PastActionsPage key="pending" tab="pending" /> },
                { path: PATHS.skippedActions, element: <PastActionsPage key="skipped" tab="skipped" /> },
              ],
            },
            { path: PATHS.network, element: <NetworkPage /> },
            {
              element: <RouteTabs label="Targeting" tabs={PROFILE_TABS} resolveActive={activeProfileTab} />,
              children: [
                { path: PATHS.personas, element: <PersonasPage /> },
                { path: PATHS.targetedAccounts, element: <TargetedAccountsPage /> },
              ],
            },
            { path: PATHS.workflows, element: <WorkflowsPage /> },
            { path: `${PATHS.workflows}/:id`, element: <WorkflowDetailPage /> },
            { path: PATHS.hubspotOauthCallback, element: <HubspotCallbackPage /> },
            guarded(adminGuard, [
              {
                element: <RouteTabs label="Admin" tabs={ADMIN_TABS} resolveActive={activeAdminTab} />,
                children: [
                  { path: PATHS.admin.workspace, element: workspaceSettings },
                  // Unknown admin paths land on Workspace, whose tab the bar highlights for them.
                  { path: `${PATHS.admin.root}/*`, element: workspaceSettings },
                  { path: PATHS.admin.integrations, element: <IntegrationsPage /> },
                  { path: PATHS.admin.webhook, element: <WebhookPage /> },
                  { path: PATHS.admin.users, element: <UsersPage /> },
                  { path: PATHS.admin.accounts, element: <AccountsPage /> },
                  { path: PATHS.admin.networkAllies, element: <ClientListPage key="allies" list="MAP_NETWORK" /> },
                  {
                    path: PATHS.admin.jobChangesTracking,
                    element: <ClientListPage key="tracked" list="TRACK_JOB_CHANGES" />,
                  },
                  { path: PATHS.admin.crmClients, element: <CrmClientsPage /> },
                ],
              },
            ]),
          ],
        },
      ]),
      guarded(signUpEntryGuard, [
        { path: PATHS.signUp.connect, element: <ConnectPage /> },
        { path: PATHS.signUp.registerInvite, element: <RegisterInvitePage /> },
        // Accepting is the second stage of the invitee's registration: the same page, by either link.
        { path: PATHS.signUp.acceptInvite, element: <RegisterInvitePage /> },
      ]),
      guarded(createDetailsGuard, [{ path: PATHS.signUp.createDetails, element: <CreateDetailsPage /> }]),
      { path: PATHS.signUp.domainsNotWhitelisted, element: <DomainsNotWhitelistedPage /> },
      guarded(bookADemoGuard, [{ path: PATHS.signUp.bookADemo, element: <BookADemoPage /> }]),
      guarded(onboardingGuard, [
        { path: PATHS.signUp.sync, element: <SyncPage /> },
        { path: PATHS.signUp.importAccounts, element: <ImportAccountsPage /> },
        { path: PATHS.signUp.importAccountsUpload, element: <UploadAccountsPage /> },
        { path: PATHS.signUp.targetingScheme, element: <TargetingSchemePage /> },
        { path: PATHS.signUp.importClients, element: <ImportClientsPage /> },
        { path: PATHS.signUp.importClientsUpload, element: <UploadClientsPage /> },
      ]),
      guarded(inviteTeammatesGuard, [{ path: PATHS.signUp.inviteTeammates, element: <InviteTeammatesPage /> }]),
    ],
  },
];

export const router = createBrowserRouter(routes);
