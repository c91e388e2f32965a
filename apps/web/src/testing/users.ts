import type { TMe } from '@warmpath/shared';

// The signed-in users of the web tests, apart from the whole app's harness (renderApp.tsx): a test of
// plain functions that imports them does not load the router and its screens, whose imports could
// then still be loading as the test file ends.

export const member: TMe = {
  id: '7a8f8f5e-3b1e-4f6a-9f57-2f3f4a5b6c7d',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@engines.example',
  avatar: null,
  role: 'member',
  workspaceId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  hasCompletedOnboarding: true,
  onboardingStep: 'ACCOUNTS_IMPORT_DONE',
  isGoogleConnected: true,
  googleAccountEmail: 'ada@engines.example',
  isLinkedinConnected: true,
  isHubspotConnected: false,
  isSlackConnected: false,
  isWebhookConnected: false,
  webhookUrl: null,
  isTargetedAccountsSet: true,
};
export const admin: TMe = { ...member, role: 'admin' };
