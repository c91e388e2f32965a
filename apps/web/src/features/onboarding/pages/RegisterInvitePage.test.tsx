import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TInviteInfo, TMe } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, member, renderApp } from '../../../testing/renderApp.tsx';

const inviteId = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const path = `/sign-up/register-invite/${inviteId}`;

const info: TInviteInfo = {
  inviteId,
  email: 'ada@engines.example',
  role: 'member',
  firstName: '',
  lastName: '',
  workspaceName: 'Analytical Engines',
  workspaceLogo: null,
  members: [
    { name: 'Charles Babbage', avatar: null },
    { name: 'Mary Somerville', avatar: 'https://avatars.example/mary.png' },
  ],
  status: 'pending',
};

const joined: TMe = {
  ...member,
  hasCompletedOnboarding: false,
  onboardingStep: 'SIGNUP_DONE',
  isGoogleConnected: false,
  isLinkedinConnected: false,
  isTargetedAccountsSet: false,
};

function stub(routes: Record<string, FakeRoute>) {
  return stubApi({ [`GET /teammates/query/invited-user-teammates/${inviteId}`]: Response.json(info), ...routes });
}

function progress(): string | null {
  return screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow');
}

describe('invitee registration', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('first signs the visitor in, remembering the member registration and the invitation', async () => {
    const api = stub({});
    const { userManager } = await renderApp(path, { signedIn: false });
    const signIn = vi.spyOn(userManager, 'signinRedirect').mockResolvedValue(undefined);
    expect(await screen.findByRole('button', { name: 'Connect with Google' })).toBeDefined();
    expect(progress()).toBe('10');
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Microsoft' }));

    await waitFor(() => expect(signIn).toHaveBeenCalledWith({ state: { returnTo: path } }));
    expect(JSON.parse(window.localStorage.getItem('registrationProcess') ?? 'null')).toEqual({
      process: 'member-registration',
      target: path,
    });
    expect(window.localStorage.getItem('inviteId')).toBe(inviteId);
    // Nothing about the invitation is asked before signing in.
    expect(api.calls).toHaveLength(0);
  });

  it('shows the workspace and its members, with the names from the ID token when the invitation has none', async () => {
    stub({});
    await renderApp(path, { signedIn: true, me: null });
    expect(await screen.findByRole('heading', { name: 'Analytical Engines' })).toBeDefined();
    expect(progress()).toBe('10');
    expect(screen.getByText('A')).toBeDefined();
    const members = within(screen.getByRole('region', { name: 'Already in the workspace' }));
    expect(members.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'CCharles Babbage',
      // An avatar shows the picture, without the initial.
      'Mary Somerville',
    ]);
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Ada');
    expect(screen.getByLabelText('Last name')).toHaveProperty('value', 'Lovelace');
  });

  it("prefers the invitation's names and gives the spec's messages on an incomplete submit", async () => {
    const api = stub({
      [`GET /teammates/query/invited-user-teammates/${inviteId}`]: Response.json({
        ...info,
        firstName: 'Augusta',
        lastName: 'King',
      }),
    });
    await renderApp(path, { signedIn: true, me: null });
    const firstName = await screen.findByLabelText('First name');
    expect(firstName).toHaveProperty('value', 'Augusta');
    expect(screen.getByLabelText('Last name')).toHaveProperty('value', 'King');
    fireEvent.change(firstName, { target: { value: ' ' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('First name is required')).toBeDefined();
    expect(screen.getByText('Last name is required')).toBeDefined();
    expect(screen.getByText('You must agree to the terms and conditions and the privacy policy.')).toBeDefined();
    expect(api.callsTo('POST /teammates/accept-invitation')).toHaveLength(0);
  });

  it('accepts, becomes the signed-in user and goes to sync without Google, keeping the invitation for targeting', async () => {
    window.localStorage.setItem(
      'registrationProcess',
      JSON.stringify({ process: 'member-registration', target: path }),
    );
    const api = stub({ 'POST /teammates/accept-invitation': Response.json(joined) });
    const { router, queryClient } = await renderApp(path, { signedIn: true, me: null });
    fireEvent.click(await screen.findByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'Sync your connections' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/sync');
    expect(api.callsTo('POST /teammates/accept-invitation')[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      inviteId,
    });
    expect(queryClient.getQueryData(['users', 'me'])).toEqual(joined);
    expect(window.localStorage.getItem('registrationProcess')).toBeNull();
    expect(window.localStorage.getItem('inviteId')).toBe(inviteId);
  });

  it('goes to / once accepted with Google already connected', async () => {
    const done: TMe = { ...member, isGoogleConnected: true };
    stub({ 'POST /teammates/accept-invitation': Response.json(done) });
    const { router } = await renderApp(path, { signedIn: true, me: null });
    fireEvent.click(await screen.findByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    // / leads on to the actions area for a user who is done onboarding.
    expect(await screen.findByRole('heading', { name: 'Welcome Ada!' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/actions');
  });

  it("shows the server's refusal of an expired invitation with a way to sign up", async () => {
    stub({
      'POST /teammates/accept-invitation': errorAnswer(
        410,
        'INVITATION_EXPIRED',
        'This invitation has expired. Ask your admin for a new one.',
      ),
    });
    const { router } = await renderApp(path, { signedIn: true, me: null });
    fireEvent.click(await screen.findByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This invitation has expired. Ask your admin for a new one.');
    fireEvent.click(within(alert).getByRole('link', { name: 'Go to sign-up' }));
    expect(await screen.findByRole('heading', { name: 'Get started' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/connect');
  });

  it('keeps the invitation usable when it was refused to another account', async () => {
    const refusal = 'This invitation is for ada@engines.example. Sign in with that address.';
    stub({ 'POST /teammates/accept-invitation': errorAnswer(403, 'WRONG_ACCOUNT', refusal) });
    await renderApp(path, { signedIn: true, me: null });
    fireEvent.click(await screen.findByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(within(alert).queryByRole('link', { name: 'Go to sign-up' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeDefined();
  });

  it("shows the server's message for an unknown invitation, and says when one was used or expired", async () => {
    stub({
      [`GET /teammates/query/invited-user-teammates/${inviteId}`]: errorAnswer(
        404,
        'NOT_FOUND',
        'Invitation not found',
      ),
    });
    await renderApp(path, { signedIn: true, me: null });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Invitation not found');
    expect(within(alert).getByRole('link', { name: 'Go to sign-up' }).getAttribute('href')).toBe('/sign-up/connect');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    cleanup();

    stub({
      [`GET /teammates/query/invited-user-teammates/${inviteId}`]: Response.json({ ...info, status: 'accepted' }),
    });
    await renderApp(path, { signedIn: true, me: null });
    expect((await screen.findByRole('alert')).textContent).toContain('This invitation has already been used.');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
  });

  it('sends a registered user on, as the onboarding rules say', async () => {
    const { router } = await renderApp(path, { signedIn: true, me: joined });
    expect(await screen.findByRole('heading', { name: 'Sync your connections' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/sync');
  });
});
