import {
  REGISTRATION_PROCESSES,
  type RegistrationProcess,
  SESSION_COOKIE_DAYS,
  type TPublicConfig,
} from '@warmpath/shared';
import Cookies from 'js-cookie';
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { setAccessTokenProvider } from './api.ts';

export const AUTH_CALLBACK_PATH = '/auth/callback';
const SCOPE = 'openid profile email offline_access';
const REGISTRATION_STORAGE_KEY = 'registrationProcess';
const USER_ID_COOKIE = 'userId';

/** OpenID Connect, authorization code with PKCE, against the provider the server names. */
function createUserManager(config: TPublicConfig): UserManager {
  const { origin } = window.location;
  return new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    redirect_uri: `${origin}${AUTH_CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    scope: SCOPE,
    extraQueryParams: config.oidc.extraQueryParams,
    // Shared by every tab, so a link opened in a new tab stays signed in.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
  });
}

/** The access token of the signed-in user, renewed with the refresh token once expired. */
function accessTokenFrom(userManager: UserManager): () => Promise<string> {
  return async () => {
    const user = await userManager.getUser();
    if (!user) throw new Error('Not signed in');
    if (!user.expired) return user.access_token;
    if (!user.refresh_token) throw new Error('Session expired');
    const renewed = await userManager.signinSilent();
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
  const raw = window.localStorage.getItem(REGISTRATION_STORAGE_KEY);
  if (raw === null) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null || !('process' in stored) || !('target' in stored)) return null;
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

let current: { config: TPublicConfig; userManager: UserManager } | null = null;

/** One user manager per configuration; its access token is what the API client sends. */
export function userManagerFor(config: TPublicConfig): UserManager {
  if (current?.config !== config) {
    const userManager = createUserManager(config);
    setAccessTokenProvider(accessTokenFrom(userManager));
    current = { config, userManager };
  }
  return current.userManager;
}
