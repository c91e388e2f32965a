// Every user-facing message of the product specification (sections 2, 5 and 8), exact texts, typos included.

export const MESSAGES = {
  backendDown: 'Our server is down, please refresh the page and try again. We apologize for the inconvenience.',
  unexpectedError: 'Unexpected Application Error!',
  mustConnectGoogle: 'You must connect your Google account in order to send emails.',
  domainsNotWhitelisted: 'The following domains are not whitelisted',

  clientAdded: 'Client Added!',
  clientAddFailed: 'Addition Failure',
  clientsUploaded: 'Clients uploaded!',
  clientsUploadFailed: 'Upload failed...',
  accountsUploaded: 'Accounts uploaded!',
  accountsUploadFailed: 'Upload failed. Make sure all fields are filled.',
  crmCustomersUploaded: 'CRM custommers uploaded!',
  userInvited: 'User invited!',
  usersInvited: 'Users invited!',
  userRemoved: 'User removed.',
  roleUpdated: 'Role updated.',
  updateFailed: 'Update failed...',
  workspaceUpdated: 'Workspace updated!',
  warmIntroSent: 'Warm intro sent!',
  warmIntroFailed: 'Failed to send warm intro...',
  csvDownloadStarted: 'CSV Download started.',
  csvDownloadFinished: 'CSV Download finished successfully!.',
  csvExportFailed: 'Failed to export CSV',
  assigneesUpdated: 'Account assignees updated!',
  assigneesFailed: 'Failed to change assignees...',
  personaCreated: 'Persona Created!',
  targetedAccountsUpdated: 'Targeted Accounts updated!',
  exclusionListsUpdated: 'Exclusion lists updated!',
  integrationRemoved: 'Integration removed!',
  slackConnectFailed: 'Failed to connect Slack',
  slackDisconnected: 'Slack disconnected successfully',
  slackDisconnectFailed: 'Failed to disconnect Slack',
  webhookDisconnected: 'Webhook disconnected successfully',
  webhookDisconnectFailed: 'Failed to disconnect webhook',
  recommendationCompleted: 'Recommendation moved to past actions.',
  recommendationCompleteFailed: 'Failed to move recommendation to past actions.',
  actionSkipped: 'Action skipped.',
  actionSkipFailed: 'Failed to skip action.',
  requestSent: 'Request sent!',
  messageSent: 'Message sent!',
  requestFailed: 'Request failed..',
  teammateNotFound: 'Teammate not found',
  hubspotIntegrationStarted: 'Hubspot integration process started in background.',
  // Not in the spec: the thank-you note of the actions' outcome loop.
  thankYouSent: 'Thank-you sent!',
  thankYouFailed: 'Failed to send thank-you...',

  deleteAllyConfirm: 'Are you sure you want to delete this ally?',
  deleteClientConfirm: 'Are you sure you want to delete this client?',
  deletePersonaConfirm: 'Are you sure you want to delete this persona?',
  teammatesFetchError: 'Error occured while fetching teammates. Error message: ',
} as const;

/**
 * Not in the spec: a consent approved in another browser than the one whose Connect button started it
 * (a forwarded consent link). Nothing is connected; the page the provider returns to says so.
 */
export const OTHER_BROWSER_MESSAGES = {
  google:
    'This Google connection was started in another browser, so nothing was connected. Connect again from this browser.',
  slack:
    'This Slack connection was started in another browser, so nothing was connected. Connect again from this browser.',
  hubspot:
    'This HubSpot connection was started in another browser, so nothing was connected. Connect again from this browser.',
} as const;

/** Messages thrown by the web app's gateways when a call fails and the server gave no message. */
export const GATEWAY_ERRORS = {
  fetchAccounts: 'Failed to fetch accounts',
  fetchAssignableUsers: 'Failed to fetch assignable account users',
  updateAssignees: 'Failed to update assigness.',
  deleteAccount: 'Error happened while deleting account',
  fetchPastActions: 'Failed to fetch past actions',
  fetchActionsFilters: 'Failed to fetch actions filters',
  fetchClients: 'Failed to fetch clients',
  importClients: 'Failed to import clients',
  importClientsForJobTracking: 'Failed to import clients for job tracking',
  importClientsForNetworkMapping: 'Failed to import clients for network mapping',
  sendWarmIntro: 'Failed to send warm intro email',
  fetchReportCards: 'Failed to fetch network report cards data',
  fetchNetworkTable: 'Failed to fetch network table data',
  fetchNetworkFilters: 'Failed to fetch network filters',
  searchFilterOptions: 'Failed to search filter options',
  fetchWarmIntroModal: 'Failed to fetch warm intro modal data',
  fetchSuggestions: 'Error while fetching teammate suggestions',
  acceptInvite: 'Error while accepting invite',
  sendInvites: 'Error while sending invites',
  fetchUser: 'Failed to fetch user',
  fetchAllUsers: 'Failed to fetch all users',
  changeRole: 'Error happened while changing user role',
  registerAccount: 'Error happened while registering account',
  deleteUser: 'Error happened while deleting user',
  updateWorkspace: 'Failed to update workspace',
  fetchWorkspace: 'Failed to fetch my workspace',
  importCrmClients: 'Failed to import crm clients',
  saveHubspotToken: 'Failed to save Hubspot token response to the backend database',
  setWebhookUrl: 'Failed to set webhook URL',
  deleteWebhookUrl: 'Failed to delete webhook URL',
  fetchWorkflows: 'Failed to fetch workflows',
} as const;

/** Validation messages of spec section 5. */
export const VALIDATION = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email must be a valid email address',
  companyNameRequired: 'Company name is required',
  companyDomainRequired: 'Company domain is required',
  companyDomainInvalid: 'Company domain must be a valid domain (e.g., example.com)',
  linkedinRequired: 'Linkedin URL is required',
  linkedinInvalid: 'Linkedin URL must be a valid LinkedIn profile URL',
  domainRequired: 'At least one domain is required',
  termsRequired: 'You must agree to the terms and conditions and the privacy policy.',
  inviteEmailInvalid: 'Invalid email address!',
  maxTags: (max: number) => `Max ${max} tags`,
  // Not in the spec: the workspace's time zone (its daily recommendations run at 06:00 there).
  unknownTimeZone: 'Unknown time zone',
} as const;
