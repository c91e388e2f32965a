// Every route of the spec's route table (section 2), plus the sign-in callback and the refusal page.

export const PATHS = {
  root: '/',
  authCallback: '/auth/callback',
  actions: '/actions',
  recommendedActions: '/actions/recommended-actions',
  pastActions: '/actions/past-actions',
  pendingActions: '/actions/pending-actions',
  skippedActions: '/actions/skipped-actions',
  network: '/network',
  personas: '/profile/personas',
  targetedAccounts: '/profile/targeted-accounts',
  workflows: '/workflows',
  hubspotOauthCallback: '/hubspot-oauth-callback',
  /** A client ally's share page, opened from their e-mailed link without an account. */
  allyShare: '/share',
  admin: {
    root: '/admin',
    workspace: '/admin/workspace',
    users: '/admin/users',
    integrations: '/admin/integrations',
    webhook: '/admin/integrations/webhook',
    accounts: '/admin/accounts',
    networkAllies: '/admin/network-allies',
    jobChangesTracking: '/admin/job-changes-tracking',
    crmClients: '/admin/crm-clients',
  },
  signUp: {
    connect: '/sign-up/connect',
    bookADemo: '/sign-up/book-a-demo',
    createDetails: '/sign-up/create-details',
    domainsNotWhitelisted: '/sign-up/domains-not-whitelisted',
    sync: '/sign-up/sync',
    importAccounts: '/sign-up/import-accounts',
    importAccountsUpload: '/sign-up/import-accounts/upload',
    targetingScheme: '/sign-up/targeting-scheme',
    inviteTeammates: '/sign-up/invite-teammates',
    importClients: '/sign-up/import-clients',
    importClientsUpload: '/sign-up/import-clients/upload',
    acceptInvite: '/sign-up/accept-invite/:inviteId',
    registerInvite: '/sign-up/register-invite/:inviteId',
  },
} as const;

/**
 * Where the spec sends a user "to the main area" without naming the page: the actions area's first
 * tab, where the sidebar's Actions entry and the end of onboarding ('I'll do it later') lead too.
 */
export const MAIN_AREA = PATHS.recommendedActions;
