import { act, render, screen } from '@testing-library/react';
import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authSession, type StoredUser } from '../lib/auth.ts';
import { useAuth } from '../lib/useAuth.ts';
import { AuthProvider } from './AuthProvider.tsx';

const profile = { sub: 'idp|ada', iss: 'http://idp.test', aud: 'web', exp: 0, iat: 0, given_name: 'Ada' };

function testUserManager() {
  return new UserManager({
    authority: 'http://idp.test',
    client_id: 'web',
    redirect_uri: 'http://localhost/auth/callback',
    automaticSilentRenew: false,
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
}

function Probe() {
  const auth = useAuth();
  const state = auth.isLoading ? 'loading' : auth.isAuthenticated ? 'signed in' : 'signed out';
  return (
    <p>
      {state} {auth.user?.profile.given_name ?? ''}
    </p>
  );
}

function renderWith(storedUser: StoredUser | null | undefined, userManager = testUserManager()) {
  const load = vi.fn(async () => userManager);
  render(
    <AuthProvider session={authSession(load, storedUser)} skipSigninCallback onSigninCallback={async () => {}}>
      <Probe />
    </AuthProvider>,
  );
  return { load, userManager };
}

describe('AuthProvider', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts signed in from the stored user, without loading the user manager', () => {
    const { load } = renderWith({ access_token: 'token', profile, expires_at: Math.floor(Date.now() / 1000) + 600 });
    expect(screen.getByText('signed in Ada')).toBeTruthy();
    expect(load).not.toHaveBeenCalled();
  });

  it('starts signed out with no stored user or an expired one', () => {
    renderWith({ access_token: 'token', profile, expires_at: Math.floor(Date.now() / 1000) - 1 });
    expect(screen.getByText('signed out Ada')).toBeTruthy();
  });

  it('asks the user manager when only it can tell, and follows its events once loaded', async () => {
    const userManager = testUserManager();
    await userManager.storeUser(new User({ access_token: 'token', token_type: 'Bearer', profile }));
    const { load } = renderWith(undefined, userManager);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('signed in Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    await act(() => userManager.removeUser());
    expect(screen.getByText('signed out')).toBeTruthy();
  });
});
