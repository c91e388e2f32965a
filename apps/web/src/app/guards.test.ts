import { describe, expect, it } from 'vitest';
import {
  adminGuard,
  bookADemoGuard,
  createDetailsGuard,
  type GuardInput,
  type GuardUser,
  inviteTeammatesGuard,
  onboardingGuard,
  onboardingRedirect,
  privateRouteGuard,
  signUpEntryGuard,
  unregisteredVisitorRedirect,
} from './guards.ts';

const newUser: GuardUser = {
  role: 'admin',
  hasCompletedOnboarding: false,
  onboardingStep: 'SIGNUP_DONE',
  isGoogleConnected: false,
  isLinkedinConnected: false,
  isTargetedAccountsSet: false,
};

const doneUser: GuardUser = {
  role: 'member',
  hasCompletedOnboarding: true,
  onboardingStep: 'ACCOUNTS_IMPORT_DONE',
  isGoogleConnected: true,
  isLinkedinConnected: true,
  isTargetedAccountsSet: true,
};

function input(overrides: Partial<GuardInput>): GuardInput {
  return { isAuthenticated: true, user: newUser, registration: null, pathname: '/actions', ...overrides };
}

const signedOut = { isAuthenticated: false, user: null };
const unregistered = { isAuthenticated: true, user: null };
const adminRegistration = { process: 'admin-registration', target: '/sign-up/create-details' } as const;
const memberRegistration = { process: 'member-registration', target: '/sign-up/register-invite/abc' } as const;

describe('onboardingRedirect', () => {
  it('sends a user who completed onboarding to /network', () => {
    expect(onboardingRedirect({ ...newUser, hasCompletedOnboarding: true })).toBe('/network');
  });

  it('sends a user at SIGNUP_DONE to sync', () => {
    expect(onboardingRedirect(newUser)).toBe('/sign-up/sync');
  });

  it('sends a user at EXTERNALS_DONE without LinkedIn to sync', () => {
    const user: GuardUser = { ...newUser, onboardingStep: 'EXTERNALS_DONE', isGoogleConnected: true };
    expect(onboardingRedirect(user)).toBe('/sign-up/sync');
  });

  it('sends a user at EXTERNALS_DONE with Google and LinkedIn to import-accounts', () => {
    const user: GuardUser = {
      ...newUser,
      onboardingStep: 'EXTERNALS_DONE',
      isGoogleConnected: true,
      isLinkedinConnected: true,
    };
    expect(onboardingRedirect(user)).toBe('/sign-up/import-accounts');
  });

  it('has no rule for a user past the accounts import who has not finished', () => {
    expect(onboardingRedirect({ ...newUser, onboardingStep: 'ACCOUNTS_IMPORT_DONE' })).toBeNull();
  });
});

describe('unregisteredVisitorRedirect', () => {
  it('sends a visitor with a stored registration process to its target', () => {
    expect(unregisteredVisitorRedirect({ isAuthenticated: false, registration: memberRegistration })).toBe(
      '/sign-up/register-invite/abc',
    );
    expect(unregisteredVisitorRedirect({ isAuthenticated: true, registration: adminRegistration })).toBe(
      '/sign-up/create-details',
    );
  });

  it('sends a visitor with an identity-provider session to create-details', () => {
    expect(unregisteredVisitorRedirect({ isAuthenticated: true, registration: null })).toBe('/sign-up/create-details');
  });

  it('sends anybody else to connect', () => {
    expect(unregisteredVisitorRedirect({ isAuthenticated: false, registration: null })).toBe('/sign-up/connect');
  });
});

describe('privateRouteGuard', () => {
  it('sends an unauthenticated visitor to connect', () => {
    expect(privateRouteGuard(input({ ...signedOut, pathname: '/network' }))).toBe('/sign-up/connect');
  });

  it('sends an unauthenticated visitor with a stored registration process to its target', () => {
    expect(privateRouteGuard(input({ ...signedOut, registration: memberRegistration }))).toBe(
      '/sign-up/register-invite/abc',
    );
  });

  it('sends a signed-in visitor who has not registered to create-details', () => {
    expect(privateRouteGuard(input(unregistered))).toBe('/sign-up/create-details');
  });

  it('never lets a visitor without a user stay, even when the stored target is the current page', () => {
    const registration = { process: 'admin-registration', target: '/network' } as const;
    expect(privateRouteGuard(input({ ...unregistered, registration, pathname: '/network' }))).toBe('/sign-up/connect');
  });

  it('sends a returning user back to the onboarding step the rules name', () => {
    expect(privateRouteGuard(input({ pathname: '/network' }))).toBe('/sign-up/sync');
    const externalsDone: GuardUser = { ...newUser, onboardingStep: 'EXTERNALS_DONE', isLinkedinConnected: true };
    expect(privateRouteGuard(input({ user: { ...externalsDone, isGoogleConnected: true } }))).toBe(
      '/sign-up/import-accounts',
    );
  });

  it('lets in a user who completed onboarding, or whose step no rule redirects', () => {
    expect(privateRouteGuard(input({ user: doneUser, pathname: '/profile/personas' }))).toBeNull();
    const accountsImported: GuardUser = { ...newUser, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    expect(privateRouteGuard(input({ user: accountsImported, pathname: '/network' }))).toBeNull();
  });

  it('sends the restricted role to /actions, and lets it stay there', () => {
    const restricted: GuardUser = { ...doneUser, role: 'restricted' };
    expect(privateRouteGuard(input({ user: restricted, pathname: '/network' }))).toBe('/actions');
    expect(privateRouteGuard(input({ user: restricted, pathname: '/actions' }))).toBeNull();
    expect(privateRouteGuard(input({ user: restricted, pathname: '/actions/past-actions' }))).toBeNull();
  });
});

describe('signUpEntryGuard', () => {
  it('shows the page to a visitor without a registered user', () => {
    expect(signUpEntryGuard(input({ ...signedOut, pathname: '/sign-up/connect' }))).toBeNull();
    expect(signUpEntryGuard(input({ ...unregistered, pathname: '/sign-up/connect' }))).toBeNull();
  });

  it('sends a registered user on by the onboarding rules', () => {
    expect(signUpEntryGuard(input({ pathname: '/sign-up/connect' }))).toBe('/sign-up/sync');
    expect(signUpEntryGuard(input({ user: doneUser, pathname: '/sign-up/connect' }))).toBe('/network');
  });

  it('sends a registered user no onboarding rule covers to the main area', () => {
    const user: GuardUser = { ...newUser, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    expect(signUpEntryGuard(input({ user, pathname: '/sign-up/connect' }))).toBe('/actions/recommended-actions');
  });
});

describe('createDetailsGuard', () => {
  const pathname = '/sign-up/create-details';

  it('shows the form to a signed-in visitor who has not registered', () => {
    expect(createDetailsGuard(input({ ...unregistered, pathname }))).toBeNull();
    expect(createDetailsGuard(input({ ...unregistered, registration: adminRegistration, pathname }))).toBeNull();
  });

  it('sends a visitor without an identity-provider session to connect', () => {
    expect(createDetailsGuard(input({ ...signedOut, pathname }))).toBe('/sign-up/connect');
    expect(createDetailsGuard(input({ ...signedOut, registration: adminRegistration, pathname }))).toBe(
      '/sign-up/connect',
    );
  });

  it('sends a visitor in an invitee registration back to it', () => {
    expect(createDetailsGuard(input({ ...unregistered, registration: memberRegistration, pathname }))).toBe(
      '/sign-up/register-invite/abc',
    );
  });

  it('sends a registered user on by the onboarding rules', () => {
    expect(createDetailsGuard(input({ pathname }))).toBe('/sign-up/sync');
    expect(createDetailsGuard(input({ user: doneUser, pathname }))).toBe('/network');
  });
});

describe('onboardingGuard', () => {
  const pathname = '/sign-up/sync';

  it('needs a registered user', () => {
    expect(onboardingGuard(input({ ...signedOut, pathname }))).toBe('/sign-up/connect');
    expect(onboardingGuard(input({ ...unregistered, pathname }))).toBe('/sign-up/create-details');
  });

  it('lets a user who is still onboarding in', () => {
    expect(onboardingGuard(input({ pathname }))).toBeNull();
    expect(onboardingGuard(input({ user: { ...doneUser, isLinkedinConnected: false }, pathname }))).toBeNull();
    expect(onboardingGuard(input({ user: { ...doneUser, onboardingStep: 'EXTERNALS_DONE' }, pathname }))).toBeNull();
  });

  it('sends a user with onboarding complete, Google, LinkedIn and ACCOUNTS_IMPORT_DONE to the main area', () => {
    expect(onboardingGuard(input({ user: doneUser, pathname }))).toBe('/actions/recommended-actions');
  });
});

describe('inviteTeammatesGuard', () => {
  const pathname = '/sign-up/invite-teammates';

  it('sends a user whose step is not ACCOUNTS_IMPORT_DONE back to import-accounts', () => {
    expect(inviteTeammatesGuard(input({ pathname }))).toBe('/sign-up/import-accounts');
    expect(inviteTeammatesGuard(input({ user: { ...newUser, onboardingStep: 'EXTERNALS_DONE' }, pathname }))).toBe(
      '/sign-up/import-accounts',
    );
  });

  it('lets a user at ACCOUNTS_IMPORT_DONE in', () => {
    expect(
      inviteTeammatesGuard(input({ user: { ...newUser, onboardingStep: 'ACCOUNTS_IMPORT_DONE' }, pathname })),
    ).toBe(null);
  });

  it('keeps the onboarding guard rules', () => {
    expect(inviteTeammatesGuard(input({ ...signedOut, pathname }))).toBe('/sign-up/connect');
    expect(inviteTeammatesGuard(input({ user: doneUser, pathname }))).toBe('/actions/recommended-actions');
  });
});

describe('adminGuard', () => {
  it('lets an admin in', () => {
    expect(adminGuard(input({ user: { ...doneUser, role: 'admin' }, pathname: '/admin/users' }))).toBeNull();
  });

  it('sends members, viewers and other roles to the main area', () => {
    for (const role of ['member', 'viewer', 'restricted']) {
      expect(adminGuard(input({ user: { ...doneUser, role }, pathname: '/admin/users' }))).toBe(
        '/actions/recommended-actions',
      );
    }
  });
});

describe('bookADemoGuard', () => {
  const pathname = '/sign-up/book-a-demo';

  it('sends a user without Google to sync', () => {
    expect(bookADemoGuard(input({ pathname }))).toBe('/sign-up/sync');
  });

  it('sends a user with Google, targeted accounts and onboarding complete to the main page', () => {
    expect(bookADemoGuard(input({ user: doneUser, pathname }))).toBe('/');
  });

  it('shows the page otherwise', () => {
    const googleOnly: GuardUser = { ...newUser, isGoogleConnected: true };
    expect(bookADemoGuard(input({ user: googleOnly, pathname }))).toBeNull();
    expect(bookADemoGuard(input({ user: { ...doneUser, isTargetedAccountsSet: false }, pathname }))).toBeNull();
    expect(bookADemoGuard(input({ user: { ...doneUser, hasCompletedOnboarding: false }, pathname }))).toBeNull();
  });

  it('needs a registered user', () => {
    expect(bookADemoGuard(input({ ...signedOut, pathname }))).toBe('/sign-up/connect');
  });
});
