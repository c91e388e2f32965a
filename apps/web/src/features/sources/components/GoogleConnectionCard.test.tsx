import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { OTHER_BROWSER_MESSAGES, type TMe, type TSyncRun } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { leaveTo } from '../../../lib/browser.ts';
import { errorAnswer, type FakeRoute, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn() }));

const signedUp: TMe = {
  ...admin,
  hasCompletedOnboarding: false,
  onboardingStep: 'SIGNUP_DONE',
  isGoogleConnected: false,
  googleAccountEmail: null,
  isLinkedinConnected: false,
};
const googleConnected: TMe = { ...signedUp, isGoogleConnected: true, googleAccountEmail: 'ada.work@engines.example' };

const run: TSyncRun = {
  id: '5e7d1c2b-3a4f-4b6c-8d9e-0f1a2b3c4d5e',
  status: 'running',
  phase: 'Reading mail',
  processed: 1200,
  total: 3000,
  counts: null,
  error: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  finishedAt: null,
};
const succeeded: TSyncRun = {
  ...run,
  status: 'succeeded',
  phase: 'Done',
  counts: { contacts: 200, otherContacts: 30, messages: 3021, meetings: 412, ignored: 4 },
  finishedAt: '2025-01-01T00:05:00.000Z',
};
const consentUrl = 'https://accounts.google.example/o/oauth2/auth?state=signed';

function googleCard(): ReturnType<typeof within> {
  return within(screen.getByRole('region', { name: 'Google' }));
}

/** The card once the app has rendered it. */
async function findGoogleCard(): Promise<ReturnType<typeof within>> {
  return within(await screen.findByRole('region', { name: 'Google' }));
}

function progressValue(): string | null {
  return screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow');
}

function stub(routes: Record<string, FakeRoute>) {
  return stubApi({ 'POST /google/authenticate': Response.json({ url: consentUrl }), ...routes });
}

describe('Google connection card', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(leaveTo).mockClear();
  });

  it('connects: asks where to grant access, back to this page, and goes there', async () => {
    const api = stub({});
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    expect(await screen.findByText('0/2 accounts connected')).toBeDefined();
    expect(progressValue()).toBe('15');
    expect(googleCard().queryByRole('button', { name: 'Refresh Google sync' })).toBeNull();
    fireEvent.click(googleCard().getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(consentUrl));
    expect(api.callsTo('POST /google/authenticate')[0]?.search.get('redirectUrl')).toBe('/sign-up/sync');
    expect(api.callsTo('GET /google/query/sync-status')).toHaveLength(0);
  });

  it('shows a running sync as processed of total, polls, and then shows what it brought in', async () => {
    let polls = 0;
    const api = stub({
      'GET /google/query/sync-status': () => {
        polls += 1;
        return Response.json(polls === 1 ? run : succeeded);
      },
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    await findGoogleCard();
    const card = () => googleCard();
    expect(await card().findByText('1,200 of 3,000')).toBeDefined();
    expect(progressValue()).toBe('25');
    expect(card().getByRole('button', { name: 'Connected' })).toHaveProperty('disabled', true);
    expect(card().getByText('Reading mail')).toBeDefined();
    expect(card().getByRole('progressbar', { name: 'Google sync progress' }).getAttribute('aria-valuenow')).toBe('40');

    expect(await card().findByText('Last sync: 3,021 messages, 412 meetings, 230 contacts')).toBeDefined();
    expect(card().queryByRole('progressbar')).toBeNull();
    // Finished: no more polling.
    const calls = api.callsTo('GET /google/query/sync-status').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(api.callsTo('GET /google/query/sync-status')).toHaveLength(calls);
  });

  it('shows an indeterminate bar while the total is unknown', async () => {
    stub({ 'GET /google/query/sync-status': Response.json({ ...run, phase: 'Reading meetings', total: null }) });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    const bar = await (await findGoogleCard()).findByRole('progressbar', { name: 'Google sync progress' });
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    expect(bar.getAttribute('aria-valuetext')).toBe('Reading meetings');
    expect(googleCard().queryByText(/ of /)).toBeNull();
  });

  it('shows a revoked access with Reconnect, which starts the connection again', async () => {
    stub({
      'GET /google/query/sync-status': Response.json({
        ...run,
        status: 'failed',
        error: 'Google access was revoked: connect your Google account again',
      }),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    const alert = await (await findGoogleCard()).findByRole('alert');
    expect(alert.textContent).toContain('Google access was revoked: connect your Google account again');
    fireEvent.click(within(alert).getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(consentUrl));
  });

  it('lists e-mails that could not be sent, and sends a failed one again', async () => {
    let failed = true;
    const api = stub({
      'GET /google/query/sync-status': Response.json(succeeded),
      'GET /google/query/undelivered-emails': () =>
        Response.json(
          failed
            ? [
                {
                  id: '0b7d1c2b-3a4f-4b6c-8d9e-0f1a2b3c4d5e',
                  purpose: 'invitation',
                  to: ['grace@acme.test'],
                  subject: 'Ada invited you to join Acme on Warmpath',
                  status: 'failed',
                  attempts: 6,
                  lastError: 'Quota exceeded',
                  createdAt: '2025-01-01T00:00:00.000Z',
                },
              ]
            : [],
        ),
      'POST /google/command/retry-email/0b7d1c2b-3a4f-4b6c-8d9e-0f1a2b3c4d5e': () => {
        failed = false;
        return noContent();
      },
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    const list = await (await findGoogleCard()).findByRole('list', { name: 'E-mails not sent' });
    expect(list.textContent).toContain('grace@acme.test');
    expect(list.textContent).toContain('Failed after 6 attempts: Quota exceeded');
    fireEvent.click(within(list).getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(googleCard().queryByRole('list', { name: 'E-mails not sent' })).toBeNull());
    expect(api.callsTo('POST /google/command/retry-email/0b7d1c2b-3a4f-4b6c-8d9e-0f1a2b3c4d5e')).toHaveLength(1);
  });

  it('shows another failure without Reconnect', async () => {
    stub({ 'GET /google/query/sync-status': Response.json({ ...run, status: 'failed', error: 'Gmail answered 500' }) });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    const alert = await (await findGoogleCard()).findByRole('alert');
    expect(alert.textContent).toContain('Gmail answered 500');
    expect(within(alert).queryByRole('button', { name: 'Reconnect' })).toBeNull();
  });

  it('syncs again from the refresh control, which waits while the run is under way', async () => {
    let queued = false;
    const api = stub({
      'GET /google/query/sync-status': () =>
        Response.json(
          queued ? { ...run, status: 'queued', phase: 'Waiting to start', processed: 0, total: null } : null,
        ),
      'POST /google/command/sync': () => {
        queued = true;
        return Response.json({ ...run, status: 'queued', phase: 'Waiting to start', processed: 0, total: null });
      },
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    expect(await (await findGoogleCard()).findByText('Not synced yet. Use the refresh button to start.')).toBeDefined();
    const refresh = googleCard().getByRole('button', { name: 'Refresh Google sync' });
    fireEvent.click(refresh);
    expect(await googleCard().findByText('Waiting to start')).toBeDefined();
    expect(api.callsTo('POST /google/command/sync')).toHaveLength(1);
    expect(googleCard().getByRole('button', { name: 'Refresh Google sync' })).toHaveProperty('disabled', true);
    // Queued: the status is polled.
    await waitFor(() => expect(api.callsTo('GET /google/query/sync-status').length).toBeGreaterThanOrEqual(2));
  });

  it('says when the status cannot be loaded, and tries again on demand', async () => {
    let fail = true;
    stub({
      'GET /google/query/sync-status': () =>
        fail ? errorAnswer(500, 'INTERNAL', 'Status unavailable') : Response.json(succeeded),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: googleConnected });
    const alert = await (await findGoogleCard()).findByRole('alert');
    expect(alert.textContent).toContain('Status unavailable');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await googleCard().findByText(/^Last sync:/)).toBeDefined();
  });
});

describe('return from Google', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says the account is connected, reloads the user and drops the parameter', async () => {
    const api = stub({
      'GET /users/query/me': Response.json(googleConnected),
      'GET /google/query/sync-status': Response.json({ ...run, status: 'queued', phase: 'Waiting to start' }),
    });
    const { router } = await renderApp('/sign-up/sync?google=connected&tab=1', { signedIn: true, me: signedUp });
    expect(await screen.findByText('Google account connected.')).toBeDefined();
    // Which account was connected: the one approved at Google, not necessarily the sign-in address.
    expect(await (await findGoogleCard()).findByText('Connected as ada.work@engines.example')).toBeDefined();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=1'));
    expect(router.state.location.pathname).toBe('/sign-up/sync');
    expect(await screen.findByText('1/2 accounts connected')).toBeDefined();
    expect(api.callsTo('GET /users/query/me')).toHaveLength(1);
    expect(progressValue()).toBe('25');
  });

  it('says when the consent was approved in another browser, and nothing was connected', async () => {
    stub({ 'GET /users/query/me': Response.json(signedUp) });
    const { router } = await renderApp('/sign-up/sync?google=other-browser', { signedIn: true, me: signedUp });
    expect(await screen.findByText(OTHER_BROWSER_MESSAGES.google)).toBeDefined();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // The message comes with the address; the page behind the sign-in is drawn in a render of its own.
    expect(
      await within(await screen.findByRole('region', { name: 'Google' })).findByRole('button', { name: 'Connect' }),
    ).toBeDefined();
  });

  it('says when access was not granted', async () => {
    stub({ 'GET /users/query/me': Response.json(signedUp) });
    const { router } = await renderApp('/sign-up/sync?google=denied', { signedIn: true, me: signedUp });
    expect(await screen.findByText('Google access was not granted.')).toBeDefined();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
