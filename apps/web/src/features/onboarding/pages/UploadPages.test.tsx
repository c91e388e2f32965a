import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { type TImportStatus, type TMe, ZAdvanceOnboarding } from '@warmpath/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessTokenProvider } from '../../../lib/api.ts';
import { stubApi } from '../../../testing/fakeApi.ts';
import { APP_TEST_TIMEOUT_MS, admin, renderApp } from '../../../testing/renderApp.tsx';

vi.mock('../../../lib/browser.ts', () => ({ leaveTo: vi.fn(), saveFile: vi.fn() }));

const IMPORT_ID = '1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809';
const onboardingAdmin: TMe = { ...admin, hasCompletedOnboarding: false, onboardingStep: 'EXTERNALS_DONE' };

function status(kind: TImportStatus['kind'], overrides: Partial<TImportStatus>): TImportStatus {
  return {
    id: IMPORT_ID,
    kind,
    fileName: 'list.csv',
    status: 'receiving',
    bytesReceived: 0,
    rowsProcessed: 0,
    mergeStep: null,
    added: 0,
    updated: 0,
    skipped: 0,
    rejected: 0,
    rejectedRowsUrl: null,
    error: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

function advance(user: TMe) {
  return ({ body }: { body: unknown }) => {
    const { step } = ZAdvanceOnboarding.parse(body);
    const moved: TMe =
      step === 'COMPLETED'
        ? { ...user, onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true }
        : { ...user, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    return Response.json(moved);
  };
}

function chooseCsv() {
  const file = new File(['Company name,Company domain\r\nAcme,acme.example\r\n'], 'list.csv', { type: 'text/csv' });
  fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
}

describe('onboarding uploads', { timeout: APP_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => {
    setAccessTokenProvider(async () => 'token');
    vi.spyOn(crypto, 'randomUUID').mockReturnValue(IMPORT_ID);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("shows the server's rows processed while the accounts upload runs, then the counts, then goes on", async () => {
    let finish: (answer: Response) => void = () => undefined;
    const api = stubApi({
      'POST /accounts/command/upload-accounts': () => new Promise<Response>((resolve) => (finish = resolve)),
      [`GET /imports/query/${IMPORT_ID}`]: Response.json(status('accounts', { rowsProcessed: 1500 })),
      'POST /users/command/advance-onboarding': advance(onboardingAdmin),
    });
    const { router } = await renderApp('/sign-up/import-accounts/upload', { signedIn: true, me: onboardingAdmin });
    expect(await screen.findByRole('heading', { name: 'Upload accounts' })).toBeDefined();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('50');
    chooseCsv();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Reading the rows: 1,500 rows processed')).toBeDefined();
    expect(screen.getByText(/^Sent .* \(100%\)$/)).toBeDefined();
    expect(api.callsTo('POST /accounts/command/upload-accounts')[0]?.search.get('importId')).toBe(IMPORT_ID);

    finish(Response.json(status('accounts', { status: 'completed', rowsProcessed: 2, added: 1, skipped: 1 })));
    expect(await screen.findByText('Accounts uploaded!')).toBeDefined();
    expect(await screen.findByText('Skipped: 1')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/invite-teammates'));
    expect(api.callsTo('POST /users/command/advance-onboarding')[0]?.body).toEqual({ step: 'ACCOUNTS_IMPORT_DONE' });
  });

  it('Back leaves the accounts upload for the import choices', async () => {
    const { router } = await renderApp('/sign-up/import-accounts/upload', { signedIn: true, me: onboardingAdmin });
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up/import-accounts'));
  });

  it('imports clients into both lists, then finishes the onboarding', async () => {
    const atClients: TMe = { ...onboardingAdmin, onboardingStep: 'ACCOUNTS_IMPORT_DONE' };
    const api = stubApi({
      'POST /clients/command/upload-clients': Response.json(
        status('clients', { status: 'completed', rowsProcessed: 1, added: 1 }),
      ),
      'POST /users/command/advance-onboarding': advance(atClients),
    });
    const { router } = await renderApp('/sign-up/import-clients/upload', { signedIn: true, me: atClients });
    expect(await screen.findByRole('heading', { name: 'Upload clients' })).toBeDefined();
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow')).toBe('90');
    chooseCsv();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Clients uploaded!')).toBeDefined();
    const form = api.callsTo('POST /clients/command/upload-clients')[0]?.body as FormData;
    expect(form.get('mapNetwork')).toBe('true');
    expect(form.get('trackJobChanges')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname.startsWith('/sign-up')).toBe(false));
    expect(api.callsTo('POST /users/command/advance-onboarding')[0]?.body).toEqual({ step: 'COMPLETED' });
  });
});
