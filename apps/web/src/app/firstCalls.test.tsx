import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../lib/api.ts';
import { ids, stubNetworkApi } from '../testing/networkFixtures.ts';
import { APP_TEST_TIMEOUT_MS, member, publicConfig, renderApp } from '../testing/renderApp.tsx';
import { startFirstCalls } from './firstCalls.ts';

const STORED_KEY = `oidc.user:${publicConfig.oidc.authority}:${publicConfig.oidc.clientId}`;
const FIRST_CALLS = [
  'POST /contacts/query',
  'POST /contacts/query/filters',
  'GET /contacts/query/network-report-cards',
];

/** A sign-in as oidc-client-ts stores it, with a token that expires in `seconds`. */
function storeSignIn(seconds: number) {
  window.localStorage.setItem(
    STORED_KEY,
    JSON.stringify({ access_token: 'stored-token', profile: {}, expires_at: Math.floor(Date.now() / 1000) + seconds }),
  );
}

describe("/network's first calls, started by the app's first script", { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.localStorage.removeItem(STORED_KEY);
  });

  it("are the page's own: each is made once, and the page shows their answers", async () => {
    const api = stubNetworkApi({ 'GET /users/query/me': Response.json(member) });
    storeSignIn(3600);
    startFirstCalls({ pathname: '/network', search: '' });
    // The filters are asked once the user is answered, as the page is drawn only then.
    await waitFor(() => expect(api.callsTo('POST /contacts/query/filters')).toHaveLength(1));
    await renderApp('/network', { signedIn: true, me: member });
    await screen.findByText('John Smith');
    expect(within(screen.getByRole('region', { name: 'Contacts' })).getByText('1,204')).toBeDefined();
    // The filter bar drawn from the filters' answer (the Companies card bears the same name).
    await waitFor(() =>
      expect(screen.getAllByLabelText('Companies').some((element) => element.tagName === 'INPUT')).toBe(true),
    );
    for (const call of FIRST_CALLS) {
      // Made once, with the stored token: the page's call took the early answer instead of asking.
      expect(api.callsTo(call).map((made) => made.headers.authorization)).toEqual(['Bearer stored-token']);
    }
  });

  it('are not made for a filtered address, nor with a token about to expire', () => {
    const api = stubNetworkApi();
    storeSignIn(3600);
    startFirstCalls({ pathname: '/network', search: `?personId=${ids.john}` });
    storeSignIn(30);
    startFirstCalls({ pathname: '/network', search: '' });
    expect(api.calls).toEqual([]);
  });
});
