import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type TFilterItem, type TMe, ZFiltersBody } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { saveFile } from '../../../lib/browser.ts';
import type { ApiCall } from '../../../testing/fakeApi.ts';
import { errorAnswer } from '../../../testing/fakeApi.ts';
import { contactsPage, ids, networkFilters, stubNetworkApi } from '../../../testing/networkFixtures.ts';
import { APP_TEST_TIMEOUT_MS, admin, member, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const CONTACTS = 'POST /contacts/query';
const FILTERS = 'POST /contacts/query/filters';

function filtersOf(call: ApiCall | undefined): TFilterItem[] {
  return ZFiltersBody.parse(call?.body).filters;
}

function pageOf(call: ApiCall | undefined): { page: string | null; pageSize: string | null } {
  return { page: call?.search.get('page') ?? null, pageSize: call?.search.get('pageSize') ?? null };
}

async function findRow(name: string): Promise<HTMLElement> {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`${name} has no row`);
  return row;
}

/** The search field of a filter (its list of options bears the same name, and so may a report card). */
function filterField(label: string): HTMLElement {
  const field = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT');
  if (!field) throw new Error(`No filter labelled ${label}`);
  return field;
}

/** What a filter's field shows of its choice: All, None, names, or how many. */
function summaryOf(label: string): string {
  return filterField(label).closest('.mantine-PillsInput-root')?.textContent ?? '';
}

async function openFilter(label: string) {
  fireEvent.focus(filterField(label));
  return within(await screen.findByRole('listbox', { name: label }));
}

describe('Network page', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(saveFile).mockClear();
  });

  it('shows the report cards and a row per prospect under the spec columns', async () => {
    stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    const row = within(await findRow('John Smith'));
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'CONTACT',
      'COMPANY',
      'SIZE',
      'JOB TITLE',
      'ENGAGEMENT',
      'ALLIES',
      'PROXIMITY',
      'SIGNALS',
    ]);
    const contacts = within(screen.getByRole('region', { name: 'Contacts' }));
    expect(contacts.getByText('1,204')).toBeDefined();
    expect(contacts.getByText('+12%')).toBeDefined();
    expect(contacts.getByRole('img', { name: 'Contacts over the last 30 days: from 1,072 to 1,204' })).toBeDefined();
    // Nothing 30 days ago: the card says the allies are new, not '+100%'.
    const allies = within(screen.getByRole('region', { name: 'Allies' }));
    expect(allies.getByText('37')).toBeDefined();
    expect(allies.getByText('New this month')).toBeDefined();
    expect(allies.getByRole('img', { name: 'Allies over the last 30 days: from 0 to 37' })).toBeDefined();
    expect(within(screen.getByRole('region', { name: 'Companies' })).getByText('+0%')).toBeDefined();

    const link = row.getByRole('link', { name: 'John Smith' });
    expect(link.getAttribute('href')).toBe('https://www.linkedin.com/in/john-smith');
    expect(link.getAttribute('target')).toBe('_blank');
    const [contactCell] = row.getAllByRole('cell');
    if (!contactCell) throw new Error('No contact cell');
    expect(within(contactCell).getByText('J')).toBeDefined();
    expect(row.getByText('Acme')).toBeDefined();
    expect(row.getByText('51 - 200')).toBeDefined();
    expect(row.getByText('Head of Sales')).toBeDefined();
    expect(row.getByText('Met')).toBeDefined();
    expect(row.getByRole('button', { name: 'High 82, why? (John Smith)' })).toBeDefined();
    expect(row.queryByText('Intro requested')).toBeNull();

    const mary = within(await findRow('Mary Major'));
    expect(mary.queryByRole('link', { name: 'Mary Major' })).toBeNull();
    expect(mary.getByText('Not met')).toBeDefined();
    expect(mary.getByRole('button', { name: 'Low 20, why? (Mary Major)' })).toBeDefined();
    expect(mary.getByText('Intro requested')).toBeDefined();
    expect(screen.getByText('95 results')).toBeDefined();
  });

  it('shows the first two colleagues and client allies as avatars, the rest behind +n with their sources', async () => {
    stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    const row = within(await findRow('John Smith'));
    expect(row.getByRole('button', { name: 'Ask Jane Doe for an intro to John Smith' })).toBeDefined();
    expect(row.getByRole('button', { name: 'Ask Bob Stone for an intro to John Smith' })).toBeDefined();
    expect(
      row.getByRole('button', { name: 'Ask Olga Owner, account owner of Ivy Client, for an intro to John Smith' }),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Ask Carl Ray for an intro to John Smith' })).toBeNull();
    expect(row.queryByRole('button', { name: /more client allies/ })).toBeNull();

    fireEvent.click(row.getByRole('button', { name: 'Show 1 more colleague' }));
    const carl = await screen.findByRole('button', { name: 'Ask Carl Ray for an intro to John Smith' });
    expect(
      within(carl)
        .getAllByRole('img')
        .map((icon) => icon.getAttribute('aria-label')),
    ).toEqual(['Google mail', 'Shared experience', 'LinkedIn connection']);
  });

  it('shows the two strongest signals, the rest behind +n', async () => {
    stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    const row = within(await findRow('John Smith'));
    expect(row.getByText('Past client')).toBeDefined();
    expect(row.getByText('Worked with a client (Investor)')).toBeDefined();
    expect(screen.queryByText('Visited website')).toBeNull();
    fireEvent.click(row.getByRole('button', { name: 'Show 1 more signal' }));
    expect(await screen.findByText('Visited website')).toBeDefined();
  });

  it('says why a proximity is what it is, loading the evidence when asked', async () => {
    const api = stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    const row = within(await findRow('John Smith'));
    expect(api.callsTo('GET /contacts/query/proximity-explanation')).toHaveLength(0);
    const badge = row.getByRole('button', { name: 'High 82, why? (John Smith)' });
    expect(badge.textContent).toBe('High 82');
    fireEvent.click(badge);
    const why = await screen.findByRole('dialog', { name: 'High 82, why? (John Smith)' });
    expect(await within(why).findByText('Proximity High 82')).toBeDefined();
    expect(api.callsTo('GET /contacts/query/proximity-explanation')[0]?.search.get('prospectId')).toBe(ids.john);

    // Each path's channels, strongest first: what each adds adds up to the link shown under them.
    const jane = within(within(why).getByRole('region', { name: 'Jane Doe' }));
    expect(jane.getByText('Colleague Jane Doe: High 82')).toBeDefined();
    const rows = (path: typeof jane) =>
      path
        .getAllByRole('row')
        .slice(1)
        .map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent));
    expect(rows(jane)).toEqual([
      ['Google meeting', '+78', '78', '3 meetings in the last 6 months'],
      ['LinkedIn connection', '+4', '20', 'Connected on LinkedIn'],
    ]);
    expect(jane.getByText('Link 82')).toBeDefined();
    const ivy = within(within(why).getByRole('region', { name: 'Ivy Client' }));
    expect(ivy.getByText('Ally Ivy Client (via Olga Owner): Medium 34')).toBeDefined();
    const added = rows(ivy).reduce((sum, cells) => sum + Number(cells[1]), 0);
    expect(ivy.getByText(`Link ${added} × trust in the ally 50% = 34`)).toBeDefined();
  });

  it('opens on one person when the link names them, as the webhook events link', async () => {
    const api = stubNetworkApi();
    await renderApp(`/network?personId=${ids.john}`, { signedIn: true, me: member });
    await waitFor(() => expect(api.callsTo(CONTACTS)).not.toHaveLength(0));
    expect(filtersOf(api.callsTo(CONTACTS)[0])).toEqual([{ name: 'personName', values: [ids.john] }]);
  });

  it('asks for the first page of 30 with no filters, then pages and changes the page size back to page 1', async () => {
    const api = stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    expect(pageOf(api.callsTo(CONTACTS)[0])).toEqual({ page: '1', pageSize: '30' });
    expect(filtersOf(api.callsTo(CONTACTS)[0])).toEqual([]);
    const pages = within(screen.getByRole('navigation', { name: 'Contacts pages' }));
    expect(pages.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Previous',
      '1',
      '2',
      '3',
      '4',
      'Next',
    ]);
    expect(pages.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);

    fireEvent.click(pages.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(pageOf(api.callsTo(CONTACTS).at(-1))).toEqual({ page: '2', pageSize: '30' }));
    await waitFor(() =>
      expect(pages.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page'),
    );

    const pageSize = screen.getByLabelText('Rows per page');
    expect(Array.from(pageSize.querySelectorAll('option')).map((option) => option.textContent)).toEqual([
      '15',
      '20',
      '30',
      '50',
      '100',
    ]);
    fireEvent.change(pageSize, { target: { value: '15' } });
    await waitFor(() => expect(pageOf(api.callsTo(CONTACTS).at(-1))).toEqual({ page: '1', pageSize: '15' }));
  });

  it('on a filter change goes back to page 1 with the same page size, and counts the options again', async () => {
    const api = stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(pageOf(api.callsTo(CONTACTS).at(-1)).page).toBe('3'));

    const companies = await openFilter('Companies');
    expect(companies.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All',
      'Acme12',
      'Globex7',
      'Load More',
    ]);
    // Every company is in while the filter is All: picking Acme leaves the others.
    fireEvent.click(companies.getByRole('option', { name: /^Acme/ }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([{ name: 'companyName', values: ['globex'] }]),
    );
    expect(pageOf(api.callsTo(CONTACTS).at(-1))).toEqual({ page: '1', pageSize: '30' });
    await waitFor(() =>
      expect(filtersOf(api.callsTo(FILTERS).at(-1))).toEqual([{ name: 'companyName', values: ['globex'] }]),
    );
    expect(summaryOf('Companies')).toContain('Globex');

    // 'All' twice: all again (a page already loaded), then none.
    fireEvent.click(companies.getByRole('option', { name: 'All' }));
    await waitFor(() => expect(summaryOf('Companies')).toContain('All'));
    fireEvent.click(companies.getByRole('option', { name: 'All' }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([{ name: 'companyName', values: ['EMPTY_STATE'] }]),
    );
    expect(summaryOf('Companies')).toContain('None');
  });

  it('loads more companies page by page, and searches the options after a pause', async () => {
    const api = stubNetworkApi({
      'POST /contacts/query/filters/search': ({ search }) =>
        Response.json({
          options:
            search.get('searchTerm') === 'hoo' ? [{ key: 'hooli', name: 'Hooli', count: 2, companyLogo: null }] : [],
        }),
    });
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    const companies = await openFilter('Companies');
    fireEvent.click(companies.getByRole('option', { name: 'Load More' }));
    await companies.findByRole('option', { name: /^Initech/ });
    expect(companies.queryByRole('option', { name: 'Load More' })).toBeNull();
    expect(api.callsTo(FILTERS).at(-1)?.search.get('companyNamePage')).toBe('2');

    fireEvent.change(filterField('Companies'), { target: { value: 'hoo' } });
    expect(api.callsTo('POST /contacts/query/filters/search')).toHaveLength(0);
    await companies.findByRole('option', { name: /^Hooli/ });
    const searched = api.callsTo('POST /contacts/query/filters/search');
    expect(searched).toHaveLength(1);
    expect(searched[0]?.search.get('filterField')).toBe('companyName');
    expect(companies.queryByRole('option', { name: 'All' })).toBeNull();
  });

  it('says how to find the allies left out of a long list', async () => {
    const allies = {
      filterField: 'connector',
      prettyName: 'Allies',
      options: [{ key: ids.jane, name: 'Jane Doe', count: 40, avatar: null, companyName: 'Acme', tag: 'internal' }],
      hasMore: true,
    } as const;
    stubNetworkApi({
      'POST /contacts/query/filters': Response.json({ filters: [...networkFilters.filters, allies] }),
    });
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    const list = await openFilter('Allies');
    await list.findByRole('option', { name: /^Jane Doe/ });
    expect(screen.getByText('The 50 with the most prospects: search to find the others')).toBeDefined();
    // Companies come in pages instead: no such line under them.
    fireEvent.keyDown(filterField('Allies'), { key: 'Escape' });
    await openFilter('Companies');
    expect(screen.queryByText(/search to find the others/)).toBeNull();
  });

  it('keeps the ideal customer profile, personas and my accounts exclusive, clearing the field filters', async () => {
    const api = stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    const proximities = await openFilter('Proximities');
    fireEvent.click(proximities.getByRole('option', { name: /^Low/ }));
    await waitFor(() => expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toHaveLength(1));

    fireEvent.click(screen.getByRole('switch', { name: 'Personas' }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([{ name: 'personas', values: ['true'] }]),
    );
    fireEvent.click(screen.getByRole('switch', { name: 'My accounts' }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([{ name: 'myAccounts', values: ['true'] }]),
    );
    expect(screen.getByRole('switch', { name: 'Personas' })).toHaveProperty('checked', false);
    fireEvent.click(screen.getByRole('switch', { name: 'External allies only' }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([
        { name: 'myAccounts', values: ['true'] },
        { name: 'externalOnly', values: ['true'] },
      ]),
    );
    expect(screen.getByRole('switch', { name: 'Ideal customer profile' })).toHaveProperty('checked', false);
  });

  it('downloads the CSV of the current filters under a timestamped name, with the spec toasts', async () => {
    const api = stubNetworkApi({
      'POST /contacts/query/export-csv': new Response('name,company\nJohn Smith,Acme\n', {
        headers: { 'Content-Type': 'text/csv' },
      }),
    });
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    fireEvent.click(screen.getByRole('switch', { name: 'Ideal customer profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('CSV Download started.')).toBeDefined();
    expect(await screen.findByText('CSV Download finished successfully!.')).toBeDefined();
    expect(filtersOf(api.callsTo('POST /contacts/query/export-csv')[0])).toEqual([
      { name: 'idealCustomerProfile', values: ['true'] },
    ]);
    const [file, name] = vi.mocked(saveFile).mock.calls[0] ?? [];
    expect(name).toMatch(/^warmpath-export-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.csv$/);
    await expect(file?.text()).resolves.toBe('name,company\nJohn Smith,Acme\n');
  });

  it('says the export failed when it does', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubNetworkApi({
      'POST /contacts/query/export-csv': errorAnswer(500, 'INTERNAL', 'boom'),
    });
    await renderApp('/network', { signedIn: true, me: member });
    await findRow('John Smith');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Failed to export CSV')).toBeDefined();
    expect(screen.queryByText('boom')).toBeNull();
    expect(saveFile).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('says what to do when the network is empty: connect Google, import LinkedIn, add allies', async () => {
    stubNetworkApi({ [CONTACTS]: Response.json(contactsPage([], 1, 30, 0)) });
    const newcomer: TMe = { ...admin, isGoogleConnected: false, isLinkedinConnected: false };
    await renderApp('/network', { signedIn: true, me: newcomer });
    expect(await screen.findByText('Your network is empty for now.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Connect your Google account' }).getAttribute('href')).toBe(
      '/sign-up/sync',
    );
    expect(screen.getByRole('link', { name: 'Import your LinkedIn connections' }).getAttribute('href')).toBe(
      '/sign-up/sync',
    );
    expect(screen.getByRole('link', { name: 'Add allies to map your network from' }).getAttribute('href')).toBe(
      '/admin/network-allies',
    );
    expect(screen.getByText('0 results')).toBeDefined();
  });

  it('tells a member who is connected to ask an admin for allies, and offers to clear filters that match nobody', async () => {
    const api = stubNetworkApi({
      [CONTACTS]: Response.json(contactsPage([], 1, 30, 0)),
    });
    await renderApp('/network', { signedIn: true, me: member });
    expect(await screen.findByText('Google is connected.')).toBeDefined();
    expect(screen.getByText('Your LinkedIn connections are imported.')).toBeDefined();
    expect(screen.getByText(/Ask an admin to add allies/)).toBeDefined();
    fireEvent.click(screen.getByRole('switch', { name: 'Personas' }));
    await waitFor(() =>
      expect(filtersOf(api.callsTo(CONTACTS).at(-1))).toEqual([{ name: 'personas', values: ['true'] }]),
    );
    expect(await screen.findByText('No contacts match these filters.')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Your network is empty for now.')).toBeDefined();
    expect(screen.getByRole('switch', { name: 'Personas' })).toHaveProperty('checked', false);
  });

  it("shows the gateway's message when the table cannot be loaded, and loads it again on request", async () => {
    let fail = true;
    stubNetworkApi({
      [CONTACTS]: () =>
        fail ? errorAnswer(500, 'INTERNAL', 'Database down') : Response.json(contactsPage([], 1, 30, 0)),
    });
    await renderApp('/network', { signedIn: true, me: member });
    expect(await screen.findByText('Failed to fetch network table data')).toBeDefined();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your network is empty for now.')).toBeDefined();
  });

  it('shows skeletons while the table and the filters load', async () => {
    const never = () => new Promise<Response>(() => undefined);
    stubNetworkApi({ [CONTACTS]: never, [FILTERS]: never });
    await renderApp('/network', { signedIn: true, me: member });
    const table = await screen.findByRole('table', { name: 'Contacts' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(within(table).getAllByRole('row')[1]?.querySelectorAll('td')).toHaveLength(8);
    expect(screen.getByRole('status', { name: 'Loading the filters' })).toBeDefined();
  });

  it("offers an admin a person's data export and an erasure after a confirmation; a member sees neither", async () => {
    const api = stubNetworkApi({
      [`POST /people/command/erase/${ids.john}`]: () => new Response(null, { status: 204 }),
    });
    await renderApp('/network', { signedIn: true, me: admin });
    const row = within(await findRow('John Smith'));
    fireEvent.click(row.getByRole('button', { name: 'Personal data of John Smith' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Erase person' }));
    expect(await screen.findByText(/Erase John Smith\? Their mail and meeting records/)).toBeDefined();
    expect(api.callsTo(`POST /people/command/erase/${ids.john}`)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('John Smith was erased.')).toBeDefined();
    expect(api.callsTo(`POST /people/command/erase/${ids.john}`)).toHaveLength(1);
    cleanup();

    stubNetworkApi();
    await renderApp('/network', { signedIn: true, me: member });
    const theirs = within(await findRow('John Smith'));
    expect(theirs.queryByRole('button', { name: 'Personal data of John Smith' })).toBeNull();
  });
});
