import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  OTHER_BROWSER_MESSAGES,
  type TDeliveryAttempt,
  type TDeliveryLog,
  type TWebhookEndpoint,
} from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

const URL_SAVED = 'https://hooks.engines.example/warmpath';
const endpoint: TWebhookEndpoint = {
  url: URL_SAVED,
  secretPreview: 'whsec_AbCd…',
  disabledReason: null,
  failingSince: null,
};
const connected = { ...admin, isWebhookConnected: true, webhookUrl: URL_SAVED };

function attempt(overrides: Partial<TDeliveryAttempt>): TDeliveryAttempt {
  return {
    id: crypto.randomUUID(),
    deliveryId: crypto.randomUUID(),
    eventType: 'intro.requested',
    attemptedAt: '2026-11-23T09:00:00.000Z',
    statusCode: 200,
    durationMs: 84,
    error: null,
    nextAttemptAt: null,
    deliveryStatus: 'delivered',
    ...overrides,
  };
}

describe('Integrations and the webhook page', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the three cards; the webhook connects from its page', async () => {
    stubApi({});
    const { router } = await renderApp('/admin/integrations', { signedIn: true, me: admin });
    expect(await screen.findByText('Connect the product to other tools that you use.')).toBeDefined();
    for (const name of ['Slack', 'HubSpot', 'Webhook']) expect(screen.getByRole('region', { name })).toBeDefined();
    expect(
      within(screen.getByRole('region', { name: 'HubSpot' })).getByRole('button', { name: 'Connect HubSpot' }),
    ).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Webhook' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/integrations/webhook'));
  });

  it("connects HubSpot through HubSpot's consent screen, and lands on the main page with the spec's message", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/admin/integrations', search: '' });
    const connection = { portal: 'engines.example', reconnectRequired: false, notesEnabled: true, sync: null };
    const api = stubApi({
      'POST /integrations/command/connect-hubspot': Response.json({ url: 'http://hubspot.test/oauth/authorize?x=1' }),
      'POST /hubspot/integrate': Response.json(connection),
      'GET /users/query/me': Response.json({ ...admin, isHubspotConnected: true }),
    });
    await renderApp('/admin/integrations', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect HubSpot' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://hubspot.test/oauth/authorize?x=1'));
    cleanup();

    const { router } = await renderApp('/hubspot-oauth-callback?code=the-code&state=the-state', {
      signedIn: true,
      me: admin,
    });
    expect(await screen.findByText('Hubspot integration process started in background.')).toBeDefined();
    expect(api.callsTo('POST /hubspot/integrate')[0]?.body).toEqual({ code: 'the-code', state: 'the-state' });
    expect(api.callsTo('POST /hubspot/integrate')).toHaveLength(1);
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/hubspot-oauth-callback'));
  });

  it('sends a refused HubSpot connection back to Integrations with the reason', async () => {
    stubApi({
      'POST /hubspot/integrate': errorAnswer(
        400,
        'VALIDATION_FAILED',
        'This HubSpot connection link has expired. Connect again from the app.',
      ),
    });
    const { router } = await renderApp('/hubspot-oauth-callback?code=old&state=tampered', {
      signedIn: true,
      me: admin,
    });
    expect(
      await screen.findByText('This HubSpot connection link has expired. Connect again from the app.'),
    ).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/integrations'));
  });

  it('shows the connected portal, turns its notes off, and removes the integration', async () => {
    let connection = { portal: 'engines.example', reconnectRequired: false, notesEnabled: true, sync: null };
    const api = stubApi({
      'GET /integrations/query/hubspot': () => Response.json(connection),
      'PUT /integrations/command/set-hubspot-notes': () => {
        connection = { ...connection, notesEnabled: false };
        return Response.json(connection);
      },
      'DELETE /workspace/command/delete-hubspot-token': noContent(),
      'GET /users/query/me': Response.json(admin),
    });
    await renderApp('/admin/integrations', { signedIn: true, me: { ...admin, isHubspotConnected: true } });
    const card = await screen.findByRole('region', { name: 'HubSpot' });
    expect(await within(card).findByText('Connected to engines.example.')).toBeDefined();
    fireEvent.click(within(card).getByRole('switch', { name: /notes on the HubSpot contact/ }));
    await waitFor(() => expect(api.callsTo('PUT /integrations/command/set-hubspot-notes')).toHaveLength(1));
    expect(api.callsTo('PUT /integrations/command/set-hubspot-notes')[0]?.body).toEqual({ notesEnabled: false });
    const button = within(card).getByRole('button', { name: 'Connected' });
    fireEvent.mouseEnter(button);
    fireEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Integration removed!')).toBeDefined();
  });

  it("connects Slack through Slack's install screen, and says so when it did not", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/admin/integrations', search: '' });
    const api = stubApi({
      'POST /integrations/command/connect-slack': Response.json({ url: 'http://slack.test/oauth/v2/authorize?x=1' }),
    });
    await renderApp('/admin/integrations?slack=denied', { signedIn: true, me: admin });
    expect(await screen.findByText('Failed to connect Slack')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Slack' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://slack.test/oauth/v2/authorize?x=1'));
    expect(api.callsTo('POST /integrations/command/connect-slack')[0]?.search.get('redirectUrl')).toBe(
      '/admin/integrations',
    );
  });

  it('says when the Slack install was approved in another browser than the one that started it', async () => {
    stubApi({});
    await renderApp('/admin/integrations?slack=other-browser', { signedIn: true, me: admin });
    expect(await screen.findByText(OTHER_BROWSER_MESSAGES.slack)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Connect Slack' })).toBeDefined();
  });

  it('shows where Slack posts, asks to reconnect when Slack refused us, and disconnects', async () => {
    let slack = { teamName: 'Engines', channelName: '#sales', reconnectRequired: true };
    const api = stubApi({
      'GET /integrations/query/slack': () => Response.json(slack),
      'DELETE /workspace/command/delete-slack-token': noContent(),
      'GET /users/query/me': Response.json(admin),
    });
    const { queryClient } = await renderApp('/admin/integrations', {
      signedIn: true,
      me: { ...admin, isSlackConnected: true },
    });
    const card = await screen.findByRole('region', { name: 'Slack' });
    expect(
      await within(card).findByText('Slack refused our access to Engines: connect again to resume.'),
    ).toBeDefined();
    expect(within(card).getByRole('button', { name: 'Reconnect Slack' })).toBeDefined();

    slack = { ...slack, reconnectRequired: false };
    await queryClient.invalidateQueries({ queryKey: ['integrations', 'slack'] });
    expect(await within(card).findByText('Posting to #sales in Engines.')).toBeDefined();
    fireEvent.focus(within(card).getByRole('button', { name: 'Connected' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Slack disconnected successfully')).toBeDefined();
    expect(api.callsTo('DELETE /workspace/command/delete-slack-token')).toHaveLength(1);
  });

  it('disconnects a connected webhook from its card, with the spec toasts', async () => {
    let fail = true;
    const api = stubApi({
      'DELETE /workspace/command/delete-webhook-url': () =>
        fail ? Response.json({ code: 'INTERNAL', message: 'boom' }, { status: 500 }) : noContent(),
      'GET /users/query/me': Response.json(admin),
    });
    await renderApp('/admin/integrations', { signedIn: true, me: connected });
    const card = await screen.findByRole('region', { name: 'Webhook' });
    const button = within(card).getByRole('button', { name: 'Connected' });
    // Hover (or focus) turns it into Disconnect.
    fireEvent.focus(button);
    fireEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Failed to disconnect webhook')).toBeDefined();
    fail = false;
    fireEvent.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Webhook disconnected successfully')).toBeDefined();
    expect(api.callsTo('DELETE /workspace/command/delete-webhook-url')).toHaveLength(2);
    expect(await within(card).findByRole('button', { name: 'Connect Webhook' })).toBeDefined();
  });

  it('saves the endpoint only when it is filled and changed, then shows its secret and an empty log', async () => {
    const secret = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    // The server's log: empty, then the test event waiting (queued, not tried), then its attempt.
    let log: TDeliveryLog = { attempts: [], waiting: 0 };
    const api = stubApi({
      'GET /integrations/query/webhook': Response.json(null),
      'POST /workspace/command/set-webhook-url': Response.json({ endpoint, secret }),
      'GET /integrations/query/webhook-deliveries': () => Response.json(log),
      'POST /integrations/command/send-test-webhook': () => {
        log = { attempts: [], waiting: 1 };
        return noContent();
      },
      'GET /users/query/me': Response.json(connected),
    });
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    const input = await screen.findByLabelText('Endpoint URL');
    expect(input.getAttribute('type')).toBe('url');
    expect(input.getAttribute('placeholder')).toBe(`e.g ${window.location.origin}/webhook`);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    fireEvent.change(input, { target: { value: '   ' } });
    expect(save).toHaveProperty('disabled', true);
    fireEvent.change(input, { target: { value: URL_SAVED } });
    expect(save).toHaveProperty('disabled', false);
    fireEvent.click(save);

    expect(await screen.findByText(secret)).toBeDefined();
    expect(api.callsTo('POST /workspace/command/set-webhook-url')[0]?.body).toEqual({ webhookUrl: URL_SAVED });
    // Saved: unchanged again, so Save is off.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true));
    expect(await screen.findByText('No deliveries yet. Send a test event to try the endpoint.')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(api.callsTo('POST /integrations/command/send-test-webhook')).toHaveLength(1));
    // Before its first attempt the delivery has no row: the log says it waits, and follows it.
    const waiting = await screen.findByText('1 delivery waiting to be sent');
    expect(waiting.closest('[role="status"]')).not.toBeNull();
    log = {
      attempts: [attempt({ eventType: 'webhook.test', statusCode: 200, deliveryStatus: 'delivered' })],
      waiting: 0,
    };
    expect(await screen.findByText('webhook.test', {}, { timeout: 5_000 })).toBeDefined();
    expect(screen.queryByText('1 delivery waiting to be sent')).toBeNull();
  });

  it("says 'Failed to set webhook URL' when the save is refused", async () => {
    stubApi({
      'GET /integrations/query/webhook': Response.json(null),
      'POST /workspace/command/set-webhook-url': Response.json(
        { code: 'VALIDATION_FAILED', message: '127.0.0.1 is not a public address' },
        { status: 400 },
      ),
    });
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: admin });
    fireEvent.change(await screen.findByLabelText('Endpoint URL'), { target: { value: 'http://127.0.0.1/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to set webhook URL')).toBeDefined();
  });

  it('lists the attempts, says why deliveries stopped, and retries a failed one', async () => {
    const failed = attempt({ eventType: 'job_change.detected', statusCode: 410, deliveryStatus: 'failed' });
    const api = stubApi({
      'GET /integrations/query/webhook': Response.json({
        ...endpoint,
        disabledReason: 'The endpoint answered 410 Gone.',
      }),
      'GET /integrations/query/webhook-deliveries': Response.json({
        attempts: [failed, attempt({ statusCode: null, error: 'connect ECONNREFUSED', deliveryStatus: 'pending' })],
        waiting: 0,
      }),
      [`POST /integrations/command/retry-delivery/${failed.deliveryId}`]: noContent(),
    });
    await renderApp('/admin/integrations/webhook', { signedIn: true, me: connected });
    expect(await screen.findByText('job_change.detected')).toBeDefined();
    expect(screen.getByText('The endpoint answered 410 Gone. Save the URL again to resume them.')).toBeDefined();
    expect(screen.getByText('No answer')).toBeDefined();
    expect(screen.getByText('whsec_AbCd…')).toBeDefined();
    const rows = screen.getAllByRole('row');
    fireEvent.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(api.callsTo(`POST /integrations/command/retry-delivery/${failed.deliveryId}`)).toHaveLength(1),
    );
    expect(within(rows[2] as HTMLElement).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('tells admins on every page that webhook deliveries stopped, and members nothing', async () => {
    const api = stubApi({
      'GET /integrations/query/webhook': Response.json({
        ...endpoint,
        disabledReason: 'Every delivery failed for 5 days.',
      }),
    });
    const { router } = await renderApp('/admin/users', { signedIn: true, me: connected });
    const notice = await screen.findByRole('alert', { name: 'Webhook deliveries stopped' });
    expect(notice.textContent).toContain(
      `Every delivery failed for 5 days. Events are no longer sent to ${URL_SAVED}.`,
    );
    fireEvent.click(within(notice).getByRole('link', { name: 'Open the webhook page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/integrations/webhook'));
    // The webhook page says it itself.
    expect(
      await screen.findByText('Every delivery failed for 5 days. Save the URL again to resume them.'),
    ).toBeDefined();
    expect(screen.queryByRole('alert', { name: 'Webhook deliveries stopped' })).toBeNull();
    cleanup();

    await renderApp('/network', { signedIn: true, me: { ...connected, role: 'member' } });
    expect(await screen.findByRole('heading', { level: 1 })).toBeDefined();
    expect(screen.queryByRole('alert', { name: 'Webhook deliveries stopped' })).toBeNull();
    // Asked once for the admin (the webhook page reads the same answer); never for the member.
    expect(api.callsTo('GET /integrations/query/webhook')).toHaveLength(1);
  });
});
