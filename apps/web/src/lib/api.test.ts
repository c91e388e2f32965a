import {
  listsApi,
  networkApi,
  outlineOf,
  publicApi,
  type TImportStatus,
  targetingApi,
  teamApi,
  ZPublicConfig,
} from '@warmpath/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { errorAnswer, stubApi } from '../testing/fakeApi.ts';
import {
  ApiError,
  apiFileRequest,
  apiRequest,
  apiUpload,
  callApi,
  checkBackendHealth,
  downloadFromApi,
  hasErrorCode,
  isTransientFailure,
  pathOf,
  retryDelayMs,
  setAccessTokenProvider,
  type UploadProgress,
  uploadToApi,
  withSearchParams,
} from './api.ts';
import { getAppStatus, setAppStatus } from './appStatus.ts';

const ZOk = z.object({ ok: z.boolean() });

function stubFetch(response: () => Promise<Response>) {
  const fetchMock = vi.fn(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function headersOf(fetchMock: ReturnType<typeof stubFetch>): Record<string, string> {
  const init = fetchMock.mock.calls[0]?.at(1);
  return z.object({ headers: z.record(z.string(), z.string()) }).parse(init).headers;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessTokenProvider(null);
  setAppStatus({ offline: false, backendServerDown: false });
});

describe('apiRequest', () => {
  it('sends the access token as a Bearer token under /api', async () => {
    setAccessTokenProvider(async () => 'secret');
    const fetchMock = stubFetch(async () => Response.json({ ok: true }));
    await expect(apiRequest({ path: '/users/query/me', schema: ZOk })).resolves.toEqual({ ok: true });
    expect(fetchMock.mock.calls[0]?.at(0)).toBe('/api/users/query/me');
    expect(headersOf(fetchMock).Authorization).toBe('Bearer secret');
  });

  it('sends public calls without authorization', async () => {
    const config = {
      oidc: { authority: 'http://idp', clientId: 'web', audience: 'backend', extraQueryParams: {} },
      demoCalendarUrl: 'https://calendar.example',
      posthogKey: null,
    };
    const fetchMock = stubFetch(async () => Response.json(config));
    await expect(apiRequest({ path: '/public/config', schema: ZPublicConfig })).resolves.toEqual(config);
    expect(headersOf(fetchMock).Authorization).toBeUndefined();
  });

  it('rejects as UNAUTHENTICATED without calling the server when the token cannot be had', async () => {
    setAccessTokenProvider(async () => {
      throw new Error('expired');
    });
    const fetchMock = stubFetch(async () => Response.json({ ok: true }));
    const failure = apiRequest({ path: '/users/query/me', schema: ZOk });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the gateway message, or the server's where the call prefers it", async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => errorAnswer(409, 'DOMAIN_TAKEN', 'Domain taken'));
    await expect(apiRequest({ path: '/x', schema: ZOk, errorMessage: 'Failed to fetch user' })).rejects.toMatchObject({
      code: 'DOMAIN_TAKEN',
      message: 'Failed to fetch user',
    });
    await expect(
      apiRequest({ path: '/x', schema: ZOk, errorMessage: 'Failed', preferServerMessage: true }),
    ).rejects.toMatchObject({ message: 'Domain taken' });
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({ message: 'Domain taken' });
  });

  it("keeps the message of a code this build does not know, and of an answer that is not the API's", async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => Response.json({ code: 'A_CODE_FROM_LATER', message: 'Newer refusal' }, { status: 409 }));
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      message: 'Newer refusal',
    });
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      message: 'Request failed with status 502',
    });
  });

  it('tells failures apart by code only', async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => errorAnswer(409, 'LIMIT_REACHED', 'Ask someone else'));
    const error = await apiRequest({ path: '/x', schema: ZOk }).catch((caught: unknown) => caught);
    expect(hasErrorCode(error, 'ALREADY_DONE', 'LIMIT_REACHED')).toBe(true);
    expect(hasErrorCode(error, 'ALREADY_DONE')).toBe(false);
    expect(hasErrorCode(new Error('LIMIT_REACHED'), 'LIMIT_REACHED')).toBe(false);
  });

  it('counts network and server failures as worth another try, refusals as not', () => {
    expect(isTransientFailure(new ApiError('ERR_NETWORK', 'Network Error'))).toBe(true);
    expect(isTransientFailure(new ApiError('INTERNAL', 'Internal server error'))).toBe(true);
    expect(isTransientFailure(new ApiError('UNEXPECTED_RESPONSE', 'Request failed with status 502'))).toBe(true);
    expect(isTransientFailure(new TypeError('a bug of ours'))).toBe(true);
    expect(isTransientFailure(new ApiError('NOT_FOUND', 'Prospect not found'))).toBe(false);
    expect(isTransientFailure(new ApiError('LIMIT_REACHED', 'Please ask someone else'))).toBe(false);
  });

  it("asks a read again after the busy server's Retry-After, capped, and doubles from 1 s otherwise", async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => {
      const answer = errorAnswer(503, 'SERVER_BUSY', 'The server is busy: please try again in a moment.');
      answer.headers.set('Retry-After', '2');
      return answer;
    });
    const busy = await apiRequest({ path: '/x', schema: ZOk }).catch((caught: unknown) => caught);
    expect(isTransientFailure(busy)).toBe(true);
    expect(retryDelayMs(0, busy)).toBe(2000);
    expect(retryDelayMs(0, new ApiError('SERVER_BUSY', 'busy', 60_000))).toBe(10_000);
    expect(retryDelayMs(0, new ApiError('INTERNAL', 'Internal server error'))).toBe(1000);
    expect(retryDelayMs(2, new TypeError('a bug of ours'))).toBe(4000);
  });

  it('sends JSON bodies as JSON and a FormData as it is, letting fetch set the multipart boundary', async () => {
    setAccessTokenProvider(async () => 'secret');
    const fetchMock = stubFetch(async () => Response.json({ ok: true }));
    await apiRequest({ path: '/x', method: 'POST', body: { a: 1 }, schema: ZOk });
    expect(headersOf(fetchMock)['Content-Type']).toBe('application/json');
    expect(fetchMock.mock.calls[0]?.at(1)).toMatchObject({ body: '{"a":1}' });

    const form = new FormData();
    form.append('file', new File(['a,b'], 'Connections.csv', { type: 'text/csv' }));
    const uploadMock = stubFetch(async () => Response.json({ ok: true }));
    await apiRequest({ path: '/upload', method: 'POST', body: form, schema: ZOk });
    expect(headersOf(uploadMock)['Content-Type']).toBeUndefined();
    expect(uploadMock.mock.calls[0]?.at(1)).toMatchObject({ body: form });
  });

  it('sets the offline flag on a network failure, and clears it on the next answer', async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(getAppStatus().offline).toBe(true);
    stubFetch(async () => Response.json({ ok: true }));
    await apiRequest({ path: '/x', schema: ZOk });
    expect(getAppStatus().offline).toBe(false);
  });

  it('treats a time-out as ECONNABORTED and a cancelled request as neither', async () => {
    setAccessTokenProvider(async () => 'secret');
    stubFetch(async () => {
      throw new DOMException('timed out', 'TimeoutError');
    });
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({ code: 'ECONNABORTED' });
    setAppStatus({ offline: false });
    stubFetch(async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(apiRequest({ path: '/x', schema: ZOk })).rejects.toMatchObject({ name: 'AbortError' });
    expect(getAppStatus().offline).toBe(false);
  });
});

describe('apiFileRequest', () => {
  it('answers the file as it came, asking for its type, and fails like any call', async () => {
    setAccessTokenProvider(async () => 'secret');
    const fetchMock = stubFetch(async () => new Response('name\nAda', { headers: { 'Content-Type': 'text/csv' } }));
    const file = await apiFileRequest({ path: '/export', method: 'POST', body: { filters: [] }, accept: 'text/csv' });
    await expect(file.text()).resolves.toBe('name\nAda');
    expect(headersOf(fetchMock).Accept).toBe('text/csv, application/json');
    expect(headersOf(fetchMock).Authorization).toBe('Bearer secret');

    stubFetch(async () => errorAnswer(500, 'INTERNAL', 'Export broke'));
    await expect(
      apiFileRequest({ path: '/export', accept: 'text/csv', errorMessage: 'Failed to export' }),
    ).rejects.toMatchObject({ code: 'INTERNAL', message: 'Failed to export' });
  });
});

describe('checkBackendHealth', () => {
  it('flags the backend as down when /api/health cannot be reached or fails', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(checkBackendHealth()).resolves.toBe(false);
    expect(getAppStatus().backendServerDown).toBe(true);

    stubFetch(async () => errorAnswer(500, 'INTERNAL', 'down'));
    await expect(checkBackendHealth()).resolves.toBe(false);

    stubFetch(async () => Response.json({ status: 'ok', database: 'ok' }));
    await expect(checkBackendHealth()).resolves.toBe(true);
    expect(getAppStatus().backendServerDown).toBe(false);
  });
});

describe('withSearchParams', () => {
  it('encodes the values and leaves out absent and empty ones', () => {
    expect(withSearchParams('/users/query', { searchTerm: 'Ada & co' })).toBe('/users/query?searchTerm=Ada+%26+co');
    expect(withSearchParams('/users/query', { searchTerm: '' })).toBe('/users/query');
    expect(withSearchParams('/users/query/technologies-list', { page: 2, searchTerm: undefined })).toBe(
      '/users/query/technologies-list?page=2',
    );
  });
});

describe('apiUpload', () => {
  it('posts the form with the token, reports the bytes sent and checks the answer', async () => {
    setAccessTokenProvider(async () => 'secret');
    const api = stubApi({ 'POST /imports/command/upload': Response.json({ ok: true }) });
    const body = new FormData();
    body.set('file', new File(['a,b\r\n1,2\r\n'], 'rows.csv', { type: 'text/csv' }));
    const progress: UploadProgress[] = [];
    await expect(
      apiUpload({ path: '/imports/command/upload', body, schema: ZOk, onProgress: (sent) => progress.push(sent) }),
    ).resolves.toEqual({ ok: true });
    expect(progress).toEqual([{ loaded: 10, total: 10 }]);
    expect(api.calls[0]?.body).toBe(body);
  });

  it("fails with the server's code and the gateway's message", async () => {
    setAccessTokenProvider(async () => 'secret');
    stubApi({
      'POST /imports/command/upload': errorAnswer(422, 'FILE_UNREADABLE', 'No header'),
    });
    const failure = apiUpload({
      path: '/imports/command/upload',
      body: new FormData(),
      schema: ZOk,
      errorMessage: 'Failed to import clients',
    });
    await expect(failure).rejects.toMatchObject({ code: 'FILE_UNREADABLE', message: 'Failed to import clients' });
  });
});

describe('calls by contract', () => {
  it("builds the path from the contract: params encoded, the query's empty values left out", () => {
    expect(pathOf(listsApi.getImportStatus, { params: { id: 'a/b c' } })).toBe('/imports/query/a%2Fb%20c');
    expect(pathOf(listsApi.listAccounts, { query: { page: 2, pageSize: 30, searchTerm: '' } })).toBe(
      '/accounts/query?page=2&pageSize=30',
    );
    expect(() => pathOf(listsApi.getImportStatus)).toThrow('getImportStatus needs the path parameter id');
  });

  it("sends the contract's method and body, and answers null for no content", async () => {
    setAccessTokenProvider(async () => 'secret');
    const api = stubApi({
      'PUT /users/command/change-role/7': Response.json(
        { code: 'NOT_FOUND', message: 'Teammate not found' },
        { status: 404 },
      ),
      'DELETE /users/command/delete-persona/7': new Response(null, { status: 204 }),
    });
    await expect(
      callApi(teamApi.changeRole, { params: { id: '7' }, body: { role: 'viewer' }, preferServerMessage: true }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Teammate not found' });
    expect(api.calls[0]).toMatchObject({ method: 'PUT', body: { role: 'viewer' } });
    await expect(callApi(targetingApi.deletePersona, { params: { id: '7' } })).resolves.toBeNull();
  });

  it('downloads a file answer with its media type, and uploads through the progress-reporting path', async () => {
    setAccessTokenProvider(async () => 'secret');
    const fetchMock = stubFetch(async () => new Response('name\nAda', { headers: { 'Content-Type': 'text/csv' } }));
    const file = await downloadFromApi(networkApi.exportContactsCsv, { body: { filters: [] } });
    await expect(file.text()).resolves.toBe('name\nAda');
    expect(fetchMock.mock.calls[0]?.at(0)).toBe('/api/contacts/query/export-csv');
    expect(headersOf(fetchMock).Accept).toBe('text/csv, application/json');

    const imported: TImportStatus = {
      id: '6a4c1f2e-0b9d-4e8f-a7c6-5d4e3f2a1b0c',
      kind: 'accounts',
      fileName: 'accounts.csv',
      status: 'completed',
      bytesReceived: 3,
      rowsProcessed: 1,
      mergeStep: null,
      added: 1,
      updated: 0,
      skipped: 0,
      rejected: 0,
      rejectedRowsUrl: null,
      error: null,
      createdAt: '2026-01-05T10:00:00.000Z',
      finishedAt: '2026-01-05T10:00:01.000Z',
    };
    const api = stubApi({ 'POST /accounts/command/upload-accounts': Response.json(imported) });
    const progress: UploadProgress[] = [];
    const body = new FormData();
    body.set('file', new File(['a\r\n'], 'accounts.csv', { type: 'text/csv' }));
    const upload = uploadToApi(listsApi.uploadAccounts, {
      query: { importId: imported.id },
      body,
      onProgress: (sent) => progress.push(sent),
    });
    await expect(upload).resolves.toEqual(imported);
    expect(api.calls[0]).toMatchObject({ method: 'POST', path: '/accounts/command/upload-accounts' });
    expect(api.calls[0]?.search.get('importId')).toBe(imported.id);
    expect(progress).toEqual([{ loaded: 3, total: 3 }]);
  });
});

describe("calls by the contracts' outlines, as the production build makes them (vite.config.ts)", () => {
  afterEach(() => vi.unstubAllEnvs());

  /** The outline in the contract's place: the build swaps the modules, the types stay the contract's. */
  function asBuilt<C extends Parameters<typeof outlineOf>[0]>(contract: C): C {
    return outlineOf(contract) as unknown as C;
  }

  it('answers JSON as sent and null for no content, and downloads and uploads as with the contracts', async () => {
    vi.stubEnv('DEV', false);
    setAccessTokenProvider(async () => 'secret');
    const config = { oidc: { authority: 'a', clientId: 'c', audience: 'x', extraQueryParams: {} } };
    const api = stubApi({
      'GET /public/config': Response.json(config),
      'DELETE /users/command/delete-persona/7': new Response(null, { status: 204 }),
      'POST /accounts/command/upload-accounts': Response.json({ id: 'i' }),
    });
    await expect(callApi(asBuilt(publicApi.getPublicConfig))).resolves.toEqual(config);
    await expect(callApi(asBuilt(targetingApi.deletePersona), { params: { id: '7' } })).resolves.toBeNull();
    await expect(
      uploadToApi(asBuilt(listsApi.uploadAccounts), { query: { importId: 'i' }, body: new FormData() }),
    ).resolves.toEqual({ id: 'i' });
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /public/config',
      'DELETE /users/command/delete-persona/7',
      'POST /accounts/command/upload-accounts',
    ]);

    stubFetch(async () => new Response('name', { headers: { 'Content-Type': 'text/csv' } }));
    const file = await downloadFromApi(asBuilt(networkApi.exportContactsCsv), { body: { filters: [] } });
    await expect(file.text()).resolves.toBe('name');
    expect(() => downloadFromApi(asBuilt(publicApi.getPublicConfig))).toThrow('getPublicConfig answers no file');
  });
});
