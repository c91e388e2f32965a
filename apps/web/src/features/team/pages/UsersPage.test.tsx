import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TTeammate } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const self: TTeammate = {
  id: admin.id,
  fullName: 'Ada Lovelace',
  email: admin.email,
  avatar: null,
  role: 'admin',
  status: 'Activated',
  isLinkedinConnected: true,
  isGoogleConnected: true,
};
const bob: TTeammate = {
  id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  fullName: 'Bob Babbage',
  email: 'bob@engines.example',
  avatar: null,
  role: 'member',
  status: 'Invited',
  isLinkedinConnected: false,
  isGoogleConnected: true,
};

describe('Users page', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the teammates with their connections, status and role', async () => {
    stubApi({ 'GET /users/query': Response.json([self, bob]) });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    const row = (await screen.findByText('Bob Babbage')).closest('tr');
    if (!row) throw new Error('Bob has no row');
    expect(within(row).getByRole('img', { name: 'LinkedIn not connected' })).toBeDefined();
    expect(within(row).getByRole('img', { name: 'Google connected' })).toBeDefined();
    expect(within(row).getByText('Invited')).toBeDefined();
    expect(within(row).getByText('Member')).toBeDefined();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Connections',
      'Status',
      'Role',
      'Actions',
    ]);
    expect(screen.getByRole('button', { name: 'Invite users' })).toBeDefined();
  });

  it("disables the menu on the user's own row and offers the other roles on a teammate's", async () => {
    stubApi({ 'GET /users/query': Response.json([self, bob]) });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    expect(await screen.findByRole('button', { name: 'Actions for Ada Lovelace' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Bob Babbage' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Admin', 'Viewer', 'Remove user']);
  });

  it('changes a role with the e-mail, says so and reloads the list', async () => {
    const api = stubApi({
      'GET /users/query': Response.json([self, bob]),
      [`PUT /users/command/change-role/${bob.id}`]: Response.json({ ...bob, role: 'viewer' }),
    });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Babbage' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Viewer' }));
    expect(await screen.findByText('Role updated.')).toBeDefined();
    expect(api.callsTo(`PUT /users/command/change-role/${bob.id}`)[0]?.body).toEqual({
      role: 'viewer',
      email: 'bob@engines.example',
    });
    await waitFor(() => expect(api.callsTo('GET /users/query')).toHaveLength(2));
  });

  it('removes a user and says so', async () => {
    const api = stubApi({
      'GET /users/query': Response.json([self, { ...bob, status: 'Activated' }]),
      [`DELETE /users/command/delete/${bob.id}`]: noContent(),
    });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Babbage' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove user' }));
    // The confirmation says the member's evidence leaves with them; nothing is removed before it.
    expect(
      await screen.findByText(
        "Remove Bob Babbage? Their mail, calendar, contacts and LinkedIn connections leave with them: the people they know disappear from everyone's network.",
      ),
    ).toBeDefined();
    expect(api.callsTo(`DELETE /users/command/delete/${bob.id}`)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('User removed.')).toBeDefined();
    await waitFor(() => expect(api.callsTo('GET /users/query')).toHaveLength(2));
  });

  it('shows the server reason when it refuses, under the failure text', async () => {
    stubApi({
      'GET /users/query': Response.json([self, bob]),
      [`PUT /users/command/change-role/${bob.id}`]: errorAnswer(
        409,
        'LAST_ADMIN',
        'A workspace keeps at least one admin',
      ),
    });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Bob Babbage' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Admin' }));
    expect(await screen.findByText('Update failed...')).toBeDefined();
    expect(screen.getByText('A workspace keeps at least one admin')).toBeDefined();
  });

  it('searches after a pause, and says when nobody matches', async () => {
    const api = stubApi({
      'GET /users/query': ({ search }) => Response.json(search.get('searchTerm') === 'zed' ? [] : [self, bob]),
    });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    await screen.findByText('Bob Babbage');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'zed' } });
    expect(screen.getByPlaceholderText('Search users...')).toBeDefined();
    expect(api.callsTo('GET /users/query')).toHaveLength(1);
    expect(await screen.findByText('No users found.', {}, { timeout: 2000 })).toBeDefined();
    expect(api.callsTo('GET /users/query').map((call) => call.search.get('searchTerm'))).toEqual([null, 'zed']);
  });

  it("shows the spec's text when the list cannot be fetched", async () => {
    stubApi({ 'GET /users/query': errorAnswer(500, 'INTERNAL', 'boom') });
    await renderApp('/admin/users', { signedIn: true, me: admin });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error occured while fetching teammates. Error message: Failed to fetch all users',
    );
  });
});
