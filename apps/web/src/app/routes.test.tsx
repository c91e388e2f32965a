import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { TMe } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../lib/api.ts';
import { errorAnswer } from '../testing/fakeApi.ts';
import { admin, member, renderApp } from '../testing/renderApp.tsx';

describe('routes', () => {
  beforeEach(() => {
    setAccessTokenProvider(async () => 'token');
  });

  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('sends a signed-out visitor from / to the connect page', async () => {
    const { router } = await renderApp('/', { signedIn: false });
    expect(await screen.findByRole('button', { name: 'Connect with Google' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft' })).toBeDefined();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('5');
    expect(router.state.location.pathname).toBe('/sign-up/connect');
  });

  it('shows the generic error screen on an unmatched route, with a way back home', async () => {
    const { router } = await renderApp('/no-such-page', { signedIn: false });
    expect(await screen.findByText('Unexpected Application Error!')).toBeDefined();
    fireEvent.click(screen.getByRole('link', { name: 'Back to home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/connect'));
  });

  it('shows the admin area to an admin, with Integrations highlighted on the webhook page', async () => {
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    expect(await screen.findByRole('heading', { name: 'Webhook' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Integrations' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin/workspace');
  });

  it('shows the next screen when a link leads from one screen to another in the same place', async () => {
    const { router } = await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    expect(await screen.findByRole('heading', { name: 'Webhook' })).toBeDefined();
    await router.navigate('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeDefined();
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
  });

  it('sends a member away from the admin area and hides the Admin entry', async () => {
    const { router } = await renderApp('/admin/users', { signedIn: true, me: member });
    expect(await screen.findByRole('heading', { name: 'Welcome Ada!' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/actions/recommended-actions');
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Actions' }).getAttribute('href')).toBe('/actions/recommended-actions');
    expect(screen.getByRole('link', { name: 'Leads' }).getAttribute('href')).toBe('/network');
    expect(screen.getByRole('link', { name: 'Targeting' }).getAttribute('href')).toBe('/profile/personas');
  });

  it('sends a signed-in visitor who has not registered to create-details, pre-filled from the ID token', async () => {
    const { router } = await renderApp('/network', { signedIn: true, me: null });
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/create-details');
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Ada');
    expect(screen.getByLabelText('Last name')).toHaveProperty('value', 'Lovelace');
    expect(screen.getByText('engines.example')).toBeDefined();
  });

  it('shows the validation messages of the spec on an empty submit', async () => {
    await renderApp('/sign-up/create-details', { signedIn: true, me: null });
    fireEvent.change(await screen.findByLabelText('First name'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove engines.example' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('First name is required')).toBeDefined();
    expect(screen.getByText('Company name is required')).toBeDefined();
    expect(screen.getByText('At least one domain is required')).toBeDefined();
    expect(screen.getByText('You must agree to the terms and conditions and the privacy policy.')).toBeDefined();
  });

  it('goes to the dedicated page with the server message when the domains are not whitelisted', async () => {
    const refusal = 'The following domains are not whitelisted: engines.example';
    const fetchMock = vi.fn(async () => errorAnswer(403, 'DOMAIN_NOT_WHITELISTED', refusal));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = await renderApp('/sign-up/create-details', { signedIn: true, me: null });
    fireEvent.change(await screen.findByLabelText('Company name'), { target: { value: 'Analytical Engines' } });
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(refusal)).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/domains-not-whitelisted');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/users/command/create-workspace-admin',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ Authorization: 'Bearer token' }) }),
    );
  });

  it('registers, clears the stored registration process and goes to sync', async () => {
    window.localStorage.setItem(
      'registrationProcess',
      JSON.stringify({ process: 'admin-registration', target: '/sign-up/create-details' }),
    );
    const created: TMe = {
      ...admin,
      hasCompletedOnboarding: false,
      onboardingStep: 'SIGNUP_DONE',
      isGoogleConnected: false,
      isLinkedinConnected: false,
      isTargetedAccountsSet: false,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(created, { status: 201 })),
    );
    const { router } = await renderApp('/sign-up/create-details', { signedIn: true, me: null });
    fireEvent.change(await screen.findByLabelText('Company name'), { target: { value: 'Analytical Engines' } });
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Sync your connections' })).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/sync'));
    expect(window.localStorage.getItem('registrationProcess')).toBeNull();
  });
});
