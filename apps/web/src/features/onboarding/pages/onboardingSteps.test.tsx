import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { type TMe, ZAdvanceOnboarding } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, member, renderApp } from '../../../testing/renderApp.tsx';

const onboarding: Partial<TMe> = { hasCompletedOnboarding: false, onboardingStep: 'EXTERNALS_DONE' };
const onboardingAdmin: TMe = { ...admin, ...onboarding };
const onboardingMember: TMe = { ...member, ...onboarding };

/** The advance-onboarding route: answers with the user moved to the step sent; `others` beside it. */
function advancing(user: TMe, others: Record<string, FakeRoute> = {}) {
  return stubApi({
    ...others,
    'POST /users/command/advance-onboarding': ({ body }) => {
      const { step } = ZAdvanceOnboarding.parse(body);
      const moved: TMe =
        step === 'COMPLETED'
          ? { ...user, onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true }
          : { ...user, onboardingStep: step === 'EXTERNALS_DONE' ? 'EXTERNALS_DONE' : 'ACCOUNTS_IMPORT_DONE' };
      return Response.json(moved);
    },
  });
}

describe('onboarding steps', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('Skip on import accounts records the step and sends an admin to invite teammates', async () => {
    const api = advancing(onboardingAdmin);
    const { router } = await renderApp('/sign-up/import-accounts', { signedIn: true, me: onboardingAdmin });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('40');
    expect(await screen.findByRole('heading', { name: 'Invite your teammates' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/invite-teammates');
    expect(api.callsTo('POST /users/command/advance-onboarding').map((call) => call.body)).toEqual([
      { step: 'ACCOUNTS_IMPORT_DONE' },
    ]);
  });

  it('a read of the user still in flight when Skip answers does not send the admin back a step', async () => {
    let answerStaleRead = () => {};
    // A refresh of the user (as after connecting Google) that answers with the step before Skip, late.
    advancing(onboardingAdmin, {
      'GET /users/query/me': () =>
        new Promise((resolve) => {
          answerStaleRead = () => resolve(Response.json(onboardingAdmin));
        }),
    });
    const { router, queryClient } = await renderApp('/sign-up/import-accounts', {
      signedIn: true,
      me: onboardingAdmin,
    });
    void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    expect(await screen.findByRole('heading', { name: 'Invite your teammates' })).toBeDefined();
    answerStaleRead();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/sign-up/invite-teammates');
    expect(screen.getByRole('heading', { name: 'Invite your teammates' })).toBeDefined();
  });

  it('Skip sends a member to import clients', async () => {
    advancing(onboardingMember);
    const { router } = await renderApp('/sign-up/import-accounts', { signedIn: true, me: onboardingMember });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    expect(await screen.findByRole('button', { name: "I'll do it later" })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/import-clients');
  });

  it('Skip after the step was already recorded moves on without a call', async () => {
    const api = advancing(onboardingMember);
    const done: TMe = { ...onboardingMember, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    const { router } = await renderApp('/sign-up/import-accounts', { signedIn: true, me: done });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/import-clients'));
    expect(api.calls).toHaveLength(0);
  });

  it('offers the spec choices, Salesforce marked soon and leading to the targeting scheme', async () => {
    stubApi({ 'GET /public/countries': Response.json([]) });
    const { router } = await renderApp('/sign-up/import-accounts', { signedIn: true, me: onboardingAdmin });
    expect(await screen.findByRole('button', { name: "I don't have a specific list" })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Upload CSV' }));
    expect(router.state.location.pathname).toBe('/sign-up/import-accounts/upload');
    await router.navigate('/sign-up/import-accounts');
    const salesforce = await screen.findByRole('button', { name: /Salesforce/ });
    expect(salesforce.textContent).toContain('Soon');
    fireEvent.click(salesforce);
    expect(await screen.findByRole('heading', { name: 'Alright, no specific accounts' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/targeting-scheme');
  });

  it('Continue on sync records the connections step, then goes to import accounts', async () => {
    const signedUp: TMe = { ...onboardingAdmin, onboardingStep: 'SIGNUP_DONE' };
    const api = advancing(signedUp);
    const { router } = await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    expect(await screen.findByText('2/2 accounts connected')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('button', { name: 'Skip' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/import-accounts');
    expect(api.callsTo('POST /users/command/advance-onboarding').map((call) => call.body)).toEqual([
      { step: 'EXTERNALS_DONE' },
    ]);
  });

  it("I'll do it later completes onboarding and goes to the recommended actions", async () => {
    const atClients: TMe = { ...onboardingMember, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    const api = advancing(atClients);
    const { router } = await renderApp('/sign-up/import-clients', { signedIn: true, me: atClients });
    const later = await screen.findByRole('button', { name: "I'll do it later" });
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('70');
    fireEvent.click(later);
    expect(await screen.findByRole('heading', { name: 'Welcome Ada!' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/actions/recommended-actions');
    expect(api.callsTo('POST /users/command/advance-onboarding').map((call) => call.body)).toEqual([
      { step: 'COMPLETED' },
    ]);
  });

  it('shows the server message when the step cannot be recorded, and stays', async () => {
    stubApi({
      'POST /users/command/advance-onboarding': errorAnswer(400, 'VALIDATION_FAILED', 'Onboarding cannot go back'),
    });
    const { router } = await renderApp('/sign-up/import-accounts', { signedIn: true, me: onboardingAdmin });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    expect(await screen.findByText('Onboarding cannot go back')).toBeDefined();
    expect(router.state.location.pathname).toBe('/sign-up/import-accounts');
  });
});
