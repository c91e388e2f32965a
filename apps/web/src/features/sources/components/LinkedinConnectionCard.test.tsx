import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LINKEDIN_UPLOAD, type TMe } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const signedUp: TMe = {
  ...admin,
  hasCompletedOnboarding: false,
  onboardingStep: 'SIGNUP_DONE',
  isGoogleConnected: false,
  isLinkedinConnected: false,
};

async function findLinkedinCard(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'LinkedIn' });
}

function chooseFile(card: HTMLElement, file: File) {
  const input = card.querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('The card has no file input');
  expect(input.accept).toBe('.csv,text/csv');
  expect(input.multiple).toBe(false);
  fireEvent.change(input, { target: { files: [file] } });
}

const csv = () => new File(['First Name,Last Name,URL\n'], 'Connections.csv', { type: 'text/csv' });

function stub(routes: Record<string, FakeRoute>) {
  return stubApi({ 'GET /users/query/me': Response.json({ ...signedUp, isLinkedinConnected: true }), ...routes });
}

describe('LinkedIn connection card', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("explains LinkedIn's export step by step on the sync step, behind a toggle", async () => {
    stub({});
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = within(await findLinkedinCard());
    const install = card.getByRole('button', { name: 'Install extension' });
    expect(install.getAttribute('aria-expanded')).toBe('true');
    const steps = card.getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).toHaveLength(5);
    expect(steps[0]).toContain('Me > Settings & Privacy > Data privacy > Get a copy of your data');
    expect(steps[1]).toContain('Connections');
    expect(steps[1]).toContain('Request archive');
    expect(steps[2]).toContain('within minutes');
    expect(steps[3]).toContain('unzip');
    expect(steps[4]).toContain('Connections.csv');
    expect(card.getByRole('link', { name: 'open that page' }).getAttribute('target')).toBe('_blank');

    fireEvent.click(install);
    expect(install.getAttribute('aria-expanded')).toBe('false');
    expect(card.queryByRole('listitem')).toBeNull();
    expect(card.queryByRole('button', { name: 'Upload' })).toBeNull();
  });

  it('refuses a file that is not CSV before sending anything', async () => {
    const api = stub({});
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    chooseFile(card, new File(['x'], 'Connections.xlsx'));
    expect(within(card).getByText('File type must be text/csv,.csv')).toBeDefined();
    expect(within(card).getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
    expect(api.callsTo('POST /linkedin/command/upload-connections')).toHaveLength(0);
  });

  it('uploads Connections.csv, shows how many were imported and the rejected lines, and counts LinkedIn as connected', async () => {
    const api = stub({
      'POST /linkedin/command/upload-connections': Response.json({
        imported: 1204,
        rejected: [
          { line: 4, reason: 'No profile URL' },
          { line: 9, reason: 'No name' },
        ],
        rejectedCount: 2,
      }),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    expect(within(card).getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
    chooseFile(card, csv());
    expect(within(card).getByLabelText('Connections.csv file').textContent).toBe('Connections.csv');
    fireEvent.click(within(card).getByRole('button', { name: 'Upload' }));

    const result = await within(card).findByRole('status');
    expect(result.textContent).toContain('1,204 connections imported');
    expect(result.textContent).toContain('2 lines were not imported:');
    expect(
      within(within(result).getByRole('list', { name: 'Lines not imported' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Line 4: No profile URL', 'Line 9: No name']);

    const [upload] = api.callsTo('POST /linkedin/command/upload-connections');
    expect(upload?.body).toBeInstanceOf(FormData);
    const sent = upload?.body instanceof FormData ? upload.body.get('file') : null;
    expect(sent).toBeInstanceOf(File);
    expect(sent instanceof File ? sent.name : null).toBe('Connections.csv');

    expect(await screen.findByText('1/2 accounts connected')).toBeDefined();
    expect(within(card).getByRole('button', { name: 'Installed' })).toHaveProperty('disabled', true);
    // The result stays on screen once connected.
    expect(within(card).getByText('1,204 connections imported')).toBeDefined();
  });

  it('refuses a file larger than any LinkedIn export before sending it', async () => {
    const api = stub({});
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    const huge = csv();
    Object.defineProperty(huge, 'size', { value: LINKEDIN_UPLOAD.connectionsMaxBytes + 1 });
    chooseFile(card, huge);
    expect(within(card).getByText(`File is larger than ${LINKEDIN_UPLOAD.connectionsMaxBytes} bytes`)).toBeDefined();
    expect(within(card).getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', true);
    expect(api.callsTo('POST /linkedin/command/upload-connections')).toHaveLength(0);
  });

  it('counts every rejected line, beyond those the server lists', async () => {
    stub({
      'POST /linkedin/command/upload-connections': Response.json({
        imported: 3,
        rejected: [{ line: 4, reason: 'The URL is not a LinkedIn profile address' }],
        rejectedCount: 1502,
      }),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    chooseFile(card, csv());
    fireEvent.click(within(card).getByRole('button', { name: 'Upload' }));
    const result = await within(card).findByRole('status');
    expect(result.textContent).toContain('1,502 lines were not imported:');
    expect(result.textContent).toContain('and 1,501 more.');
  });

  it('says all went in when no line was rejected', async () => {
    stub({
      'POST /linkedin/command/upload-connections': Response.json({ imported: 1, rejected: [], rejectedCount: 0 }),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    chooseFile(card, csv());
    fireEvent.click(within(card).getByRole('button', { name: 'Upload' }));
    const result = await within(card).findByRole('status');
    expect(result.textContent).toBe('1 connection imported');
  });

  it("shows the server's message when the file is not LinkedIn's export", async () => {
    stub({
      'POST /linkedin/command/upload-connections': errorAnswer(
        422,
        'FILE_UNREADABLE',
        'This is not a LinkedIn connections export',
      ),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    chooseFile(card, csv());
    fireEvent.click(within(card).getByRole('button', { name: 'Upload' }));
    expect((await within(card).findByRole('alert')).textContent).toContain('This is not a LinkedIn connections export');
    expect(within(card).getByRole('button', { name: 'Install extension' })).toBeDefined();
  });
});

describe('My Account', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the Google and LinkedIn cards below the names, connected ones disabled', async () => {
    stubApi({ 'GET /google/query/sync-status': Response.json(null) });
    await renderApp('/admin/workspace', { signedIn: true, me: { ...admin, isLinkedinConnected: true } });
    fireEvent.click(await screen.findByRole('button', { name: 'Account menu of Ada Lovelace' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'My Account' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'My Account' }));
    expect(drawer.getByLabelText('Firstname')).toHaveProperty('value', 'Ada');

    const google = within(drawer.getByRole('region', { name: 'Google' }));
    expect(google.getByRole('button', { name: 'Connected' })).toHaveProperty('disabled', true);
    expect(google.getByRole('button', { name: 'Refresh Google sync' })).toBeDefined();
    expect(await google.findByText('Not synced yet. Use the refresh button to start.')).toBeDefined();

    const linkedin = within(drawer.getByRole('region', { name: 'LinkedIn' }));
    expect(linkedin.getByRole('button', { name: 'Installed' })).toHaveProperty('disabled', true);
    expect(linkedin.queryByRole('button', { name: 'Upload' })).toBeNull();
    const newer = linkedin.getByRole('button', { name: 'Import a newer export' });
    fireEvent.click(newer);
    expect(newer.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(linkedin.getByRole('button', { name: 'Upload' })).toBeDefined());
  });

  it('offers Connect and Install extension when nothing is connected', async () => {
    const api = stubApi({});
    const me: TMe = { ...admin, isGoogleConnected: false, isLinkedinConnected: false };
    await renderApp('/network', { signedIn: true, me });
    fireEvent.click(await screen.findByRole('button', { name: 'Account menu of Ada Lovelace' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'My Account' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'My Account' }));
    expect(drawer.getByRole('button', { name: 'Connect' })).toHaveProperty('disabled', false);
    expect(drawer.queryByRole('button', { name: 'Refresh Google sync' })).toBeNull();
    const install = drawer.getByRole('button', { name: 'Install extension' });
    expect(install.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(install);
    expect(drawer.getByText('How to get your connections from LinkedIn')).toBeDefined();
    expect(api.callsTo('GET /google/query/sync-status')).toHaveLength(0);
  });

  it("uploads the member's own Positions.csv beside the connections", async () => {
    const api = stub({
      'POST /linkedin/command/upload-positions': Response.json({ imported: 2, rejected: [], rejectedCount: 0 }),
    });
    await renderApp('/sign-up/sync', { signedIn: true, me: signedUp });
    const card = await findLinkedinCard();
    expect(within(card).getByText('Your work history (optional)')).toBeDefined();
    const [, positionsInput] = card.querySelectorAll('input[type="file"]');
    if (!positionsInput) throw new Error('no Positions.csv input');
    fireEvent.change(positionsInput, {
      target: { files: [new File(['Company Name,Title,Started On\n'], 'Positions.csv', { type: 'text/csv' })] },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Upload history' }));
    expect((await within(card).findByRole('status')).textContent).toContain('2 positions imported');
    expect(api.callsTo('POST /linkedin/command/upload-positions')).toHaveLength(1);
    expect(api.callsTo('POST /linkedin/command/upload-connections')).toHaveLength(0);
  });
});
