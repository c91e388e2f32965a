import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { TMe } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const atInvites: TMe = { ...admin, hasCompletedOnboarding: false, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
const completed: TMe = { ...atInvites, hasCompletedOnboarding: true };
const invited = {
  invited: [{ id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', email: 'bob@engines.example', role: 'member' }],
};

function stub(routes: Record<string, FakeRoute> = {}) {
  return stubApi({
    'GET /google/query/suggested-teammates': Response.json([{ name: 'Bea Engineer', email: 'bea@engines.example' }]),
    'POST /users/command/advance-onboarding': Response.json(completed),
    'POST /teammates/invite': Response.json(invited),
    ...routes,
  });
}

function addInvitee(email: string) {
  const field = screen.getByLabelText('Email');
  fireEvent.change(field, { target: { value: email } });
  fireEvent.keyDown(field, { key: 'Enter' });
}

describe('Invite your teammates', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the invite form and Skip goes on to the clients import without inviting', async () => {
    const api = stub();
    const { router } = await renderApp('/sign-up/invite-teammates', { signedIn: true, me: atInvites });
    expect(await screen.findByRole('heading', { name: 'Invite your teammates' })).toBeDefined();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('80');
    expect(await screen.findByText('Suggestions (1)')).toBeDefined();
    addInvitee('bob@engines.example');
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    expect(await screen.findByRole('heading', { name: 'Import clients' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/import-clients');
    expect(api.callsTo('POST /users/command/advance-onboarding')).toHaveLength(0);
    expect(api.callsTo('POST /teammates/invite')).toHaveLength(0);
    // The clients import ends onboarding, for an admin as for anyone.
    fireEvent.click(screen.getByRole('button', { name: "I'll do it later" }));
    expect(await screen.findByRole('heading', { name: 'Welcome Ada!' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/actions/recommended-actions');
    expect(api.callsTo('POST /users/command/advance-onboarding').map((call) => call.body)).toEqual([
      { step: 'COMPLETED' },
    ]);
  });

  it('Continue sends the invitees still listed, then goes on to the clients import', async () => {
    const api = stub();
    const { router } = await renderApp('/sign-up/invite-teammates', { signedIn: true, me: atInvites });
    await screen.findByLabelText('Email');
    addInvitee('bob@engines.example');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('User invited!')).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/import-clients'));
    expect(api.callsTo('POST /teammates/invite')[0]?.body).toEqual({
      teammates: [{ email: 'bob@engines.example', role: 'member' }],
    });
  });

  it('Continue with nobody listed only goes on', async () => {
    const api = stub();
    const { router } = await renderApp('/sign-up/invite-teammates', { signedIn: true, me: atInvites });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/import-clients'));
    expect(api.callsTo('POST /teammates/invite')).toHaveLength(0);
  });

  it('stays when the invitations are refused, with the server message', async () => {
    const api = stub({
      'POST /teammates/invite': errorAnswer(
        409,
        'ALREADY_EXISTS',
        'bob@engines.example already belong to the workspace',
      ),
    });
    const { router } = await renderApp('/sign-up/invite-teammates', { signedIn: true, me: atInvites });
    await screen.findByLabelText('Email');
    addInvitee('bob@engines.example');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('bob@engines.example already belong to the workspace')).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/invite-teammates');
    expect(api.callsTo('POST /users/command/advance-onboarding')).toHaveLength(0);
  });

  it('Invite sends at once and empties the list, staying on the step', async () => {
    stub();
    const { router } = await renderApp('/sign-up/invite-teammates', { signedIn: true, me: atInvites });
    await screen.findByLabelText('Email');
    addInvitee('bob@engines.example');
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('User invited!')).toBeDefined();
    expect(await screen.findByText('No users added yet.')).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/invite-teammates');
  });
});
