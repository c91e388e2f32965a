import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TMe, TSuggestion, TTeammate } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
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

const suggestions: TSuggestion[] = ['Bea', 'Cy', 'Dot', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy'].map((name) => ({
  name: `${name} Engineer`,
  email: `${name.toLowerCase()}@engines.example`,
}));

function stub(extra: Record<string, FakeRoute> = {}) {
  return stubApi({
    'GET /users/query': Response.json([self]),
    'GET /google/query/suggested-teammates': Response.json(suggestions),
    ...extra,
  });
}

async function openModal(me: TMe = admin) {
  const app = await renderApp('/admin/users', { signedIn: true, me });
  fireEvent.click(await screen.findByRole('button', { name: 'Invite users' }));
  const dialog = await screen.findByRole('dialog', { name: 'Invite users' });
  return { ...app, dialog: within(dialog) };
}

function type(field: HTMLElement, value: string) {
  fireEvent.change(field, { target: { value } });
}

describe('Invite users modal', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('validates e-mails, adds with Enter or Add users, ignores duplicates and names the Invite button by count', async () => {
    stub();
    const { dialog } = await openModal();
    expect(dialog.getByText('No users added yet.')).toBeDefined();
    expect(dialog.getByRole('button', { name: 'Invite' })).toHaveProperty('disabled', true);
    const email = dialog.getByLabelText('Email');
    const role = dialog.getByLabelText('Role');
    expect(role).toHaveProperty('value', 'member');
    expect(Array.from(role.querySelectorAll('option')).map((option) => option.textContent)).toEqual([
      'Member',
      'Admin',
      'Viewer',
    ]);

    type(email, 'bob at engines.example');
    fireEvent.click(dialog.getByRole('button', { name: 'Add users' }));
    expect(dialog.getByText('Invalid email address!')).toBeDefined();
    type(email, 'bob@engines');
    fireEvent.keyDown(email, { key: 'Enter' });
    expect(dialog.getByText('Invalid email address!')).toBeDefined();
    expect(dialog.getByText('No users added yet.')).toBeDefined();

    type(email, 'Bob@Engines.example');
    expect(dialog.queryByText('Invalid email address!')).toBeNull();
    fireEvent.keyDown(email, { key: 'Enter' });
    expect(dialog.getByText('bob@engines.example')).toBeDefined();
    expect(email).toHaveProperty('value', '');
    expect(dialog.queryByText('No users added yet.')).toBeNull();
    expect(dialog.getByRole('button', { name: 'Invite' })).toHaveProperty('disabled', false);

    type(email, 'bob@engines.example ');
    fireEvent.click(dialog.getByRole('button', { name: 'Add users' }));
    expect(dialog.getAllByText('bob@engines.example')).toHaveLength(1);
    expect(dialog.queryByText('Invalid email address!')).toBeNull();

    fireEvent.change(role, { target: { value: 'admin' } });
    type(email, 'cy@engines.example');
    fireEvent.click(dialog.getByRole('button', { name: 'Add users' }));
    expect(dialog.getByLabelText('Role for cy@engines.example')).toHaveProperty('value', 'admin');
    expect(dialog.getByLabelText('Role for bob@engines.example')).toHaveProperty('value', 'member');
    expect(dialog.getByRole('button', { name: 'Invite 2' })).toBeDefined();

    fireEvent.change(dialog.getByLabelText('Role for cy@engines.example'), { target: { value: 'viewer' } });
    expect(dialog.getByLabelText('Role for cy@engines.example')).toHaveProperty('value', 'viewer');
    fireEvent.click(dialog.getByRole('button', { name: 'Remove bob@engines.example' }));
    expect(dialog.queryByText('bob@engines.example')).toBeNull();
    expect(dialog.getByRole('button', { name: 'Invite' })).toHaveProperty('disabled', false);
    fireEvent.click(dialog.getByRole('button', { name: 'Remove cy@engines.example' }));
    expect(dialog.getByText('No users added yet.')).toBeDefined();
    expect(dialog.getByRole('button', { name: 'Invite' })).toHaveProperty('disabled', true);
  });

  it('shows 4 suggestions, 2 more per click, and a picked one joins the list as Member', async () => {
    stub();
    const { dialog } = await openModal();
    expect(await dialog.findByText('Suggestions (8)')).toBeDefined();
    const suggestionButtons = () => dialog.queryAllByRole('button', { name: /Engineer/ });
    expect(suggestionButtons()).toHaveLength(4);
    fireEvent.click(dialog.getByRole('button', { name: 'Show more suggestions' }));
    expect(suggestionButtons()).toHaveLength(6);
    fireEvent.click(dialog.getByRole('button', { name: 'Show more suggestions' }));
    expect(suggestionButtons()).toHaveLength(8);
    expect(dialog.queryByRole('button', { name: 'Show more suggestions' })).toBeNull();

    fireEvent.click(dialog.getByRole('button', { name: /Cy Engineer/ }));
    expect(dialog.getByText('Suggestions (7)')).toBeDefined();
    expect(dialog.queryByRole('button', { name: /Cy Engineer/ })).toBeNull();
    expect(dialog.getByLabelText('Role for cy@engines.example')).toHaveProperty('value', 'member');

    // A suggestion typed by hand is not offered twice.
    const email = dialog.getByLabelText('Email');
    type(email, 'DOT@engines.example');
    fireEvent.keyDown(email, { key: 'Enter' });
    expect(dialog.getByText('Suggestions (6)')).toBeDefined();
    expect(dialog.getByRole('button', { name: 'Invite 2' })).toBeDefined();
  });

  it('offers no suggestions without a Google connection', async () => {
    const api = stub();
    const { dialog } = await openModal({ ...admin, isGoogleConnected: false });
    expect(dialog.getByText('No users added yet.')).toBeDefined();
    expect(dialog.queryByText(/Suggestions/)).toBeNull();
    expect(api.callsTo('GET /google/query/suggested-teammates')).toHaveLength(0);
  });

  it('says when the suggestions cannot be loaded', async () => {
    stub({
      'GET /google/query/suggested-teammates': errorAnswer(500, 'INTERNAL', 'boom'),
    });
    const { dialog } = await openModal();
    expect((await dialog.findByRole('alert')).textContent).toContain('Error while fetching teammate suggestions');
  });

  it('invites with lower-case roles, says so, closes and reloads the users', async () => {
    const api = stub({
      'POST /teammates/invite': Response.json({
        invited: [
          { id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', email: 'bob@engines.example', role: 'member' },
          { id: '2b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', email: 'cy@engines.example', role: 'viewer' },
        ],
      }),
    });
    const { dialog } = await openModal();
    const email = dialog.getByLabelText('Email');
    type(email, 'bob@engines.example');
    fireEvent.keyDown(email, { key: 'Enter' });
    fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'viewer' } });
    type(email, 'cy@engines.example');
    fireEvent.keyDown(email, { key: 'Enter' });
    fireEvent.click(dialog.getByRole('button', { name: 'Invite 2' }));

    expect(await screen.findByText('Users invited!')).toBeDefined();
    expect(api.callsTo('POST /teammates/invite')[0]?.body).toEqual({
      teammates: [
        { email: 'bob@engines.example', role: 'member' },
        { email: 'cy@engines.example', role: 'viewer' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite users' })).toBeNull());
    await waitFor(() => expect(api.callsTo('GET /users/query')).toHaveLength(2));

    // Opened again, it starts empty.
    fireEvent.click(screen.getByRole('button', { name: 'Invite users' }));
    const reopened = within(await screen.findByRole('dialog', { name: 'Invite users' }));
    expect(reopened.getByText('No users added yet.')).toBeDefined();
  });

  it("says User invited! for one, and shows the server's message when the invitation is refused", async () => {
    let refuse = true;
    stub({
      'POST /teammates/invite': () =>
        refuse
          ? errorAnswer(400, 'NOT_CONNECTED', 'You must connect your Google account in order to send emails.')
          : Response.json({
              invited: [{ id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', email: 'bob@engines.example', role: 'member' }],
            }),
    });
    const { dialog } = await openModal();
    const email = dialog.getByLabelText('Email');
    type(email, 'bob@engines.example');
    fireEvent.keyDown(email, { key: 'Enter' });
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('You must connect your Google account in order to send emails.')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Invite users' })).toBeDefined();
    expect(dialog.getByText('bob@engines.example')).toBeDefined();

    refuse = false;
    fireEvent.click(dialog.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('User invited!')).toBeDefined();
  });
});
