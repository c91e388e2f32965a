import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAccount, TAccountsPage, TCrmClientsPage, TImportStatus, TWorkspace } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer, noContent, stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const ACCOUNTS = 'GET /accounts/query';
const ada = { id: admin.id, name: 'Ada Lovelace', avatar: null };
const bob = { id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b', name: 'Bob Babbage', avatar: null };
const acme: TAccount = {
  id: '8c7b6a59-4837-4261-9504-f3e2d1c0b9a8',
  name: 'Acme',
  domain: 'acme.example',
  avatar: null,
  assignedTo: [ada],
  lastActivity: '2026-03-09T12:00:00.000Z',
};
const globex: TAccount = {
  id: '2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b',
  name: 'Globex',
  domain: 'globex.example',
  avatar: null,
  assignedTo: [],
  lastActivity: null,
};
const accountsPage = (rows: TAccount[]): TAccountsPage => ({
  rows,
  pagination: { page: 1, pageSize: 30, totalPages: 1, totalCount: rows.length },
});

function importResult(kind: TImportStatus['kind'], fileName: string): TImportStatus {
  return {
    id: '1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809',
    kind,
    fileName,
    status: 'completed',
    bytesReceived: 40,
    rowsProcessed: 2,
    mergeStep: null,
    added: 2,
    updated: 0,
    skipped: 0,
    rejected: 0,
    rejectedRowsUrl: null,
    error: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    finishedAt: '2026-01-05T10:00:01.000Z',
  };
}

async function findRow(name: string): Promise<HTMLElement> {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`${name} has no row`);
  return row;
}

function chooseCsv(name: string) {
  const file = new File(['Company name,Company domain\r\nAcme,acme.example\r\n'], name, { type: 'text/csv' });
  fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
}

describe('Assigned Accounts', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the accounts with who is assigned and the last activity', async () => {
    stubApi({ [ACCOUNTS]: Response.json(accountsPage([acme, globex])) });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    const row = within(await findRow('Acme'));
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Assigned to',
      'Last activity',
      'Actions',
    ]);
    expect(row.getByText('Ada Lovelace')).toBeDefined();
    expect(row.getByText('Mar 9, 2026')).toBeDefined();
    const other = within(await findRow('Globex'));
    expect(other.getByText('Nobody')).toBeDefined();
    expect(other.getByText('No activity yet')).toBeDefined();
    expect(screen.getByPlaceholderText('Search accounts...')).toBeDefined();
  });

  it('moves users between assigned and assignable, saves the list and shows the new assignees', async () => {
    const api = stubApi({
      [ACCOUNTS]: Response.json(accountsPage([acme])),
      [`GET /accounts/query/assignable-account-users/${acme.id}`]: Response.json({
        assignedTo: [ada],
        assignable: [bob],
      }),
      [`POST /accounts/command/update-assignees/${acme.id}`]: Response.json({ ...acme, assignedTo: [bob] }),
    });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    fireEvent.click(within(await findRow('Acme')).getByRole('button', { name: 'Actions for Acme' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Change assignments' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Edit assigned users for Acme' }));
    const current = within(await panel.findByRole('region', { name: 'Current Assignees' }));
    const assignable = within(panel.getByRole('region', { name: 'Assignable Users' }));
    fireEvent.click(assignable.getByRole('button', { name: 'Assign Bob Babbage' }));
    fireEvent.click(current.getByRole('button', { name: 'Remove Ada Lovelace' }));
    expect(current.getByText('Bob Babbage')).toBeDefined();
    expect(assignable.getByText('Ada Lovelace')).toBeDefined();
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Account assignees updated!')).toBeDefined();
    expect(api.callsTo(`POST /accounts/command/update-assignees/${acme.id}`)[0]?.body).toEqual({
      assigneeIds: [bob.id],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit assigned users for Acme' })).toBeNull());
    expect(within(await findRow('Acme')).getByText('Bob Babbage')).toBeDefined();
  });

  it('tells a failed save of the assignees', async () => {
    stubApi({
      [ACCOUNTS]: Response.json(accountsPage([acme])),
      [`GET /accounts/query/assignable-account-users/${acme.id}`]: Response.json({ assignedTo: [ada], assignable: [] }),
      [`POST /accounts/command/update-assignees/${acme.id}`]: errorAnswer(500, 'INTERNAL', 'Boom'),
    });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    fireEvent.click(within(await findRow('Acme')).getByRole('button', { name: 'Actions for Acme' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Change assignments' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to change assignees...')).toBeDefined();
    expect(screen.getByText('Failed to update assigness.')).toBeDefined();
  });

  it('removes an account once confirmed', async () => {
    let rows = [acme, globex];
    const api = stubApi({
      [ACCOUNTS]: () => Response.json(accountsPage(rows)),
      [`DELETE /accounts/command/delete/${globex.id}`]: () => {
        rows = [acme];
        return noContent();
      },
    });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    fireEvent.click(within(await findRow('Globex')).getByRole('button', { name: 'Actions for Globex' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove account' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Are you sure you want to remove Globex?' })).getByRole(
        'button',
        { name: 'Confirm' },
      ),
    );
    await waitFor(() => expect(screen.queryByText('Globex')).toBeNull());
    expect(api.callsTo(`DELETE /accounts/command/delete/${globex.id}`)).toHaveLength(1);
  });

  it("imports accounts from the 'Add accounts' side panel, says so and loads the list again", async () => {
    const api = stubApi({
      [ACCOUNTS]: Response.json(accountsPage([acme])),
      'POST /accounts/command/upload-accounts': Response.json(importResult('accounts', 'accounts.csv')),
    });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    await findRow('Acme');
    fireEvent.click(screen.getByRole('button', { name: 'Import accounts' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Add accounts' }));
    chooseCsv('accounts.csv');
    fireEvent.click(panel.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Accounts uploaded!')).toBeDefined();
    expect(await panel.findByText('Added: 2')).toBeDefined();
    await waitFor(() => expect(api.callsTo(ACCOUNTS)).toHaveLength(2));
    fireEvent.click(panel.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add accounts' })).toBeNull());
  });

  it('tells a failed accounts import in the spec words', async () => {
    stubApi({
      [ACCOUNTS]: Response.json(accountsPage([])),
      'POST /accounts/command/upload-accounts': errorAnswer(422, 'FILE_UNREADABLE', 'The file has no usable header'),
    });
    await renderApp('/admin/accounts', { signedIn: true, me: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Import accounts' }));
    await screen.findByRole('dialog', { name: 'Add accounts' });
    chooseCsv('accounts.csv');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Upload failed. Make sure all fields are filled.')).toBeDefined();
  });
});

describe('Clients & Exclusions', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the CRM customers and adds more from a CSV dialog', async () => {
    const crmPage: TCrmClientsPage = {
      rows: [{ id: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8', companyName: 'Initech', companyDomain: 'initech.example' }],
      pagination: { page: 1, pageSize: 30, totalPages: 1, totalCount: 1 },
    };
    const api = stubApi({
      'GET /crm-clients/query': Response.json(crmPage),
      'POST /crm-clients/command/upload-crm-clients': Response.json(importResult('crm-clients', 'crm.csv')),
    });
    await renderApp('/admin/crm-clients', { signedIn: true, me: admin });
    expect(within(await findRow('Initech')).getByText('initech.example')).toBeDefined();
    expect(screen.getByPlaceholderText('Clients')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Add CRM customers' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add CRM customers' }));
    chooseCsv('crm.csv');
    fireEvent.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('CRM custommers uploaded!')).toBeDefined();
    await waitFor(() => expect(api.callsTo('GET /crm-clients/query')).toHaveLength(2));
  });

  it('with HubSpot connected, picks the lists of customers and of exclusions, saves them, and shows their companies', async () => {
    const workspace: TWorkspace = {
      id: admin.workspaceId,
      name: 'Engines',
      domains: ['engines.example'],
      allowDomainJoin: false,
      selectedHubspotExclusionLists: [],
      activeCrmClientExclusionLists: [],
      timeZone: 'UTC',
    };
    const saved = { ...workspace, selectedHubspotExclusionLists: ['12'] };
    const api = stubApi({
      'GET /crm-clients/query': Response.json({
        rows: [],
        pagination: { page: 1, pageSize: 30, totalPages: 0, totalCount: 0 },
      }),
      'GET /integrations/query/hubspot': Response.json({
        portal: 'engines.example',
        reconnectRequired: false,
        notesEnabled: true,
        sync: {
          id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
          status: 'succeeded',
          phase: 'Done',
          processed: 2,
          total: 2,
          counts: { lists: 1, companies: 2 },
          error: null,
          createdAt: '2026-11-25T09:00:00.000Z',
          finishedAt: '2026-11-25T09:00:05.000Z',
        },
      }),
      'GET /workspace/query': Response.json(workspace),
      'GET /workspace/query/get-hubspot-lists-options': Response.json([
        { id: '11', name: 'Customers – closed won' },
        { id: '12', name: 'Do not contact' },
      ]),
      'PUT /workspace/command/update': Response.json(saved),
      'GET /hubspot/query': (call) =>
        Response.json({
          rows:
            call.search.get('listIds') === '12'
              ? [{ id: '901', companyName: 'Umbrella', companyDomain: 'umbrella.example' }]
              : [],
          pagination: { page: 1, pageSize: 30, totalPages: 1, totalCount: 1 },
        }),
    });
    await renderApp('/admin/crm-clients', { signedIn: true, me: { ...admin, isHubspotConnected: true } });
    expect(await screen.findByText(/Last sync: 2 companies from 1 list/)).toBeDefined();
    const excluded = within(await screen.findByRole('region', { name: 'Excluded companies' }));
    fireEvent.click(excluded.getByRole('textbox', { name: 'Company lists' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Do not contact' }));
    fireEvent.click(excluded.getByRole('button', { name: /Save company lists of excluded companies/ }));
    expect(await screen.findByText('Exclusion lists updated!')).toBeDefined();
    expect(api.callsTo('PUT /workspace/command/update')[0]?.body).toMatchObject({
      selectedHubspotExclusionLists: ['12'],
    });
    expect(within(await excluded.findByRole('row', { name: /Umbrella/ })).getByText('umbrella.example')).toBeDefined();
  });
});
