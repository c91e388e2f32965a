import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TClient, TClientsPage, TDeparture, TImportStatus, TJobChange } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureAnalytics } from '../../../lib/analytics.ts';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { type ApiCall, errorAnswer, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, member, publicConfig, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const ALLIES = 'GET /clients/query/allies-to-map-network-from';
const TRACKED = 'GET /clients/query/clients-for-job-changes-tracking';
const SAVE = 'POST /clients/command/create-update-single-client';
const UPLOAD = 'POST /clients/command/upload-clients';

function client(id: string, firstName: string, lastName: string, overrides: Partial<TClient> = {}): TClient {
  return {
    id,
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}@navy.example`,
    companyName: 'Navy',
    companyDomain: 'navy.example',
    linkedinUrl: `https://www.linkedin.com/in/${firstName.toLowerCase()}`,
    contactOwner: null,
    tag: null,
    source: 'manual',
    mapNetwork: true,
    trackJobChanges: false,
    detailedClientData: {
      clientFullName: `${firstName} ${lastName}`,
      clientImage: null,
      clientCompanyName: 'Navy',
      clientCompanyImage: null,
    },
    engagement: 'MET',
    proximity: 80,
    ...overrides,
  };
}

const grace = client('5d0c8f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f', 'Grace', 'Hopper', {
  tag: 'Ally',
  contactOwner: 'ada@engines.example',
  trackJobChanges: true,
});
const alan = client('0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b', 'Alan', 'Turing', { source: 'csv' });

function page(rows: TClient[], totalCount = rows.length): TClientsPage {
  return { rows, pagination: { page: 1, pageSize: 30, totalPages: Math.ceil(totalCount / 30), totalCount } };
}

async function findRow(name: string): Promise<HTMLElement> {
  const row = (await screen.findByRole('link', { name: new RegExp(name) })).closest('tr');
  if (!row) throw new Error(`${name} has no row`);
  return row;
}

/** A form field by its label (the required ones end with Mantine's asterisk; the tag's suggestions share its label). */
function field(label: string): HTMLInputElement {
  const input = screen
    .getAllByLabelText(new RegExp(`^${label}\\s*\\*?$`))
    .find((element): element is HTMLInputElement => element instanceof HTMLInputElement);
  if (!input) throw new Error(`No field labelled ${label}`);
  return input;
}
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

function fillValidClient() {
  type('First name', 'Katherine');
  type('Last name', 'Johnson');
  type('Email', 'katherine@nasa.example');
  type('Company name', 'NASA');
  type('Company Domain', 'https://nasa.example/');
  type('Linkedin profile URL', 'linkedin.com/in/katherine');
}

describe('Allies to map network from', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    configureAnalytics(null);
  });

  it('lists the allies under the spec columns, with their tag, source and contact card', async () => {
    stubApi({ [ALLIES]: Response.json(page([grace, alan])) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    const row = within(await findRow('Grace Hopper'));
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Contact',
      'Company',
      'Contact Owner',
      'Tag',
      'Source',
      'Actions',
    ]);
    // The name is the link, named by what it shows; engagement and proximity beside it.
    const card = row.getByRole('link', { name: 'Grace Hopper, LinkedIn profile' });
    expect(card.textContent).toBe('Grace Hopper');
    expect(card.getAttribute('href')).toBe('https://www.linkedin.com/in/grace');
    expect(card.getAttribute('target')).toBe('_blank');
    expect(row.getByText('Met')).toBeDefined();
    expect(row.getByText('High 80')).toBeDefined();
    expect(row.getByText('Ally')).toBeDefined();
    expect(row.getByText('ada@engines.example')).toBeDefined();
    expect(within(await findRow('Alan Turing')).getByText('Unknown')).toBeDefined();
    expect(screen.getByText('2 results')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Import allies to map network from' })).toBeDefined();
  });

  it('says so when there is no ally yet, and shows the error of a failed load', async () => {
    stubApi({ [ALLIES]: Response.json(page([])) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    expect(await screen.findByText('No allies yet: import a CSV file or add one.')).toBeDefined();
    cleanup();

    stubApi({ [ALLIES]: errorAnswer(500, 'INTERNAL', 'Boom') });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch clients');
  });

  it('searches 1000 ms after the last keystroke, from page 1', async () => {
    const api = stubApi({ [ALLIES]: Response.json(page([grace])) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    await findRow('Grace Hopper');
    fireEvent.change(screen.getByPlaceholderText('Search clients & allies'), { target: { value: 'hop' } });
    expect(api.callsTo(ALLIES)).toHaveLength(1);
    await waitFor(() => expect(api.callsTo(ALLIES)).toHaveLength(2), { timeout: 3000 });
    expect(api.callsTo(ALLIES)[1]?.search.get('searchTerm')).toBe('hop');
    expect(api.callsTo(ALLIES)[1]?.search.get('page')).toBe('1');
  });

  it('adds an ally from the side panel: the spec messages, then Create with mapNetwork, and the row joins', async () => {
    const created = client('9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', 'Katherine', 'Johnson');
    const api = stubApi({ [ALLIES]: Response.json(page([grace])), [SAVE]: Response.json(created) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    await findRow('Grace Hopper');
    fireEvent.click(screen.getByRole('button', { name: 'Add ally' }));
    expect(await screen.findByRole('dialog', { name: 'Add client or ally' })).toBeDefined();
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toHaveProperty('disabled', true);

    type('Email', 'not-an-email');
    type('Company Domain', 'http://nodot/');
    type('Linkedin profile URL', 'https://example.com/in/someone');
    type('First name', '   ');
    expect(create).toHaveProperty('disabled', false);
    fireEvent.click(create);
    expect(await screen.findByText('First name is required')).toBeDefined();
    expect(screen.getByText('Last name is required')).toBeDefined();
    expect(screen.getByText('Email must be a valid email address')).toBeDefined();
    expect(screen.getByText('Company name is required')).toBeDefined();
    expect(screen.getByText('Company domain must be a valid domain (e.g., example.com)')).toBeDefined();
    expect(screen.getByText('Linkedin URL must be a valid LinkedIn profile URL')).toBeDefined();
    expect(api.callsTo(SAVE)).toHaveLength(0);

    type('Email', '');
    type('Company Domain', '');
    type('Linkedin profile URL', '');
    fireEvent.click(create);
    expect(await screen.findByText('Email is required')).toBeDefined();
    expect(screen.getByText('Company domain is required')).toBeDefined();
    expect(screen.getByText('Linkedin URL is required')).toBeDefined();

    fillValidClient();
    fireEvent.click(create);
    expect(await screen.findByText('Client Added!')).toBeDefined();
    expect(api.callsTo(SAVE)[0]?.body).toEqual({
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: 'katherine@nasa.example',
      companyName: 'NASA',
      companyDomain: 'nasa.example',
      linkedinUrl: 'https://www.linkedin.com/in/katherine',
      mapNetwork: true,
      trackJobChanges: false,
    });
    expect(await findRow('Katherine Johnson')).toBeDefined();
    expect(screen.getByText('2 results')).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add client or ally' })).toBeNull());
  });

  it('sends an invalid contact owner to no one, and a typed tag once the debounce ends or the field is left', async () => {
    const api = stubApi({ [ALLIES]: Response.json(page([])), [SAVE]: Response.json(alan) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Add ally' }));
    await screen.findByRole('dialog', { name: 'Add client or ally' });
    fillValidClient();
    type('Contact owner', 'owner');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Contact owner must be a valid email address')).toBeDefined();

    type('Contact owner', 'owner@engines.example');
    const tag = field('Tag');
    fireEvent.change(tag, { target: { value: 'Board member' } });
    fireEvent.blur(tag);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body).toMatchObject({ contactOwner: 'owner@engines.example', tag: 'Board member' });
  });

  it('tells the failure of an addition', async () => {
    stubApi({
      [ALLIES]: Response.json(page([])),
      [SAVE]: errorAnswer(409, 'ALREADY_EXISTS', 'Already in the list'),
    });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Add ally' }));
    await screen.findByRole('dialog', { name: 'Add client or ally' });
    fillValidClient();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Addition Failure')).toBeDefined();
    expect(screen.getByText('Already in the list')).toBeDefined();
  });

  it('edits a row: identity fields disabled, Update keeps the id and flags, and the row is replaced', async () => {
    const updated = { ...grace, tag: 'Investor' };
    const api = stubApi({ [ALLIES]: Response.json(page([grace, alan])), [SAVE]: Response.json(updated) });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    fireEvent.click(within(await findRow('Grace Hopper')).getByRole('button', { name: 'Edit Grace Hopper' }));
    await screen.findByRole('dialog', { name: 'Add client or ally' });
    for (const label of ['First name', 'Last name', 'Email', 'Linkedin profile URL']) {
      expect(field(label)).toHaveProperty('disabled', true);
    }
    expect(field('Company name')).toHaveProperty('disabled', false);
    expect(field('Contact owner').value).toBe('ada@engines.example');
    const tag = field('Tag');
    expect(tag.value).toBe('Ally');
    fireEvent.change(tag, { target: { value: 'Investor' } });
    fireEvent.blur(tag);
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body).toMatchObject({
      id: grace.id,
      firstName: 'Grace',
      email: 'grace@navy.example',
      tag: 'Investor',
      mapNetwork: true,
      trackJobChanges: true,
    });
    expect(await within(await findRow('Grace Hopper')).findByText('Investor')).toBeDefined();
    expect(screen.getByText('2 results')).toBeDefined();
  });

  it('deletes an ally once confirmed, and keeps it on Cancel', async () => {
    const api = stubApi({
      [ALLIES]: Response.json(page([grace, alan])),
      [`DELETE /clients/command/delete-client/${alan.id}`]: noContent,
    });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    fireEvent.click(within(await findRow('Alan Turing')).getByRole('button', { name: 'Delete Alan Turing' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you sure you want to delete this ally?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(within(await findRow('Alan Turing')).getByRole('button', { name: 'Delete Alan Turing' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Are you sure you want to delete this ally?' })).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: /Alan Turing/ })).toBeNull());
    expect(screen.getByText('1 result')).toBeDefined();
  });

  it("sends an ally a share link from the row's Share menu, and shows what they shared", async () => {
    const api = stubApi({
      [ALLIES]: Response.json(page([grace])),
      [`POST /clients/command/send-share-link/${grace.id}`]: Response.json({
        sentTo: 'grace@navy.example',
        expiresAt: '2026-12-10T09:00:00.000Z',
      }),
      [`GET /clients/query/shared-connections/${grace.id}`]: Response.json({
        rows: [
          {
            fullName: 'Ada Lovelace',
            profileUrl: 'https://www.linkedin.com/in/ada',
            email: null,
            company: 'Engines',
            position: 'CTO',
          },
        ],
      }),
    });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    const row = within(await findRow('Grace Hopper'));
    // Share, Edit and Delete: the row's three buttons, the two sharing actions behind the first.
    expect(row.getAllByRole('button').map((button) => button.textContent)).toEqual(['Share', 'Edit', 'Delete']);

    fireEvent.click(row.getByRole('button', { name: 'Share with Grace Hopper' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Send a share link' }));
    expect(await screen.findByText('Share link sent to grace@navy.example.')).toBeDefined();
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `/clients/command/send-share-link/${grace.id}`,
    ]);

    fireEvent.click(row.getByRole('button', { name: 'Share with Grace Hopper' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'See what they shared' }));
    const shared = within(await screen.findByRole('table', { name: 'Shared connections' }));
    expect(shared.getByText('Ada Lovelace')).toBeDefined();
    expect(shared.getByText('CTO')).toBeDefined();
  });

  it('imports allies from a CSV file with mapNetwork, shows the counts and says so', async () => {
    const result: TImportStatus = {
      id: '1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809',
      kind: 'clients',
      fileName: 'allies.csv',
      status: 'completed',
      bytesReceived: 40,
      rowsProcessed: 3,
      mergeStep: null,
      added: 2,
      updated: 0,
      skipped: 0,
      rejected: 1,
      rejectedRowsUrl: '/imports/query/1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809/rejected-rows',
      error: null,
      createdAt: '2026-01-05T10:00:00.000Z',
      finishedAt: '2026-01-05T10:00:01.000Z',
    };
    const api = stubApi({
      [ALLIES]: Response.json(page([grace])),
      [UPLOAD]: Response.json(result),
      'POST /capture/': Response.json({ status: 1 }),
    });
    await renderApp(
      '/admin/network-allies',
      { signedIn: true, me: admin },
      { ...publicConfig, posthogKey: 'phc_test' },
    );
    await findRow('Grace Hopper');
    fireEvent.click(screen.getByRole('button', { name: 'Import allies to map network from' }));
    const file = new File(['First name\r\nAda\r\n'], 'allies.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Clients uploaded!')).toBeDefined();
    expect(await screen.findByText('Rejected: 1')).toBeDefined();

    const upload = api.callsTo(UPLOAD)[0] as ApiCall;
    expect(upload.search.get('importId')).toMatch(/^[0-9a-f-]{36}$/);
    const form = upload.body as FormData;
    expect([...form.keys()]).toEqual(['mapNetwork', 'trackJobChanges', 'file']);
    expect(form.get('mapNetwork')).toBe('true');
    expect(form.get('trackJobChanges')).toBe('false');

    const events = api.callsTo('POST /capture/').map((call) => (typeof call.body === 'object' ? call.body : null));
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'uploaded CSV file',
        properties: expect.objectContaining({ fileName: 'allies.csv' }),
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await findRow('Grace Hopper')).toBeDefined();
    // The list is fetched again after the import.
    expect(api.callsTo(ALLIES).length).toBeGreaterThanOrEqual(2);
  });

  it('shows the failure of an import', async () => {
    stubApi({
      [ALLIES]: Response.json(page([])),
      [UPLOAD]: errorAnswer(422, 'FILE_UNREADABLE', 'The file has no usable header'),
    });
    await renderApp('/admin/network-allies', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Import allies to map network from' }));
    const file = new File(['nothing'], 'allies.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Upload failed...')).toBeDefined();
    expect(
      await screen.findByText('The file has no usable header', { selector: '.mantine-Alert-body *' }),
    ).toBeDefined();
  });

  it('keeps members out of the admin lists', async () => {
    const api = stubApi({ [ALLIES]: Response.json(page([grace])) });
    const { router } = await renderApp('/admin/network-allies', { signedIn: true, me: member });
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin/network-allies'));
    expect(api.callsTo(ALLIES)).toHaveLength(0);
  });
});

describe('Job changes tracking', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('adds a tracked client with trackJobChanges and asks before deleting one', async () => {
    const tracked = { ...alan, mapNetwork: false, trackJobChanges: true };
    const api = stubApi({
      [TRACKED]: Response.json(page([tracked])),
      [SAVE]: Response.json(client('9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', 'Katherine', 'Johnson')),
    });
    await renderApp('/admin/job-changes-tracking', { signedIn: true, me: admin });
    await findRow('Alan Turing');
    expect(screen.getByRole('button', { name: 'Import contacts to track' })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findByRole('dialog', { name: 'Add client or ally' });
    fillValidClient();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body).toMatchObject({ mapNetwork: false, trackJobChanges: true });

    fireEvent.click(within(await findRow('Alan Turing')).getByRole('button', { name: 'Delete Alan Turing' }));
    expect(await screen.findByRole('dialog', { name: 'Are you sure you want to delete this client?' })).toBeDefined();
  });

  it('shows the job changes seen, recent ones first, with the claim and where each was seen', async () => {
    const change: TJobChange = {
      id: '5c4b8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e',
      person: { id: '6d5c9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f', name: 'Ada Byron' },
      pastCompanyName: 'Analytical Engines',
      newCompanyName: 'Difference Engines',
      changedOn: '2026-11-20',
      source: 'linkedin',
      confidence: 'certain',
      tracked: true,
      status: 'confirmed',
    };
    const api = stubApi({
      [TRACKED]: Response.json(page([])),
      'GET /clients/query/job-changes': (call) =>
        Response.json({
          changes:
            call.search.get('recentDays') === '30'
              ? [change]
              : [change, { ...change, id: '7e6d0f1a-2b3c-4d4e-8f5a-6b7c8d9e0f1a', changedOn: '2025-01-02' }],
          departures: [],
        }),
    });
    await renderApp('/admin/job-changes-tracking', { signedIn: true, me: admin });
    const table = await screen.findByRole('table', { name: 'Detected job changes' });
    expect(screen.getByText('Former clients convert 3 times more than cold outbound.')).toBeDefined();
    const row = await within(table).findByRole('row', { name: /Ada Byron/ });
    expect(within(row).getByText('Tracked client')).toBeDefined();
    expect(within(row).getByText('Analytical Engines')).toBeDefined();
    expect(within(row).getByText('Difference Engines')).toBeDefined();
    expect(within(row).getByText('LinkedIn export')).toBeDefined();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Changed in the last 30 days' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(api.callsTo('GET /clients/query/job-changes').map((call) => call.search.get('recentDays'))).toEqual([
      '30',
      null,
    ]);
  });

  it('lets the admin confirm or dismiss a probable change the mail implies', async () => {
    const probable: TJobChange = {
      id: '8f7e1a2b-3c4d-4e5f-9a6b-7c8d9e0f1a2b',
      person: { id: '9a8f2b3c-4d5e-4f6a-8b7c-8d9e0f1a2b3c', name: 'Grace Hopper' },
      pastCompanyName: 'Navy',
      newCompanyName: 'Univac',
      changedOn: '2026-11-01',
      source: 'mail',
      confidence: 'probable',
      tracked: false,
      status: 'detected',
    };
    const api = stubApi({
      [TRACKED]: Response.json(page([])),
      'GET /clients/query/job-changes': Response.json({ changes: [probable], departures: [] }),
      [`POST /clients/command/confirm-job-change/${probable.id}`]: noContent(),
    });
    await renderApp('/admin/job-changes-tracking', { signedIn: true, me: admin });
    const row = await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(within(row).getByText('Mail (new address)')).toBeDefined();
    expect(within(row).getByText('Probable')).toBeDefined();
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm Grace Hopper moved to Univac' }));
    await waitFor(() => expect(api.callsTo(`POST /clients/command/confirm-job-change/${probable.id}`)).toHaveLength(1));
    expect(within(row).getByRole('button', { name: 'Dismiss Grace Hopper moved to Univac' })).toBeDefined();
  });

  it('shows who may have left, with the bounce, among the changes by date; a dismissal is sent', async () => {
    const moved: TJobChange = {
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      person: { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', name: 'Ada Byron' },
      pastCompanyName: 'Analytical Engines',
      newCompanyName: 'Difference Engines',
      changedOn: '2026-10-02',
      source: 'linkedin',
      confidence: 'certain',
      tracked: false,
      status: 'confirmed',
    };
    const departure: TDeparture = {
      id: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
      person: { id: '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f8a', name: 'Alan Turing' },
      pastCompanyName: 'Bletchley Park',
      address: 'alan@bletchley.test',
      bouncedOn: '2026-11-03',
      source: 'mail',
      confidence: 'probable',
      tracked: true,
      status: 'detected',
    };
    const api = stubApi({
      [TRACKED]: Response.json(page([])),
      'GET /clients/query/job-changes': Response.json({ changes: [moved], departures: [departure] }),
      [`POST /clients/command/dismiss-job-change/${departure.id}`]: noContent(),
    });
    await renderApp('/admin/job-changes-tracking', { signedIn: true, me: admin });
    const table = await screen.findByRole('table', { name: 'Detected job changes' });
    const row = await within(table).findByRole('row', { name: /Alan Turing/ });
    // Newest first: the bounce of November before the move of October.
    const rows = within(table).getAllByRole('row');
    expect(rows.indexOf(row)).toBe(1);
    expect(rows[2]?.textContent).toMatch(/^Ada Byron/);
    expect(within(row).getByText('Tracked client')).toBeDefined();
    expect(within(row).getByText('Bletchley Park')).toBeDefined();
    expect(within(row).getByText('May have left')).toBeDefined();
    expect(within(row).getByText('Mail to alan@bletchley.test bounced')).toBeDefined();
    expect(within(row).getByText('2026-11-03')).toBeDefined();
    expect(within(row).getByText('Mail (address bounced)')).toBeDefined();
    expect(within(row).getByText('Probable')).toBeDefined();
    expect(within(row).getByRole('button', { name: 'Confirm Alan Turing left Bletchley Park' })).toBeDefined();
    fireEvent.click(within(row).getByRole('button', { name: 'Dismiss Alan Turing left Bletchley Park' }));
    await waitFor(() =>
      expect(api.callsTo(`POST /clients/command/dismiss-job-change/${departure.id}`)).toHaveLength(1),
    );
  });
});
