import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type TAccountCoveragePage, type TAccountCoverageRow, ZFiltersBody } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { errorAnswer } from '../../../testing/fakeApi.ts';
import { stubNetworkApi } from '../../../testing/networkFixtures.ts';
import { APP_TEST_TIMEOUT_MS, admin, member, renderApp } from '../../../testing/renderApp.tsx';

const COVERAGE = 'GET /contacts/query/account-coverage';
const CONTACTS = 'POST /contacts/query';

const acme: TAccountCoverageRow = {
  companyId: '00000000-0000-4000-8000-000000000101',
  companyName: 'Acme',
  companyLogo: null,
  prospects: 40,
  warm: 12,
  hasPath: true,
  bestConnector: {
    id: '00000000-0000-4000-8000-000000000011',
    name: 'Jane Doe',
    proximity: 82,
    kind: 'colleague',
    prospectName: 'John Smith',
  },
};
const zeta: TAccountCoverageRow = {
  companyId: '00000000-0000-4000-8000-000000000102',
  companyName: 'Zeta',
  companyLogo: null,
  prospects: 0,
  warm: 0,
  hasPath: false,
  bestConnector: null,
};
const pageOf = (rows: TAccountCoverageRow[]): TAccountCoveragePage => ({
  rows,
  pagination: { page: 1, pageSize: 30, totalPages: 1, totalCount: rows.length },
});

function stubCoverage(answer: (search: URLSearchParams) => Response) {
  return stubNetworkApi({ [COVERAGE]: ({ search }) => answer(search) });
}

async function openAccounts(me = member) {
  const result = await renderApp('/network?view=accounts', { signedIn: true, me });
  return { ...result, table: await screen.findByRole('table', { name: 'Account coverage' }) };
}

describe('Account coverage view', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => setAccessTokenProvider(async () => 'token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('is chosen in the URL, and shows a row per account with its counts, warm bar and best connector', async () => {
    const api = stubCoverage(() => Response.json(pageOf([acme, zeta])));
    const { router } = await renderApp('/network', { signedIn: true, me: member });
    await screen.findByText('John Smith');
    expect(api.callsTo(COVERAGE)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Accounts' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=accounts'));
    const views = within(screen.getByRole('group', { name: 'Network view' }));
    expect(views.getByRole('button', { name: 'Accounts' }).getAttribute('aria-pressed')).toBe('true');
    expect(views.getByRole('button', { name: 'People' }).getAttribute('aria-pressed')).toBe('false');

    const row = within((await screen.findByRole('link', { name: 'Acme' })).closest('tr') as HTMLElement);
    expect(row.getByText('40')).toBeDefined();
    expect(row.getByText('12')).toBeDefined();
    const meter = row.getByRole('meter', { name: '12 of 40 prospects reachable warm' });
    expect(meter.getAttribute('aria-valuenow')).toBe('12');
    expect(row.getByText('Jane Doe')).toBeDefined();
    const zetaRow = within(screen.getByRole('link', { name: 'Zeta' }).closest('tr') as HTMLElement);
    expect(zetaRow.getByText('No path')).toBeDefined();
    expect(api.callsTo(COVERAGE)[0]?.search.get('sort')).toBe('prospects');
    expect(screen.getByRole('columnheader', { name: 'Prospects' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('sends the sort of the header clicked, and marks it sorted', async () => {
    const api = stubCoverage(() => Response.json(pageOf([acme, zeta])));
    await openAccounts();
    await screen.findByRole('link', { name: 'Acme' });
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    await waitFor(() => expect(api.callsTo(COVERAGE).at(-1)?.search.get('sort')).toBe('name'));
    expect(screen.getByRole('columnheader', { name: 'Account' }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: 'Prospects' }).getAttribute('aria-sort')).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: 'Warm paths' }));
    await waitFor(() => expect(api.callsTo(COVERAGE).at(-1)?.search.get('sort')).toBe('warm'));
  });

  it('asks only for the accounts with no path when the box is ticked', async () => {
    const api = stubCoverage((search) =>
      Response.json(pageOf(search.get('noPath') === 'true' ? [zeta] : [acme, zeta])),
    );
    await openAccounts();
    await screen.findByRole('link', { name: 'Acme' });
    expect(api.callsTo(COVERAGE)[0]?.search.get('noPath')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only accounts with no path' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme' })).toBeNull());
    expect(api.callsTo(COVERAGE).at(-1)?.search.get('noPath')).toBe('true');
    expect(screen.getByRole('link', { name: 'Zeta' })).toBeDefined();
  });

  it('says how to import accounts when there are none', async () => {
    stubCoverage(() => Response.json(pageOf([])));
    await openAccounts(admin);
    expect(await screen.findByText('No target accounts yet: import your accounts.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Import accounts' }).getAttribute('href')).toBe('/admin/accounts');
  });

  it('shows the error with a way to try again', async () => {
    let fail = true;
    stubCoverage(() =>
      fail ? errorAnswer(500, 'INTERNAL', 'Coverage is unavailable') : Response.json(pageOf([acme])),
    );
    await openAccounts();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Coverage is unavailable')).toBeDefined();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Acme' })).toBeDefined();
  });

  it("opens the people view on the account's company", async () => {
    const api = stubCoverage(() => Response.json(pageOf([acme])));
    const { router } = await openAccounts();
    fireEvent.click(await screen.findByRole('link', { name: 'Acme' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?companyId=${acme.companyId}`));
    await waitFor(() =>
      expect(ZFiltersBody.parse(api.callsTo(CONTACTS).at(-1)?.body).filters).toEqual([
        { name: 'companyName', values: [acme.companyId] },
      ]),
    );
    expect(screen.getByRole('button', { name: 'People' }).getAttribute('aria-pressed')).toBe('true');
  });
});
