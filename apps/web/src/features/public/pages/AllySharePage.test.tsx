import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { TAllyShare } from '@warmpath/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, renderApp } from '../../../testing/renderApp.tsx';

const share: TAllyShare = {
  workspaceName: 'Analytical Engines',
  allyName: 'Margaret Hamilton',
  senderName: 'Ada Lovelace',
  expiresAt: '2026-12-25T00:00:00.000Z',
  status: 'confirmed',
  shared: [
    { fullName: 'Tara Target', profileUrl: 'https://www.linkedin.com/in/tara', company: 'Targetron', position: 'CTO' },
  ],
};

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
});
