import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type TMe, ZWarmIntroItems } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { configureAnalytics } from '../../../lib/analytics.ts';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { leaveTo } from '../../../lib/browser.ts';
import { errorAnswer } from '../../../testing/fakeApi.ts';
import { ids, janeIntro, stubNetworkApi } from '../../../testing/networkFixtures.ts';
import { APP_TEST_TIMEOUT_MS, member, publicConfig, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const SEND = 'POST /contacts/command/send-warm-intro-email';
const MODAL_DATA = 'GET /contacts/query/warm-intro-modal-data';
const consentUrl = 'https://accounts.google.example/o/oauth2/auth?state=signed';

async function openPanel(avatarName: string, me: TMe = member) {
  const app = await renderApp('/network', { signedIn: true, me }, { ...publicConfig, posthogKey: 'phc_test' });
  fireEvent.click(await screen.findByRole('button', { name: avatarName }));
  return app;
}

describe('Warm intro panel', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(leaveTo).mockClear();
    configureAnalytics(null);
  });

  it("asks a colleague: loads the panel's data, fills the templates, sends the edited request and closes", async () => {
    const api = stubNetworkApi({ [SEND]: Response.json({ sent: 1 }) });
    await openPanel('Ask Jane Doe for an intro to John Smith');
    const panel = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    expect(api.callsTo(MODAL_DATA)[0]?.search.toString()).toBe(
      new URLSearchParams({ source: 'connector', targetId: ids.john, connectorId: ids.jane }).toString(),
    );
    const request = await panel.findByLabelText(/^Message to Jane/);
    expect(request).toHaveProperty('value', janeIntro.templates.connectorMessage);
    const forward = panel.getByLabelText('Intro message for John');
    expect(forward).toHaveProperty('value', janeIntro.templates.introTargetMessage);
    // The path drawn, its name saying it all: the link's strength and channels in the spec's order.
    expect(
      panel.getByRole('img', {
        name: 'You → Jane Doe (colleague, High 82: Google meeting, LinkedIn connection) → John Smith',
      }),
    ).toBeDefined();
    expect(panel.getByRole('region', { name: 'Ask: Jane Doe' })).toBeDefined();
    expect(panel.getByRole('region', { name: 'Intro to: John Smith' })).toBeDefined();
    expect(panel.getByText('2 intro requests received in the last 7 days (weekly limit 5)')).toBeDefined();
    expect(panel.getByText('3 signals')).toBeDefined();
    expect(panel.getByText('Visited website')).toBeDefined();

    fireEvent.change(request, { target: { value: 'Jane, could you introduce me to John?' } });
    const contactsBefore = api.callsTo('POST /contacts/query').length;
    fireEvent.click(panel.getByRole('button', { name: 'Send intro request' }));

    expect(await screen.findByText('Warm intro sent!')).toBeDefined();
    expect(ZWarmIntroItems.parse(api.callsTo(SEND)[0]?.body)).toEqual([
      {
        connectorId: ids.jane,
        prospectContactId: ids.john,
        connectorMessage: 'Jane, could you introduce me to John?',
        introTargetMessage: janeIntro.templates.introTargetMessage,
        source: 'connector',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The table is asked again, so the row shows the request was sent.
    await waitFor(() => expect(api.callsTo('POST /contacts/query').length).toBeGreaterThan(contactsBefore));
    const events = api
      .callsTo('POST /capture/')
      .map((call) => z.object({ event: z.string(), properties: z.record(z.string(), z.unknown()) }).parse(call.body));
    expect(events).toContainEqual(expect.objectContaining({ event: '$pageview' }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'intro sent', properties: expect.objectContaining({ source: 'connector' }) }),
    );
  });

  it('asks before sending again an intro asked of the same person within 30 days, and sends it once confirmed', async () => {
    const question = 'You asked Jane Doe for an intro to John Smith in the last 30 days. Ask again?';
    const api = stubNetworkApi({
      [SEND]: (call) =>
        (call.body as { confirmRepeat?: boolean }[])[0]?.confirmRepeat
          ? Response.json({ sent: 1 })
          : errorAnswer(409, 'NEEDS_CONFIRMATION', question),
    });
    await openPanel('Ask Jane Doe for an intro to John Smith');
    const panel = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    await panel.findByLabelText(/^Message to Jane/);
    fireEvent.click(panel.getByRole('button', { name: 'Send intro request' }));
    const confirm = within(await screen.findByRole('dialog', { name: question }));
    // A question, not a failure: no error toast.
    expect(screen.queryByText(/Failed/)).toBeNull();
    fireEvent.click(confirm.getByRole('button', { name: 'Ask again' }));
    expect(await screen.findByText('Warm intro sent!')).toBeDefined();
    expect(api.callsTo(SEND).map((call) => (call.body as { confirmRepeat?: boolean }[])[0]?.confirmRepeat)).toEqual([
      undefined,
      true,
    ]);
  });

  it("asks a client ally's account owner, titled so, with the client source", async () => {
    const api = stubNetworkApi({ [SEND]: Response.json({ sent: 1 }) });
    await openPanel('Ask Olga Owner, account owner of Ivy Client, for an intro to John Smith');
    const panel = within(await screen.findByRole('dialog', { name: 'Ask account owner' }));
    expect(await panel.findByRole('region', { name: 'Ask: Olga Owner' })).toBeDefined();
    expect(panel.getByRole('region', { name: 'Who knows John: Ivy Client' })).toBeDefined();
    expect(
      panel.getByRole('img', {
        name: 'You → Olga Owner (account owner of Ivy Client) → Ivy Client (ally, Medium 55: Shared experience) → John Smith',
      }),
    ).toBeDefined();
    expect(api.callsTo(MODAL_DATA)[0]?.search.get('source')).toBe('client');
    expect(api.callsTo(MODAL_DATA)[0]?.search.get('connectorId')).toBe(ids.ivy);
    fireEvent.click(panel.getByRole('button', { name: 'Send intro request' }));
    expect(await screen.findByText('Warm intro sent!')).toBeDefined();
    expect(ZWarmIntroItems.parse(api.callsTo(SEND)[0]?.body)[0]).toMatchObject({
      connectorId: ids.ivy,
      prospectContactId: ids.john,
      source: 'client',
    });
  });

  it("says the intro failed, with the server's reason, and keeps the panel open", async () => {
    stubNetworkApi({
      [SEND]: errorAnswer(429, 'LIMIT_REACHED', 'Jane Doe already received 5 intro requests this week'),
    });
    await openPanel('Ask Jane Doe for an intro to John Smith');
    const panel = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    fireEvent.click(await panel.findByRole('button', { name: 'Send intro request' }));
    expect(await screen.findByText('Failed to send warm intro...')).toBeDefined();
    expect(screen.getByText('Jane Doe already received 5 intro requests this week')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Ask for an intro' })).toBeDefined();
  });

  it('cannot send without a request message, nor once the weekly cap is reached', async () => {
    stubNetworkApi({
      [MODAL_DATA]: Response.json({ ...janeIntro, introRequestsLast7Days: 5, weeklyCap: 5 }),
    });
    await openPanel('Ask Jane Doe for an intro to John Smith');
    const panel = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    expect(await panel.findByText('Jane Doe has reached the weekly limit of 5 intro requests.')).toBeDefined();
    expect(panel.getByRole('button', { name: 'Send intro request' })).toHaveProperty('disabled', true);
    cleanup();

    stubNetworkApi();
    await openPanel('Ask Jane Doe for an intro to John Smith');
    const open = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    fireEvent.change(await open.findByLabelText(/^Message to Jane/), { target: { value: '  ' } });
    expect(open.getByRole('button', { name: 'Send intro request' })).toHaveProperty('disabled', true);
  });

  it('without Google connected, says so and offers to connect instead of sending', async () => {
    const api = stubNetworkApi({ 'POST /google/authenticate': Response.json({ url: consentUrl }) });
    await openPanel('Ask Jane Doe for an intro to John Smith', { ...member, isGoogleConnected: false });
    const panel = within(await screen.findByRole('dialog', { name: 'Ask for an intro' }));
    expect(await panel.findByText('You must connect your Google account in order to send emails.')).toBeDefined();
    expect(panel.queryByRole('button', { name: 'Send intro request' })).toBeNull();
    fireEvent.click(panel.getByRole('button', { name: 'Connect Google' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(consentUrl));
    expect(api.callsTo('POST /google/authenticate')[0]?.search.get('redirectUrl')).toBe('/network');
  });

  it('closes on the close button without sending', async () => {
    const api = stubNetworkApi();
    await openPanel('Ask Bob Stone for an intro to John Smith');
    await screen.findByRole('dialog', { name: 'Ask for an intro' });
    fireEvent.click(screen.getByRole('button', { name: 'Close the panel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(SEND)).toHaveLength(0);
  });
});
