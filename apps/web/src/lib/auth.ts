import {
  REGISTRATION_PROCESSES,
  type RegistrationProcess,
  SESSION_COOKIE_DAYS,
  type TPublicConfig,
} from '@warmpath/shared';
import Cookies from 'js-cookie';
import type { UserManager, UserProfile } from 'oidc-client-ts';
import { setAccessTokenProvider } from './api.ts';
import { STORED_USER_PREFIX, storedUserKeys } from './storedUser.ts';

export const AUTH_CALLBACK_PATH = '/auth/callback';
const REGISTRATION_STORAGE_KEY = 'registrationProcess';
const USER_ID_COOKIE = 'userId';

// The sign-in runs on oidc-client-ts, loaded only when it is needed: a sign-in or sign-out, the
// identity provider's return, a token to renew (issue 26: it was a fifth of every page's first
// script). Until then the signed-in user is read where the library keeps it.

/** The signed-in user as oidc-client-ts stores it (its User's storage string), as far as the app reads it. */
export type StoredUser = {
  readonly access_token: string;
  readonly refresh_token?: string;
  /** Seconds since the epoch; none means the token does not expire. */
  readonly expires_at?: number;
  readonly profile: UserProfile;
};

/** Where oidc-client-ts keeps the user: its WebStorageStateStore's prefix and its UserManager's key. */
export function storedUserKey(config: TPublicConfig): string {
  return `${STORED_USER_PREFIX}${config.oidc.authority}:${config.oidc.clientId}`;
}

/** What local storage holds under `key` as a JSON object; null when absent or not an object. */
function readStoredObject(key: string): object | null {
  const raw = window.localStorage.getItem(key);
  if (raw === null) return null;
  try {
    const stored: unknown = JSON.parse(raw);
    return typeof stored === 'object' && stored !== null ? stored : null;
  } catch {
    return null;
  }
}

export function readStoredUser(config: TPublicConfig): StoredUser | null {
  return readStoredUserAt(storedUserKey(config));
}

/**
 * The stored sign-in, read before the configuration that names its key has arrived (the first script's
 * early calls): null when there is none, or several (then which one counts is the configuration's to say).
 */
export function readOnlyStoredUser(): StoredUser | null {
  const keys = storedUserKeys();
  return keys.length === 1 && keys[0] !== undefined ? readStoredUserAt(keys[0]) : null;
}

function readStoredUserAt(key: string): StoredUser | null {
  const stored = readStoredObject(key);
  if (stored === null) return null;
  if (!('access_token' in stored) || typeof stored.access_token !== 'string') return null;
  if (!('profile' in stored) || typeof stored.profile !== 'object' || stored.profile === null) return null;
  const refreshToken = 'refresh_token' in stored ? stored.refresh_token : undefined;
  const expiresAt = 'expires_at' in stored ? stored.expires_at : undefined;
  return {
    access_token: stored.access_token,
    refresh_token: typeof refreshToken === 'string' ? refreshToken : undefined,
    expires_at: typeof expiresAt === 'number' ? expiresAt : undefined,
    // The identity provider's claims, as the library hands them over: it does not check them either.
    profile: stored.profile as UserProfile,
  };
}

/** Seconds until the access token expires, as oidc-client-ts counts them (User.expires_in). */
function expiresIn(user: { readonly expires_at?: number }): number | undefined {
  return user.expires_at === undefined ? undefined : user.expires_at - Math.floor(Date.now() / 1000);
}

/** As oidc-client-ts's User.expired (a token without an expiry never is), or will be within `marginSeconds`. */
export function isExpired(user: { readonly expires_at?: number }, marginSeconds = 0): boolean {
  const seconds = expiresIn(user);
  return seconds !== undefined && seconds <= marginSeconds;
}

/**
 * The sign-in of one configuration: the user stored at start, and the user manager, loaded once on
 * first need. `storedUser` is undefined when only the user manager can tell (the tests' own stores).
 */
export type AuthSession = {
  readonly storedUser: StoredUser | null | undefined;
  userManager(): Promise<UserManager>;
  /** Runs `listener` once the user manager is there, before anything is asked of it; returns the unsubscribe. */
  onUserManager(listener: (userManager: UserManager) => () => void): () => void;
};

export function authSession(load: () => Promise<UserManager>, storedUser: StoredUser | null | undefined): AuthSession {
  let loaded: UserManager | null = null;
  let loading: Promise<UserManager> | null = null;
  const listeners = new Map<(userManager: UserManager) => () => void, () => void>();
  const notify = (listener: (userManager: UserManager) => () => void, userManager: UserManager) =>
    listeners.set(listener, listener(userManager));
  return {
    storedUser,
    userManager() {
      loading ??= load().then(
        (userManager) => {
          loaded = userManager;
          for (const listener of listeners.keys()) notify(listener, userManager);
          return userManager;
        },
        (error: unknown) => {
          // A failed download (the network) is tried again on the next need.
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    onUserManager(listener) {
      listeners.set(listener, () => {});
      if (loaded) notify(listener, loaded);
      return () => {
        listeners.get(listener)?.();
        listeners.delete(listener);
      };
    },
  };
}

/** How long before the token's end oidc-client-ts renews it (its accessTokenExpiringNotificationTimeInSeconds). */
const RENEW_BEFORE_EXPIRY_S = 60;
/** The library is loaded this much earlier, so that its own timer renews the token when it always did. */
const LOAD_BEFORE_RENEWAL_S = 30;
/** setTimeout's longest delay; a later renewal just loads the library early. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Loads the user manager before the stored token is due for renewal: once loaded, oidc-client-ts
 * renews it itself (automaticSilentRenew), as it did when loaded at start.
 */
function scheduleRenewal(session: AuthSession, user: StoredUser | null): void {
  const seconds = user ? expiresIn(user) : undefined;
  // An expired token is not renewed ahead (nor was it by the library): the next call renews it.
  if (seconds === undefined || seconds <= 0) return;
  const delayMs = (seconds - RENEW_BEFORE_EXPIRY_S - LOAD_BEFORE_RENEWAL_S) * 1000;
  setTimeout(() => void session.userManager().catch(() => {}), Math.min(Math.max(delayMs, 0), MAX_TIMEOUT_MS));
}

/** The access token of the signed-in user, renewed with the refresh token once expired. */
function accessTokenFrom(config: TPublicConfig, session: AuthSession): () => Promise<string> {
  return async () => {
    // What UserManager.getUser reads, without loading the library for it.
    const user = readStoredUser(config);
    if (!user) throw new Error('Not signed in');
    if (!isExpired(user)) return user.access_token;
    if (!user.refresh_token) throw new Error('Session expired');
    const renewed = await (await session.userManager()).signinSilent();
    if (!renewed) throw new Error('Session expired');
    return renewed.access_token;
  };
}

/** The state carried through the identity provider: where to go once signed in. */
export type SignInState = { returnTo: string };

// What the browser kept is checked by hand rather than with zod, which every page would then load
// first (issue 26).

/** Reads the return path from the sign-in state; only same-origin paths are followed. */
export function readReturnTo(state: unknown): string {
  const returnTo = typeof state === 'object' && state !== null && 'returnTo' in state ? state.returnTo : undefined;
  return typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
}

/** A registration started before leaving for the identity provider (spec section 2). */
export type StoredRegistration = { process: RegistrationProcess; target: string };

function isRegistrationProcess(value: unknown): value is RegistrationProcess {
  return (REGISTRATION_PROCESSES as readonly unknown[]).includes(value);
}

export function readRegistration(): StoredRegistration | null {
  const stored = readStoredObject(REGISTRATION_STORAGE_KEY);
  if (stored === null || !('process' in stored) || !('target' in stored)) return null;
  const { process, target } = stored;
  return isRegistrationProcess(process) && typeof target === 'string' && target.startsWith('/')
    ? { process, target }
    : null;
}

export function storeRegistration(registration: StoredRegistration): void {
  window.localStorage.setItem(REGISTRATION_STORAGE_KEY, JSON.stringify(registration));
}

export function clearRegistration(): void {
  window.localStorage.removeItem(REGISTRATION_STORAGE_KEY);
}

const INVITE_ID_STORAGE_KEY = 'inviteId';

/** The invitation an invitee registers with, kept to pre-fill their targeting scheme (spec section 4). */
export function storeInviteId(inviteId: string): void {
  window.localStorage.setItem(INVITE_ID_STORAGE_KEY, inviteId);
}

export function readInviteId(): string | null {
  return window.localStorage.getItem(INVITE_ID_STORAGE_KEY);
}

export function clearInviteId(): void {
  window.localStorage.removeItem(INVITE_ID_STORAGE_KEY);
}

/** Set after every successful load of the current user (spec section 4), for 7 days. */
export function rememberUserId(userId: string): void {
  Cookies.set(USER_ID_COOKIE, userId, { expires: SESSION_COOKIE_DAYS, sameSite: 'lax' });
}

export function forgetUserId(): void {
  Cookies.remove(USER_ID_COOKIE);
}

let current: { config: TPublicConfig; session: AuthSession } | null = null;

/** One sign-in per configuration; its access token is what the API client sends. */
export function authSessionFor(config: TPublicConfig): AuthSession {
  if (current?.config !== config) {
    const storedUser = readStoredUser(config);
    const session = authSession(
      () => import('./userManager.ts').then(({ createUserManager }) => createUserManager(config)),
      storedUser,
    );
    setAccessTokenProvider(accessTokenFrom(config, session));
    scheduleRenewal(session, storedUser);
    current = { config, session };
  }
  return current.session;
}
