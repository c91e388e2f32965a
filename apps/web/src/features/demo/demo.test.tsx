import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../lib/api.ts';
import { noContent, stubApi } from '../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../testing/renderApp.tsx';

const webhooks = { 'GET /integrations/query/webhook': Response.json(null) };

describe('the demo workspace', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  const assign = vi.fn();
  beforeEach(() => {
    setAccessTokenProvider(async () => 'token');
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    assign.mockReset();
    window.sessionStorage.clear();
  });

  it('opens from the account menu once it is ready, in this tab', async () => {
    const api = stubApi({ ...webhooks, 'POST /demo/command/open': Response.json({ status: 'ready' }) });
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: /Account menu of/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Explore a demo workspace' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/network'));
    expect(api.callsTo('POST /demo/command/open')).toHaveLength(1);
    expect(window.sessionStorage.getItem('warmpathWorkspace')).toBe('demo');
  });

  it('is marked on every page, every call acts in it, and it is removed in one click', async () => {
    window.sessionStorage.setItem('warmpathWorkspace', 'demo');
    const api = stubApi({ ...webhooks, 'DELETE /demo/command/remove': noContent() });
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    expect(await screen.findByText('Demo workspace')).toBeDefined();
    await waitFor(() => expect(api.callsTo('GET /integrations/query/webhook').length).toBeGreaterThan(0));
    for (const call of api.calls) expect(call.headers['x-warmpath-workspace']).toBe('demo');

    fireEvent.click(screen.getByRole('button', { name: 'Remove the demo' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(api.callsTo('DELETE /demo/command/remove')).toHaveLength(1);
    expect(window.sessionStorage.getItem('warmpathWorkspace')).toBeNull();
  });

  it('leaves the demo for the own workspace without removing it', async () => {
    window.sessionStorage.setItem('warmpathWorkspace', 'demo');
    const api = stubApi(webhooks);
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Back to my workspace' }));
    expect(assign).toHaveBeenCalledWith('/');
    expect(window.sessionStorage.getItem('warmpathWorkspace')).toBeNull();
    expect(api.callsTo('DELETE /demo/command/remove')).toHaveLength(0);
  });
});
