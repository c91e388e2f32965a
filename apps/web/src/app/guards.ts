import type { TMe } from '@warmpath/shared';
import type { StoredRegistration } from '../lib/auth.ts';
import { isUnderPath } from '../lib/isUnderPath.ts';
import { MAIN_AREA, PATHS } from '../lib/paths.ts';
import { isRestrictedRole } from '../lib/roles.ts';

// The redirect and guard rules of spec section 2, as pure functions: each returns where to send the
// visitor, or null to let the route render.

/** What the rules read of the current user; the role is any string so an unknown role can be judged. */
export type GuardUser = Pick<
  TMe,
  'hasCompletedOnboarding' | 'onboardingStep' | 'isGoogleConnected' | 'isLinkedinConnected' | 'isTargetedAccountsSet'
> & { role: string };

export type GuardInput = {
  /** An identity-provider session exists. */
  isAuthenticated: boolean;
  /** The registered user, or null (not signed in, or signed in but not registered). */
  user: GuardUser | null;
  registration: StoredRegistration | null;
  pathname: string;
};

export type RouteGuard = (input: GuardInput) => string | null;

const ADMIN_ROLE: string = 'admin';

/** Where a registered user belongs while onboarding; null when no rule applies. */
export function onboardingRedirect(user: GuardUser): string | null {
  if (user.hasCompletedOnboarding) return PATHS.network;
  if (user.onboardingStep === 'SIGNUP_DONE') return PATHS.signUp.sync;
  if (user.onboardingStep === 'EXTERNALS_DONE') {
    if (!user.isLinkedinConnected) return PATHS.signUp.sync;
    if (user.isGoogleConnected) return PATHS.signUp.importAccounts;
  }
  return null;
}

/** A visitor without a registered user: back to the registration in progress, else to sign-up. */
export function unregisteredVisitorRedirect(input: Pick<GuardInput, 'isAuthenticated' | 'registration'>): string {
  if (input.registration) return input.registration.target;
  return input.isAuthenticated ? PATHS.signUp.createDetails : PATHS.signUp.connect;
}

/** For pages that need a registered user: where to send a visitor without one. */
function withoutUserRedirect(input: GuardInput): string {
  const target = unregisteredVisitorRedirect(input);
  return target === input.pathname ? PATHS.signUp.connect : target;
}

/** Sign-up entry pages (connect, invitee registration): a registered user is sent on. */
export const signUpEntryGuard: RouteGuard = ({ user }) => (user ? (onboardingRedirect(user) ?? MAIN_AREA) : null);

/** Create account: needs an identity-provider session and no registered user yet. */
export const createDetailsGuard: RouteGuard = (input) => {
  if (input.user) return onboardingRedirect(input.user) ?? MAIN_AREA;
  const target = unregisteredVisitorRedirect(input);
  if (target !== input.pathname) return target;
  return input.isAuthenticated ? null : PATHS.signUp.connect;
};

/**
 * The main area: signed in and registered; a user still onboarding goes back to the step the rules
 * name; the restricted role only sees the actions area.
 */
export const privateRouteGuard: RouteGuard = (input) => {
  if (!input.user) return withoutUserRedirect(input);
  if (!input.user.hasCompletedOnboarding) {
    const step = onboardingRedirect(input.user);
    if (step) return step;
  }
  if (isRestrictedRole(input.user.role) && !isUnderPath(input.pathname, PATHS.actions)) return PATHS.actions;
  return null;
};

function hasFinishedOnboarding(user: GuardUser): boolean {
  return (
    user.hasCompletedOnboarding &&
    user.isGoogleConnected &&
    user.isLinkedinConnected &&
    user.onboardingStep === 'ACCOUNTS_IMPORT_DONE'
  );
}

/** Onboarding steps after sign-up: signed in and registered; a user who is done goes to the main area. */
export const onboardingGuard: RouteGuard = (input) => {
  if (!input.user) return withoutUserRedirect(input);
  return hasFinishedOnboarding(input.user) ? MAIN_AREA : null;
};

/** Invite teammates comes after the accounts import. */
export const inviteTeammatesGuard: RouteGuard = (input) => {
  const target = onboardingGuard(input);
  if (target !== null || !input.user) return target;
  return input.user.onboardingStep === 'ACCOUNTS_IMPORT_DONE' ? null : PATHS.signUp.importAccounts;
};

/** The admin area; nested in the private-route guard. */
export const adminGuard: RouteGuard = ({ user }) => (user?.role === ADMIN_ROLE ? null : MAIN_AREA);

/** The demo-booking page: needs Google; a fully set-up user has nothing to book. */
export const bookADemoGuard: RouteGuard = (input) => {
  if (!input.user) return withoutUserRedirect(input);
  const { isGoogleConnected, isTargetedAccountsSet, hasCompletedOnboarding } = input.user;
  if (!isGoogleConnected) return PATHS.signUp.sync;
  if (isTargetedAccountsSet && hasCompletedOnboarding) return PATHS.root;
  return null;
};
