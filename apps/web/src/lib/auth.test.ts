import type { TPublicConfig } from '@warmpath/shared';
import { User } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  authSession,
  clearRegistration,
  isExpired,
  readRegistration,
  readReturnTo,
  readStoredUser,
  storeRegistration,
} from './auth.ts';
import { createUserManager } from './userManager.ts';

describe('readReturnTo', () => {
  it('follows the path stored in the sign-in state', () => {
    expect(readReturnTo({ returnTo: '/sign-up/create-details' })).toBe('/sign-up/create-details');
  });

  it('defaults to / without a usable state', () => {
    expect(readReturnTo(undefined)).toBe('/');
    expect(readReturnTo({ returnTo: 42 })).toBe('/');
  });

  it('never leaves the origin', () => {
    expect(readReturnTo({ returnTo: 'https://evil.example/' })).toBe('/');
    expect(readReturnTo({ returnTo: '//evil.example/' })).toBe('/');
  });
});

describe('stored registration process', () => {
  afterEach(() => window.localStorage.clear());

  it('is stored, read back and cleared', () => {
    expect(readRegistration()).toBeNull();
    storeRegistration({ process: 'member-registration', target: '/sign-up/register-invite/abc' });
    expect(readRegistration()).toEqual({ process: 'member-registration', target: '/sign-up/register-invite/abc' });
    clearRegistration();
    expect(readRegistration()).toBeNull();
  });

  it('ignores what is not a registration process', () => {
    window.localStorage.setItem('registrationProcess', '{not json');
    expect(readRegistration()).toBeNull();
    window.localStorage.setItem('registrationProcess', JSON.stringify({ process: 'other', target: '/x' }));
    expect(readRegistration()).toBeNull();
    window.localStorage.setItem(
      'registrationProcess',
      JSON.stringify({ process: 'admin-registration', target: 'https://evil.example' }),
    );
    expect(readRegistration()).toBeNull();
  });
});

describe('the signed-in user, read without oidc-client-ts', () => {
  const config: TPublicConfig = {
    oidc: { authority: 'http://idp.test', clientId: 'web', audience: 'backend', extraQueryParams: {} },
    demoCalendarUrl: '',
    posthogKey: null,
  };
  const profile = { sub: 'idp|ada', iss: 'http://idp.test', aud: 'web', exp: 0, iat: 0, given_name: 'Ada' };
  afterEach(() => window.localStorage.clear());

  it('is the user the library stored, where it stored it', async () => {
    const userManager = createUserManager(config);
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    await userManager.storeUser(
      new User({
        access_token: 'token',
        refresh_token: 'refresh',
        token_type: 'Bearer',
        profile,
        expires_at: expiresAt,
      }),
    );
    expect(readStoredUser(config)).toEqual({
      access_token: 'token',
      refresh_token: 'refresh',
      expires_at: expiresAt,
      profile,
    });
    await userManager.removeUser();
    expect(readStoredUser(config)).toBeNull();
    userManager.stopSilentRenew();
  });

  it('is expired as the library counts it: at its expiry, never without one', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(isExpired({ expires_at: now + 5 })).toBe(false);
    expect(isExpired({ expires_at: now })).toBe(true);
    expect(isExpired({})).toBe(false);
    expect(new User({ access_token: '', token_type: '', profile, expires_at: now }).expired).toBe(true);
  });

  it('loads the user manager once, on first need, and tells those waiting for it first', async () => {
    const userManager = createUserManager(config);
    const load = vi.fn(async () => userManager);
    const session = authSession(load, null);
    const seen: string[] = [];
    const stop = session.onUserManager(() => {
      seen.push('loaded');
      return () => seen.push('stopped');
    });
    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([session.userManager(), session.userManager()]);
    expect(first).toBe(userManager);
    expect(second).toBe(userManager);
    expect(load).toHaveBeenCalledTimes(1);
    stop();
    expect(seen).toEqual(['loaded', 'stopped']);
    userManager.stopSilentRenew();
  });
});
