import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TPrivacy } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const privacy: TPrivacy = {
  sharingLevel: 'all',
  acceptsIntros: true,
  weeklyIntroCap: null,
  workspaceWeeklyIntroCap: 3,
  blocklist: ['lawyers.example'],
};

async function openPrivacy() {
  await renderApp('/admin/workspace', { signedIn: true, me: admin });
  fireEvent.click(await screen.findByRole('button', { name: 'Account menu of Ada Lovelace' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'My Account' }));
  const drawer = within(await screen.findByRole('dialog', { name: 'My Account' }));
  await drawer.findByRole('heading', { name: 'Privacy' });
  return drawer;
}

describe('My Account › Privacy', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('saves the sharing level, the intro opt-out and the own weekly cap', async () => {
    const api = stubApi({
      'GET /google/query/sync-status': Response.json(null),
      'GET /users/query/privacy': Response.json(privacy),
      'PUT /users/command/update-privacy': ({ body }) => Response.json({ ...privacy, ...(body as object) }),
    });
    const drawer = await openPrivacy();
    expect(drawer.getByRole('radio', { name: 'Share all' })).toHaveProperty('checked', true);
    expect(drawer.getByText(/empty follows the workspace's \(3\)/)).toBeDefined();
    fireEvent.click(drawer.getByRole('radio', { name: 'Private' }));
    fireEvent.click(drawer.getByRole('checkbox', { name: "Don't ask me for intros" }));
    fireEvent.change(drawer.getByRole('textbox', { name: 'My weekly intro cap' }), { target: { value: '2' } });
    fireEvent.click(drawer.getByRole('button', { name: 'Save privacy settings' }));
    await waitFor(() => expect(api.callsTo('PUT /users/command/update-privacy')).toHaveLength(1));
    expect(api.callsTo('PUT /users/command/update-privacy')[0]?.body).toEqual({
      sharingLevel: 'private',
      acceptsIntros: false,
      weeklyIntroCap: 2,
    });
  });

  it('blocks an address or a domain, refusing anything else, and unblocks', async () => {
    const api = stubApi({
      'GET /google/query/sync-status': Response.json(null),
      'GET /users/query/privacy': Response.json(privacy),
      'POST /users/command/block-contact': ({ body }) =>
        Response.json({ ...privacy, blocklist: [...privacy.blocklist, (body as { entry: string }).entry] }),
      'POST /users/command/unblock-contact': Response.json({ ...privacy, blocklist: [] }),
    });
    const drawer = await openPrivacy();
    const input = drawer.getByRole('textbox', { name: 'Address or domain to block' });
    fireEvent.change(input, { target: { value: 'not an address' } });
    fireEvent.click(drawer.getByRole('button', { name: 'Block' }));
    expect(await drawer.findByText(/Enter an e-mail address/)).toBeDefined();
    expect(api.callsTo('POST /users/command/block-contact')).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' Dr.House@Clinic.example ' } });
    fireEvent.click(drawer.getByRole('button', { name: 'Block' }));
    expect(await drawer.findByText('dr.house@clinic.example')).toBeDefined();
    expect(api.callsTo('POST /users/command/block-contact')[0]?.body).toEqual({ entry: 'dr.house@clinic.example' });

    fireEvent.click(drawer.getByRole('button', { name: 'Unblock lawyers.example' }));
    await waitFor(() => expect(api.callsTo('POST /users/command/unblock-contact')).toHaveLength(1));
    expect(await drawer.findByText('No one is blocked.')).toBeDefined();
  });
});
