import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { TAllyMatches, TAllyShare } from '@warmpath/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveTo } from '../../../lib/browser.ts';
import { errorAnswer, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, renderApp } from '../../../testing/renderApp.tsx';

const share: TAllyShare = {
  workspaceName: 'Analytical Engines',
  allyName: 'Margaret Hamilton',
  senderName: 'Ada Lovelace',
  expiresAt: '2026-12-25T00:00:00.000Z',
  status: 'confirmed',
  shared: [
    {
      fullName: 'Tara Target',
      profileUrl: 'https://www.linkedin.com/in/tara',
      email: null,
      company: 'Targetron',
      position: 'CTO',
    },
  ],
};

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

describe("An ally's share page", { timeout: APP_TEST_TIMEOUT_MS }, () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says who asks and what is shared, without an account, and withdraws everything after a confirmation', async () => {
    const api = stubApi({
      'GET /public/ally-share': Response.json(share),
      'POST /public/ally-share/withdraw': Response.json({ ...share, status: 'withdrawn', shared: [] }),
    });
    await renderApp('/share?token=signed.token', { signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Share connections with Analytical Engines' })).toBeDefined();
    expect(screen.getByText('The rest of your file is discarded right after matching and never stored.')).toBeDefined();
    expect(screen.getByText('You shared 1 connection with Analytical Engines.')).toBeDefined();
    expect(screen.getByText('Tara Target (Targetron)')).toBeDefined();
    expect(api.callsTo('GET /public/ally-share')[0]?.search.get('token')).toBe('signed.token');

    fireEvent.click(screen.getByRole('button', { name: 'Withdraw everything' }));
    expect(api.callsTo('POST /public/ally-share/withdraw')).toHaveLength(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('You withdrew what you shared. You can share again below.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Find matches' })).toBeDefined();
  });

  it("shows the server's reason when the link was altered or has expired", async () => {
    stubApi({
      'GET /public/ally-share': errorAnswer(400, 'VALIDATION_FAILED', 'This share link was altered or has expired.'),
    });
    await renderApp('/share?token=bad', { signedIn: false });
    expect((await screen.findByRole('alert')).textContent).toContain('This share link was altered or has expired.');
  });

  it('offers Google read-only beside the file, says what is read and that nothing else is kept, and goes to the consent', async () => {
    const api = stubApi({
      'GET /public/ally-share': Response.json({ ...share, status: 'open', shared: [] }),
      'POST /public/ally-share/google': Response.json({ url: 'http://google.test/o/oauth2/v2/auth?x=1' }),
    });
    await renderApp('/share?token=signed.token', { signedIn: false });
    const section = await screen.findByRole('region', { name: 'Or use your Google account' });
    expect(section.textContent).toContain(
      'We read, once: your Google contacts, who you exchanged e-mails with (the senders and recipients only, never the content), and who you met in your calendar.',
    );
    expect(section.textContent).toContain(
      "Only the people at Analytical Engines's target companies are kept, for you to review. Nothing else is kept: not your e-mails, not your other contacts, not the access to your account, which is used once and dropped.",
    );
    expect(screen.getByLabelText('Your LinkedIn Connections.csv')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Google (read-only)' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('http://google.test/o/oauth2/v2/auth?x=1'));
    expect(api.callsTo('POST /public/ally-share/google')[0]?.search.get('token')).toBe('signed.token');
  });

  it("shows the Google account's matches from the callback's reference, once, and confirms the ones kept", async () => {
    const ref = '0b6c3f0e-4a53-4c1a-9a43-0c6f1f0e9b11';
    const matches: TAllyMatches = {
      scanned: 40,
      matchToken: 'signed.matches',
      matches: [
        {
          fullName: 'Mia Meeting',
          profileUrl: null,
          email: 'mia@targetron.test',
          company: 'Targetron',
          position: null,
        },
        {
          fullName: 'Tara Target',
          profileUrl: null,
          email: 'tara@targetron.test',
          company: 'Targetron',
          position: 'CTO',
        },
      ],
    };
    const api = stubApi({
      'GET /public/ally-share': Response.json({ ...share, status: 'open', shared: [] }),
      'POST /public/ally-share/google/matches': Response.json(matches),
      'POST /public/ally-share/confirm': Response.json(share),
    });
    await renderApp(`/share?token=signed.token&fromGoogle=${ref}`, { signedIn: false });
    const table = await screen.findByRole('table', { name: 'Matches' });
    expect(table.textContent).toContain('Mia Meeting');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Mia Meeting' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share 1 connection' }));
    expect(await screen.findByText('You shared 1 connection with Analytical Engines.')).toBeDefined();
    expect(api.callsTo('POST /public/ally-share/google/matches')).toHaveLength(1);
    const confirm = api.callsTo('POST /public/ally-share/confirm')[0];
    expect(confirm?.body).toEqual({ matchToken: 'signed.matches', keep: ['tara@targetron.test'] });
  });

  it('says when the ally did not allow Google', async () => {
    stubApi({ 'GET /public/ally-share': Response.json({ ...share, status: 'open', shared: [] }) });
    await renderApp('/share?token=signed.token&fromGoogle=denied', { signedIn: false });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You did not allow access to your Google account: nothing was read.',
    );
    expect(screen.getByRole('button', { name: 'Connect Google (read-only)' })).toBeDefined();
  });
});
