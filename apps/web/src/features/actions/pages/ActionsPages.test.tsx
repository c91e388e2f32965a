import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  askIntroActionMessage,
  introTargetForward,
  requestWithForwardNote,
  type TMe,
  thankYouNote,
  ZActionFiltersBody,
  ZSendAskIntroActionBody,
  ZSendDirectMessageActionBody,
  ZSendThankYouBody,
} from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { leaveTo } from '../../../lib/browser.ts';
import type { ApiCall } from '../../../testing/fakeApi.ts';
import { errorAnswer } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, member, renderApp } from '../../../testing/renderApp.tsx';
import { actionIds, recommendedActions, stubActionsApi } from '../testing/actionsFixtures.ts';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const RECOMMENDED = 'POST /actions/query/recommended-actions';

const tab = (name: RegExp) => screen.getByRole('tab', { name });
const recommendedTable = () => screen.getByRole('table', { name: 'Recommended actions' });
const rowOf = (name: string) => {
  const cell = within(recommendedTable()).getByText(name);
  const row = cell.closest('tr');
  if (!row) throw new Error(`No row for ${name}`);
  return within(row);
};

async function openRecommended(me: TMe = member) {
  const app = await renderApp('/actions', { signedIn: true, me });
  await within(await screen.findByRole('table', { name: 'Recommended actions' })).findByText('John Smith');
  return app;
}

describe('Recommended actions', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(leaveTo).mockClear();
  });

  it("welcomes the user with today's count, the tabs with theirs, and the spec's columns", async () => {
    const api = stubActionsApi();
    await openRecommended();
    expect(screen.getByRole('heading', { name: 'Welcome Ada!' })).toBeDefined();
    expect(await screen.findByText('We recommended 4 actions to you today.')).toBeDefined();
    expect(tab(/^Recommended \(4\)$/).getAttribute('aria-selected')).toBe('true');
    expect(tab(/^Past \(1\)$/)).toBeDefined();
    expect(tab(/^Pending \(1\)$/)).toBeDefined();
    expect(tab(/^Skipped \(1\)$/)).toBeDefined();
    expect(
      within(recommendedTable())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['SIGNALS', 'WARM LEAD', 'JOB TITLE', 'COMPANY', 'SIZE', 'ALLY', 'ACTION']);
    const john = rowOf('John Smith');
    expect(john.getByText('Head of Sales')).toBeDefined();
    expect(john.getByText('Acme')).toBeDefined();
    expect(john.getByText('51 - 200')).toBeDefined();
    expect(john.getByText('Jane Doe')).toBeDefined();
    // The top 2 signals, the third behind '+1'.
    expect(john.getByText('Visited pricing page')).toBeDefined();
    expect(john.getByRole('button', { name: 'Show 1 more signal' })).toBeDefined();
    expect(rowOf('Mary Major').getByText('Direct message')).toBeDefined();
    // A teammate's recommendation shows, without buttons for this user (spec section 6).
    const zoe = rowOf('Zoe Quinn');
    expect(zoe.queryByRole('button', { name: /^(Skip|Complete|Ask intro)/ })).toBeNull();
    expect(zoe.getByText('For a teammate')).toBeDefined();
    // Members get no filters.
    expect(screen.queryByText('Show')).toBeNull();
    expect(api.callsTo('GET /actions/query/recommended-actions-filters')).toHaveLength(0);
    expect(api.callsTo(RECOMMENDED)[0]?.search.toString()).toBe('page=1&pageSize=30');
    expect(screen.getByText('4 results')).toBeDefined();
  });

  it('says why each action was recommended in one line under it, the run’s own words, and what the colours mean', async () => {
    stubActionsApi();
    await openRecommended();
    // The line under John's row, spanning the columns, and the description of its button.
    const ask = rowOf('John Smith').getByRole('button', { name: 'Ask intro to John Smith' });
    const whyRow = ask.closest('tr')?.nextElementSibling;
    if (!(whyRow instanceof HTMLElement)) throw new Error('No line of why under John Smith');
    const why = within(whyRow).getByText('Why: warm (Visited pricing page): ask Jane Doe for an intro (proximity 70)');
    expect(why.closest('td')?.getAttribute('colspan')).toBe('7');
    expect(ask.getAttribute('aria-describedby')).toBe(why.id);
    expect(
      within(recommendedTable()).getByText('Why: warm (Past client): direct message, a past client'),
    ).toBeDefined();
    // An action made before the line was kept has none, and no empty row.
    expect(within(recommendedTable()).getAllByText(/^Why: /)).toHaveLength(3);
    const legend = within(screen.getByRole('group', { name: 'Signal temperatures' }));
    expect(legend.getByText('Warm')).toBeDefined();
    expect(legend.getByText('Medium')).toBeDefined();
    expect(legend.getByText('Cold')).toBeDefined();
  });

  it('skipping takes the action off the list and adds one to Skipped; completing adds one to Past', async () => {
    const api = stubActionsApi();
    await openRecommended();
    await screen.findByRole('tab', { name: /^Skipped \(1\)$/ });

    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Skip the action for John Smith' }));
    expect(await screen.findByText('Action skipped.')).toBeDefined();
    expect(api.callsTo('POST /actions/command/skip-action')[0]?.body).toEqual({ actionId: actionIds.askJohn });
    await waitFor(() => expect(within(recommendedTable()).queryByText('John Smith')).toBeNull());
    expect(await screen.findByRole('tab', { name: /^Skipped \(2\)$/ })).toBeDefined();
    expect(tab(/^Recommended \(3\)$/)).toBeDefined();
    expect(screen.getByText('We recommended 3 actions to you today.')).toBeDefined();

    fireEvent.click(rowOf('Mary Major').getByRole('button', { name: 'Complete the action for Mary Major' }));
    expect(await screen.findByText('Recommendation moved to past actions.')).toBeDefined();
    await waitFor(() => expect(within(recommendedTable()).queryByText('Mary Major')).toBeNull());
    expect(await screen.findByRole('tab', { name: /^Past \(2\)$/ })).toBeDefined();
    expect(tab(/^Recommended \(2\)$/)).toBeDefined();
    expect(tab(/^Skipped \(2\)$/)).toBeDefined();
  });

  it('says when a skip or a complete fails, and keeps the action where it was', async () => {
    const refused = () => errorAnswer(500, 'INTERNAL', 'Database unavailable');
    stubActionsApi({
      'POST /actions/command/skip-action': refused,
      'POST /actions/command/set-action-complete': refused,
    });
    await openRecommended();
    await screen.findByRole('tab', { name: /^Skipped \(1\)$/ });
    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Skip the action for John Smith' }));
    expect(await screen.findByText('Failed to skip action.')).toBeDefined();
    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Complete the action for John Smith' }));
    expect(await screen.findByText('Failed to move recommendation to past actions.')).toBeDefined();
    expect(rowOf('John Smith').getByText('Head of Sales')).toBeDefined();
    expect(tab(/^Skipped \(1\)$/)).toBeDefined();
    expect(tab(/^Past \(1\)$/)).toBeDefined();
  });

  it('Ask intro: signals, the context prefilled from the template, edited, sent; the panel closes and the action moves to Past', async () => {
    const api = stubActionsApi();
    await openRecommended();
    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Ask intro to John Smith' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Ask intro' }));
    expect(panel.getByRole('region', { name: 'Ask: Jane Doe' })).toBeDefined();
    expect(panel.getByRole('region', { name: 'Intro to: John Smith' })).toBeDefined();
    expect(panel.getByText('3 signals')).toBeDefined();
    expect(panel.getByText('Visited website')).toBeDefined();
    const context = panel.getByLabelText(/^Context/);
    const names = {
      connectorFullName: 'Jane Doe',
      targetFullName: 'John Smith',
      targetCompanyName: 'Acme',
      userFullName: 'Ada Lovelace',
    };
    expect(context).toHaveProperty(
      'value',
      requestWithForwardNote(askIntroActionMessage({ ...names, pastClient: null }), introTargetForward(names)),
    );
    // The request, then the note for John it announces, which Jane forwards.
    expect(String((context as HTMLTextAreaElement).value)).toMatch(
      /^Hi Jane,[\s\S]*you know John Smith at Acme[\s\S]*Below is a short note[\s\S]*---\n\nHi John,\n\nI would like to introduce you to Ada Lovelace/,
    );

    fireEvent.change(context, { target: { value: 'Jane, would you introduce me to John?' } });
    fireEvent.click(panel.getByRole('button', { name: 'Send intro request' }));
    expect(await screen.findByText('Request sent!')).toBeDefined();
    expect(
      ZSendAskIntroActionBody.parse(api.callsTo('POST /contacts/command/send-ask-intro-action-email')[0]?.body),
    ).toEqual({
      actionId: actionIds.askJohn,
      connectorId: '00000000-0000-4000-8000-000000000011',
      prospectContactId: '00000000-0000-4000-8000-000000000001',
      message: 'Jane, would you introduce me to John?',
      source: 'connector',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('tab', { name: /^Past \(2\)$/ })).toBeDefined();
    await waitFor(() => expect(within(recommendedTable()).queryByText('John Smith')).toBeNull());
  });

  it("Engage with Prospect: a past client's move prefilled with Unknown for the old company, then sent to their e-mail", async () => {
    const api = stubActionsApi();
    await openRecommended();
    fireEvent.click(rowOf('Mary Major').getByRole('button', { name: 'Engage with Mary Major' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Engage with Prospect' }));
    expect(panel.getByText('mary@globex.example')).toBeDefined();
    expect(panel.getByText('Unknown phone number')).toBeDefined();
    expect(panel.getByText('1 signal')).toBeDefined();
    expect(panel.getByText('Past client')).toBeDefined();
    const message = panel.getByLabelText(/^Message/);
    const prefill = String((message as HTMLTextAreaElement).value);
    expect(prefill).toMatch(/^Hi Mary Major,/);
    expect(prefill).toContain('your move to Globex');
    expect(prefill).toContain('working with you at Unknown');
    expect(prefill.trimEnd().split('\n').at(-1)).toBe('Ada Lovelace');
    const subject = panel.getByRole('textbox', { name: 'Subject' });
    expect((subject as HTMLInputElement).value).toBe('Hello from Ada Lovelace');
    fireEvent.change(subject, { target: { value: 'Congratulations on Globex' } });

    fireEvent.click(panel.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Message sent!')).toBeDefined();
    expect(
      ZSendDirectMessageActionBody.parse(
        api.callsTo('POST /contacts/command/send-direct-message-action-email')[0]?.body,
      ),
    ).toEqual({
      actionId: actionIds.moveMary,
      email: 'mary@globex.example',
      prospectContactId: '00000000-0000-4000-8000-000000000002',
      subject: 'Congratulations on Globex',
      message: prefill,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('tab', { name: /^Past \(2\)$/ })).toBeDefined();
  });

  it("without an e-mail: 'Unknown email', 'Hello {name}..', and a disabled 'Email not available'", async () => {
    const api = stubActionsApi();
    await openRecommended();
    fireEvent.click(rowOf('Paul Plain').getByRole('button', { name: 'Engage with Paul Plain' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Engage with Prospect' }));
    expect(panel.getByText('Unknown email')).toBeDefined();
    expect(panel.getByLabelText(/^Message/)).toHaveProperty('value', 'Hello Paul Plain..');
    const button = panel.getByRole('button', { name: 'Email not available' });
    expect(button).toHaveProperty('disabled', true);
    fireEvent.click(button);
    expect(api.callsTo('POST /contacts/command/send-direct-message-action-email')).toHaveLength(0);
    expect(panel.queryByRole('button', { name: 'Send message' })).toBeNull();
  });

  it('says when a send fails and keeps the panel open', async () => {
    stubActionsApi({
      'POST /contacts/command/send-ask-intro-action-email': errorAnswer(
        429,
        'LIMIT_REACHED',
        'Jane Doe already received 5 intro requests this week',
      ),
    });
    await openRecommended();
    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Ask intro to John Smith' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Ask intro' }));
    fireEvent.click(panel.getByRole('button', { name: 'Send intro request' }));
    expect(await screen.findByText('Request failed..')).toBeDefined();
    expect(screen.getByText('Jane Doe already received 5 intro requests this week')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Ask intro' })).toBeDefined();
    expect(tab(/^Past \(1\)$/)).toBeDefined();
  });

  it('without Google, both panels say so and offer to connect instead of sending', async () => {
    const api = stubActionsApi({
      'POST /google/authenticate': Response.json({ url: 'https://accounts.google.example/o/oauth2/auth' }),
    });
    await openRecommended({ ...member, isGoogleConnected: false });
    fireEvent.click(rowOf('John Smith').getByRole('button', { name: 'Ask intro to John Smith' }));
    const ask = within(await screen.findByRole('dialog', { name: 'Ask intro' }));
    expect(ask.getByText('You must connect your Google account in order to send emails.')).toBeDefined();
    expect(ask.queryByRole('button', { name: 'Send intro request' })).toBeNull();
    fireEvent.click(ask.getByRole('button', { name: 'Close the panel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(rowOf('Mary Major').getByRole('button', { name: 'Engage with Mary Major' }));
    const engage = within(await screen.findByRole('dialog', { name: 'Engage with Prospect' }));
    expect(engage.getByText('You must connect your Google account in order to send emails.')).toBeDefined();
    expect(engage.queryByRole('button', { name: 'Send message' })).toBeNull();
    fireEvent.click(engage.getByRole('button', { name: 'Connect Google' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://accounts.google.example/o/oauth2/auth'));
    expect(api.callsTo('POST /google/authenticate')[0]?.search.get('redirectUrl')).toBe('/actions');
  });

  it("gives admins the filters under 'Show': a change goes back to page 1, option search asks the server", async () => {
    // Three pages of recommendations, whatever the filters.
    const threePages = ({ search, body }: ApiCall) => {
      const { filters } = ZActionFiltersBody.parse(body);
      const rows = filters.length === 0 ? recommendedActions : recommendedActions.slice(1, 2);
      const page = Number(search.get('page'));
      return Response.json({ rows, pagination: { page, pageSize: 30, totalPages: 3, totalCount: 70 } });
    };
    const api = stubActionsApi({ [RECOMMENDED]: threePages });
    await openRecommended(admin);
    expect(screen.getByText('Show')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(api.callsTo(RECOMMENDED).at(-1)?.search.get('page')).toBe('2'));

    fireEvent.click(await screen.findByRole('textbox', { name: 'Companies' }));
    fireEvent.click(within(screen.getByRole('listbox', { name: 'Companies' })).getByRole('option', { name: /Globex/ }));
    await waitFor(() =>
      expect(ZActionFiltersBody.parse(api.callsTo(RECOMMENDED).at(-1)?.body).filters).toEqual([
        { filterName: 'company', values: ['00000000-0000-4000-8000-000000000202'] },
      ]),
    );
    expect(api.callsTo(RECOMMENDED).at(-1)?.search.get('page')).toBe('1');
    await waitFor(() => expect(within(recommendedTable()).queryByText('John Smith')).toBeNull());
    expect(within(recommendedTable()).getByText('Mary Major')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');

    fireEvent.change(screen.getByRole('textbox', { name: 'Users' }), { target: { value: ' tom ' } });
    await waitFor(() => expect(api.callsTo('GET /actions/query/recommended-actions-filters')).toHaveLength(2));
    const search = api.callsTo('GET /actions/query/recommended-actions-filters')[1]?.search;
    expect(search?.get('filterField')).toBe('user');
    expect(search?.get('searchTerm')).toBe('tom');
  });

  it('shows the skeleton while loading, then the error with a retry, or the empty state', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubActionsApi({ [RECOMMENDED]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await renderApp('/actions/recommended-actions', { signedIn: true, me: member });
    const table = await screen.findByRole('table', { name: 'Recommended actions' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    // 7 columns by 10 rows, under the header row.
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(within(table).getAllByRole('row')[1]?.querySelectorAll('td')).toHaveLength(7);
    answer(errorAnswer(500, 'INTERNAL', 'Recommendations are unavailable'));
    expect(await within(table).findByText('Recommendations are unavailable')).toBeDefined();
    expect(within(table).getByRole('button', { name: 'Try again' })).toBeDefined();
    cleanup();

    stubActionsApi({
      [RECOMMENDED]: Response.json({ rows: [], pagination: { page: 1, pageSize: 30, totalPages: 1, totalCount: 0 } }),
    });
    await renderApp('/actions', { signedIn: true, me: member });
    expect(await screen.findByText('No recommended actions today.')).toBeDefined();
  });

  it('loads no actions data for the restricted role', async () => {
    const api = stubActionsApi();
    // The contract knows three roles; the restricted one is whatever else the server may one day send.
    const restricted = { ...member, role: 'restricted' as string } as TMe;
    await renderApp('/actions', { signedIn: true, me: restricted });
    expect(await screen.findByText(/Actions are not available to your role/)).toBeDefined();
    fireEvent.click(screen.getByRole('tab', { name: 'Past' }));
    expect(await screen.findByText(/Actions are not available to your role/)).toBeDefined();
    expect(api.calls.filter((call) => call.path.startsWith('/actions'))).toEqual([]);
  });
});

describe('An empty recommended list', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const syncRun = (status: 'running' | 'succeeded') => ({
    id: '00000000-0000-4000-8000-000000000301',
    status,
    phase: status === 'running' ? 'Reading e-mails' : 'Done',
    processed: status === 'running' ? 120 : 400,
    total: 400,
    counts: null,
    error: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
  });

  it('shows the first sync’s progress and what comes next, then the recommendations as they arrive', async () => {
    let stage: 'syncing' | 'building' | 'ready' = 'syncing';
    const api = stubActionsApi({
      'GET /actions/query/counts': () =>
        Response.json({
          recommended: api.tabs.recommended.length,
          past: 0,
          pending: 0,
          skipped: 0,
          preparingRecommendations: stage !== 'ready',
        }),
      'GET /google/query/sync-status': () => Response.json(syncRun(stage === 'syncing' ? 'running' : 'succeeded')),
    });
    api.tabs.recommended = [];
    await renderApp('/actions', { signedIn: true, me: member });

    const status = within(await screen.findByRole('status', { name: 'Your first recommendations' }));
    expect(status.getByText('Your first recommendations are on their way.')).toBeDefined();
    expect(await status.findByText('120 of 400')).toBeDefined();
    expect(status.getByRole('progressbar', { name: 'Google sync progress' })).toBeDefined();
    expect(status.getByText(/Recommendations appear here as soon as your network is built/)).toBeDefined();
    // The spec's count stays where it is.
    expect(screen.getByText('We recommended 0 actions to you today.')).toBeDefined();

    // The sync is done; the network is being built.
    stage = 'building';
    expect(
      await status.findByText('Your network is being built from what you and your team connected.', undefined, {
        timeout: 5000,
      }),
    ).toBeDefined();
    expect(status.queryByRole('progressbar', { name: 'Google sync progress' })).toBeNull();

    // The first run is done: the list fills without a reload.
    api.tabs.recommended = [...recommendedActions];
    stage = 'ready';
    expect(await within(recommendedTable()).findByText('John Smith', undefined, { timeout: 6000 })).toBeDefined();
    expect(screen.getByText('We recommended 4 actions to you today.')).toBeDefined();
    expect(screen.queryByRole('status', { name: 'Your first recommendations' })).toBeNull();
  });

  it('points an admin with nothing to recommend to Leads, accounts, targeting and a teammate; a member to Leads and targeting', async () => {
    const api = stubActionsApi();
    api.tabs.recommended = [];
    await renderApp('/actions', { signedIn: true, me: admin });
    expect(await screen.findByText('No recommended actions today.')).toBeDefined();
    const links = () =>
      Object.fromEntries(
        within(recommendedTable())
          .getAllByRole('link')
          .map((link) => [link.textContent, link.getAttribute('href')]),
      );
    expect(links()).toEqual({
      'Open Leads': '/network',
      'Add accounts': '/admin/accounts',
      'Edit your targeting': '/profile/targeted-accounts',
      'Invite a teammate': '/admin/users',
    });
    // Nothing is on its way: the sync's status is not asked for.
    expect(api.callsTo('GET /google/query/sync-status')).toHaveLength(0);
    cleanup();

    stubActionsApi().tabs.recommended = [];
    await renderApp('/actions', { signedIn: true, me: member });
    expect(await screen.findByText('No recommended actions today.')).toBeDefined();
    expect(links()).toEqual({ 'Open Leads': '/network', 'Edit your targeting': '/profile/targeted-accounts' });
  });
});

describe('Past, pending and skipped actions', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("lists the user's past actions: USER, PROSPECT, JOB TITLE, COMPANY, CONNECTOR, DATE, and 'Replied'", async () => {
    const api = stubActionsApi();
    await renderApp('/actions/past-actions', { signedIn: true, me: member });
    expect(await screen.findByText('Review your past actions')).toBeDefined();
    const table = await screen.findByRole('table', { name: 'Past actions' });
    const row = within(table).getByText('John Smith').closest('tr');
    if (!row) throw new Error('No row for John Smith');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['USER', 'PROSPECT', 'JOB TITLE', 'COMPANY', 'CONNECTOR', 'DATE']);
    expect(within(row).getByText('Ada Lovelace')).toBeDefined();
    expect(within(row).getByText('Replied')).toBeDefined();
    expect(within(row).getByText('Jane Doe')).toBeDefined();
    expect(within(row).getByText('Sent 2 days ago')).toBeDefined();
    expect(tab(/^Past \(1\)$/).getAttribute('aria-selected')).toBe('true');
    expect(api.callsTo('GET /actions/query/filters')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: 'Connectors' })).toBeDefined();
  });

  it("thanks the connector of an answered intro request: the note prefilled, edited and sent; the row shows 'Thanked'", async () => {
    const api = stubActionsApi();
    await renderApp('/actions/past-actions', { signedIn: true, me: member });
    const table = await screen.findByRole('table', { name: 'Past actions' });
    const row = () => within(within(table).getByText('John Smith').closest('tr') as HTMLElement);
    await waitFor(() => expect(row().getByText('Replied')).toBeDefined());
    fireEvent.click(row().getByRole('button', { name: 'Send thank-you to Jane Doe' }));

    const panel = within(await screen.findByRole('dialog', { name: 'Thank-you note' }));
    expect(panel.getByRole('region', { name: 'Thank: Jane Doe' })).toBeDefined();
    expect(panel.getByRole('region', { name: 'For the intro to: John Smith' })).toBeDefined();
    const note = panel.getByLabelText(/^Note/);
    expect(note).toHaveProperty(
      'value',
      thankYouNote({ connectorFullName: 'Jane Doe', targetFullName: 'John Smith', userFullName: 'Ada Lovelace' }),
    );
    expect(String((note as HTMLTextAreaElement).value)).toMatch(
      /^Hi Jane,\n\nThank you for introducing me to John Smith/,
    );
    fireEvent.change(note, { target: { value: 'Jane, thank you so much!' } });
    fireEvent.click(panel.getByRole('button', { name: 'Send thank-you' }));

    expect(await screen.findByText('Thank-you sent!')).toBeDefined();
    expect(ZSendThankYouBody.parse(api.callsTo('POST /actions/command/send-thank-you')[0]?.body)).toEqual({
      actionId: actionIds.pastAskJohn,
      message: 'Jane, thank you so much!',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await row().findByText('Thanked')).toBeDefined();
    expect(row().queryByRole('button', { name: /Send thank-you/ })).toBeNull();
  });

  it('says when the thank-you fails and keeps the panel open; offers Google first when it is not connected', async () => {
    stubActionsApi({
      'POST /actions/command/send-thank-you': errorAnswer(
        422,
        'MISSING_EMAIL',
        'Jane Doe has no e-mail address to send the thank-you to.',
      ),
    });
    await renderApp('/actions/past-actions', { signedIn: true, me: member });
    const table = await screen.findByRole('table', { name: 'Past actions' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Send thank-you to Jane Doe' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Thank-you note' }));
    fireEvent.click(panel.getByRole('button', { name: 'Send thank-you' }));
    expect(await screen.findByText('Failed to send thank-you...')).toBeDefined();
    expect(screen.getByText('Jane Doe has no e-mail address to send the thank-you to.')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Thank-you note' })).toBeDefined();
    expect(within(table).queryByText('Thanked')).toBeNull();
    cleanup();

    stubActionsApi();
    await renderApp('/actions/past-actions', { signedIn: true, me: { ...member, isGoogleConnected: false } });
    const again = await screen.findByRole('table', { name: 'Past actions' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Send thank-you to Jane Doe' }));
    const connect = within(await screen.findByRole('dialog', { name: 'Thank-you note' }));
    expect(connect.getByText('You must connect your Google account in order to send emails.')).toBeDefined();
    expect(connect.queryByRole('button', { name: 'Send thank-you' })).toBeNull();
  });

  it('offers the thank-you only to the user who sent the request', async () => {
    // An admin sees the team's past actions, Ada's answered request among them.
    const teammate = { ...admin, id: '00000000-0000-4000-8000-000000000051' };
    stubActionsApi();
    await renderApp('/actions/past-actions', { signedIn: true, me: teammate });
    const table = await screen.findByRole('table', { name: 'Past actions' });
    expect(await within(table).findByText('Replied')).toBeDefined();
    expect(within(table).queryByRole('button', { name: /Send thank-you/ })).toBeNull();
  });

  it("shows the team's actions to admins, 'You' when nobody owns one, and each tab its own list", async () => {
    const api = stubActionsApi();
    await renderApp('/actions/skipped-actions', { signedIn: true, me: admin });
    expect(await screen.findByText("Review your team's past actions")).toBeDefined();
    const skipped = await screen.findByRole('table', { name: 'Skipped actions' });
    const row = (await within(skipped).findByText('Paul Plain')).closest('tr');
    if (!row) throw new Error('No row for Paul Plain');
    expect(within(row).getByText('You')).toBeDefined();
    expect(within(row).getByText('Sent 1 month ago')).toBeDefined();
    expect(within(row).queryByText('Replied')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: /^Pending/ }));
    const pending = await screen.findByRole('table', { name: 'Pending actions' });
    expect(await within(pending).findByText('Zoe Quinn')).toBeDefined();
    expect(api.callsTo('POST /actions/query/pending-actions')).toHaveLength(1);
  });

  it('narrows by a filter from page 1, and shows the gateway message when the list fails', async () => {
    const api = stubActionsApi();
    await renderApp('/actions/past-actions', { signedIn: true, me: member });
    await screen.findByRole('table', { name: 'Past actions' });
    fireEvent.click(await screen.findByRole('textbox', { name: 'Users' }));
    fireEvent.click(
      within(screen.getByRole('listbox', { name: 'Users' })).getByRole('option', { name: /Ada Lovelace/ }),
    );
    await waitFor(() =>
      expect(ZActionFiltersBody.parse(api.callsTo('POST /actions/query').at(-1)?.body).filters).toEqual([
        { filterName: 'user', values: ['7a8f8f5e-3b1e-4f6a-9f57-2f3f4a5b6c7d'] },
      ]),
    );
    expect(api.callsTo('POST /actions/query').at(-1)?.search.get('page')).toBe('1');
    cleanup();

    stubActionsApi({ 'POST /actions/query': errorAnswer(500, 'INTERNAL', '') });
    await renderApp('/actions/past-actions', { signedIn: true, me: member });
    expect(await screen.findByText('Failed to fetch past actions')).toBeDefined();
  });
});
