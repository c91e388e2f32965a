import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { TMe } from '@warmpath/shared';
import { InMemoryWebStorage, User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { AuthProvider } from 'react-oidc-context';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userKeys } from '../features/users/api.ts';
import { setAccessTokenProvider } from '../lib/api.ts';
import { renderWithMantine } from '../testing/render.tsx';
import { routes } from './router.tsx';

const profile = {
  iss: 'http://idp.test',
  aud: 'web',
  exp: 4_102_444_800,
  iat: 1_700_000_000,
  sub: 'idp|ada',
  email: 'ada@engines.example',
  given_name: 'Ada',
  family_name: 'Lovelace',
};

const member: TMe = {
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
  isLinkedinConnected: true,
  isHubspotConnected: false,
  isSlackConnected: false,
  isWebhookConnected: false,
  webhookUrl: null,
  isTargetedAccountsSet: true,
};
const admin: TMe = { ...member, role: 'admin' };

type Visitor = { signedIn: boolean; me?: TMe | null };

async function renderApp(path: string, visitor: Visitor) {
  const userManager = new UserManager({
    authority: 'http://idp.test',
    client_id: 'web',
    redirect_uri: 'http://localhost/auth/callback',
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  if (visitor.signedIn) {
    await userManager.storeUser(new User({ access_token: 'token', token_type: 'Bearer', profile }));
    queryClient.setQueryData(userKeys.me(), visitor.me ?? null);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderWithMantine(
    <QueryClientProvider client={queryClient}>
      <AuthProvider userManager={userManager} skipSigninCallback>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return router;
}

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
    const router = await renderApp('/', { signedIn: false });
    expect(await screen.findByRole('button', { name: 'Connect with Google' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Connect with Microsoft' })).toBeDefined();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('5');
    expect(router.state.location.pathname).toBe('/sign-up/connect');
  });

  it('shows the generic error screen on an unmatched route', async () => {
    await renderApp('/no-such-page', { signedIn: false });
    expect(await screen.findByText('Unexpected Application Error!')).toBeDefined();
  });

  it('shows the admin area to an admin, with Integrations highlighted on the webhook page', async () => {
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    expect(await screen.findByRole('heading', { name: 'Webhook' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Integrations' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin/workspace');
  });

  it('sends a member away from the admin area and hides the Admin entry', async () => {
    const router = await renderApp('/admin/users', { signedIn: true, me: member });
    expect(await screen.findByRole('heading', { name: 'Recommended actions' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/actions');
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Actions' }).getAttribute('href')).toBe('/actions/recommended-actions');
    expect(screen.getByRole('link', { name: 'Leads' }).getAttribute('href')).toBe('/network');
    expect(screen.getByRole('link', { name: 'Targeting' }).getAttribute('href')).toBe('/profile/personas');
  });

  it('sends a signed-in visitor who has not registered to create-details, pre-filled from the ID token', async () => {
    const router = await renderApp('/network', { signedIn: true, me: null });
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
    const fetchMock = vi.fn(async () => Response.json({ code: 'FORBIDDEN', message: refusal }, { status: 403 }));
    vi.stubGlobal('fetch', fetchMock);
    const router = await renderApp('/sign-up/create-details', { signedIn: true, me: null });
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
    const router = await renderApp('/sign-up/create-details', { signedIn: true, me: null });
    fireEvent.change(await screen.findByLabelText('Company name'), { target: { value: 'Analytical Engines' } });
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions and the privacy policy.'));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Sync your connections' })).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/sync'));
    expect(window.localStorage.getItem('registrationProcess')).toBeNull();
  });
});
