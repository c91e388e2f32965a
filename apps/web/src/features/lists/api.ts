import {
  keepPreviousData,
  type QueryClient,
  type QueryKey,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  CSV_TEMPLATES,
  GATEWAY_ERRORS,
  type ImportKind,
  listsApi,
  MESSAGES,
  PAGINATION,
  type TAccount,
  type TAccountsPage,
  type TAssignableAccountUsers,
  type TClient,
  type TClientFormInput,
  type TClientsPage,
  type TClientTags,
  type TCrmClientsPage,
  type TImportStatus,
} from '@warmpath/shared';
import { useState } from 'react';
import type { CsvUploadState } from '../../components/CsvUploadPanel.tsx';
import { capture } from '../../lib/analytics.ts';
import { ApiError, callApi, downloadFromApi, hasErrorCode, type UploadProgress, uploadToApi } from '../../lib/api.ts';
import { saveFile } from '../../lib/browser.ts';
import { failureToast, toast } from '../../lib/toasts.tsx';

/** The two lists of clients and allies (spec section 4), named as the spec names them. */
export type ClientList = 'MAP_NETWORK' | 'TRACK_JOB_CHANGES';

/** One page of a table: which page, how many rows, and the (debounced, trimmed) search. */
export type ListQuery = { page: number; pageSize: number; searchTerm: string };
export const FIRST_PAGE: Pick<ListQuery, 'page' | 'pageSize'> = {
  page: PAGINATION.defaultPage,
  pageSize: PAGINATION.defaultPageSize,
};

export const listKeys = {
  all: ['lists'] as const,
  accounts: () => [...listKeys.all, 'accounts'] as const,
  accountPage: (query: ListQuery) => [...listKeys.accounts(), 'page', query] as const,
  assignableUsers: (accountId: string) => [...listKeys.accounts(), 'assignable', accountId] as const,
  clients: () => [...listKeys.all, 'clients'] as const,
  clientList: (list: ClientList) => [...listKeys.clients(), list] as const,
  clientPage: (list: ClientList, query: ListQuery) => [...listKeys.clientList(list), query] as const,
  clientTags: (searchTerm: string) => [...listKeys.all, 'client-tags', searchTerm] as const,
  crmClients: () => [...listKeys.all, 'crm-clients'] as const,
  crmClientPage: (query: ListQuery) => [...listKeys.crmClients(), query] as const,
  importStatus: (importId: string) => [...listKeys.all, 'imports', importId] as const,
  jobChanges: (recentDays: number | null) => [...listKeys.all, 'job-changes', recentDays] as const,
};

const pageParams = ({ page, pageSize, searchTerm }: ListQuery) => ({ page, pageSize, searchTerm: searchTerm.trim() });

// Accounts ----------------------------------------------------------------------------------------

export function fetchAccounts(query: ListQuery, signal?: AbortSignal): Promise<TAccountsPage> {
  return callApi(listsApi.listAccounts, {
    query: pageParams(query),
    errorMessage: GATEWAY_ERRORS.fetchAccounts,
    signal,
  });
}

export function useAccounts(query: ListQuery) {
  return useQuery({
    queryKey: listKeys.accountPage(query),
    queryFn: ({ signal }) => fetchAccounts(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function fetchAssignableUsers(accountId: string, signal?: AbortSignal): Promise<TAssignableAccountUsers> {
  return callApi(listsApi.listAssignableAccountUsers, {
    params: { id: accountId },
    errorMessage: GATEWAY_ERRORS.fetchAssignableUsers,
    signal,
  });
}

/** Who is assigned to the account and who could be, loaded afresh each time the panel opens. */
export function useAssignableUsers(accountId: string) {
  return useQuery({
    queryKey: listKeys.assignableUsers(accountId),
    queryFn: ({ signal }) => fetchAssignableUsers(accountId, signal),
    staleTime: 0,
    gcTime: 0,
  });
}

export function updateAssignees({ accountId, assigneeIds }: { accountId: string; assigneeIds: string[] }) {
  return callApi(listsApi.updateAssignees, {
    params: { id: accountId },
    body: { assigneeIds },
    errorMessage: GATEWAY_ERRORS.updateAssignees,
  });
}

/** Replaces an account in every cached page that shows it. */
function replaceAccount(queryClient: QueryClient, account: TAccount) {
  queryClient.setQueriesData<TAccountsPage>({ queryKey: listKeys.accounts() }, (page) =>
    page && 'rows' in page ? { ...page, rows: page.rows.map((row) => (row.id === account.id ? account : row)) } : page,
  );
}

export function useUpdateAssignees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAssignees,
    onSuccess: (account) => {
      toast.success(MESSAGES.assigneesUpdated);
      replaceAccount(queryClient, account);
    },
    onError: (error) => failureToast(MESSAGES.assigneesFailed, error.message),
  });
}

export function deleteAccount(accountId: string): Promise<null> {
  return callApi(listsApi.deleteAccount, {
    params: { id: accountId },
    errorMessage: GATEWAY_ERRORS.deleteAccount,
  });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKeys.accounts() }),
    onError: (error) => toast.error(error.message),
  });
}

// Clients and allies ------------------------------------------------------------------------------

const CLIENT_LISTS = {
  MAP_NETWORK: listsApi.listAllies,
  TRACK_JOB_CHANGES: listsApi.listTrackedClients,
} as const satisfies Record<ClientList, unknown>;

/** The flags a new client gets from the list its form was opened for (spec section 4). */
export const CLIENT_LIST_FLAGS: Record<ClientList, { mapNetwork: boolean; trackJobChanges: boolean }> = {
  MAP_NETWORK: { mapNetwork: true, trackJobChanges: false },
  TRACK_JOB_CHANGES: { mapNetwork: false, trackJobChanges: true },
};

export function fetchClients(list: ClientList, query: ListQuery, signal?: AbortSignal): Promise<TClientsPage> {
  return callApi(CLIENT_LISTS[list], {
    query: pageParams(query),
    errorMessage: GATEWAY_ERRORS.fetchClients,
    signal,
  });
}

export function useClients(list: ClientList, query: ListQuery) {
  return useQuery({
    queryKey: listKeys.clientPage(list, query),
    queryFn: ({ signal }) => fetchClients(list, query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The job changes seen in the workspace; `recentDays` keeps the recent ones. */
export function useJobChanges(recentDays: number | null) {
  return useQuery({
    queryKey: listKeys.jobChanges(recentDays),
    queryFn: ({ signal }) => callApi(listsApi.listJobChanges, { query: recentDays ? { recentDays } : {}, signal }),
    placeholderData: keepPreviousData,
  });
}

/** An admin's decision on a probable job change: the list, and the network, follow. */
export function useDecideJobChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmed }: { id: string; confirmed: boolean }) =>
      callApi(confirmed ? listsApi.confirmJobChange : listsApi.dismissJobChange, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...listKeys.all, 'job-changes'] }),
  });
}

export function fetchClientTags(searchTerm: string, signal?: AbortSignal): Promise<TClientTags> {
  return callApi(listsApi.listClientTags, {
    query: { searchTerm: searchTerm.trim() },
    errorMessage: GATEWAY_ERRORS.fetchClients,
    signal,
  });
}

/** The workspace's tags matching the (debounced) tag input, for its suggestions. */
export function useClientTags(searchTerm: string) {
  return useQuery({
    queryKey: listKeys.clientTags(searchTerm.trim()),
    queryFn: ({ signal }) => fetchClientTags(searchTerm, signal),
    placeholderData: keepPreviousData,
  });
}

export function saveClient(client: TClientFormInput): Promise<TClient> {
  return callApi(listsApi.saveClient, {
    body: client,
    errorMessage: GATEWAY_ERRORS.fetchClients,
    preferServerMessage: true,
  });
}

/**
 * A saved client replaces the row with its id where one is shown; a new one joins the page on screen
 * of the list it was added from (spec section 4). Other pages are marked stale for their next showing.
 */
function placeSavedClient(queryClient: QueryClient, client: TClient, list: ClientList, shown: ListQuery) {
  const shownKey = listKeys.clientPage(list, shown);
  let replaced = false;
  queryClient.setQueriesData<TClientsPage>({ queryKey: listKeys.clients() }, (page) => {
    if (!page?.rows.some((row) => row.id === client.id)) return page;
    replaced = true;
    return { ...page, rows: page.rows.map((row) => (row.id === client.id ? client : row)) };
  });
  if (!replaced) {
    queryClient.setQueryData<TClientsPage>(shownKey, (page) =>
      page
        ? {
            rows: [...page.rows, client],
            pagination: { ...page.pagination, totalCount: page.pagination.totalCount + 1 },
          }
        : page,
    );
  }
  return queryClient.invalidateQueries({
    queryKey: listKeys.clients(),
    refetchType: 'none',
  });
}

export function useSaveClient(list: ClientList, shown: ListQuery) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveClient,
    onSuccess: (client) => {
      toast.success(MESSAGES.clientAdded);
      return placeSavedClient(queryClient, client, list, shown);
    },
    onError: (error) => failureToast(MESSAGES.clientAddFailed, error.message),
  });
}

export function deleteClient(clientId: string): Promise<null> {
  return callApi(listsApi.deleteClient, {
    params: { id: clientId },
    errorMessage: GATEWAY_ERRORS.fetchClients,
  });
}

/** Deletes a client; its row leaves every list that showed it. */
export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClient,
    onSuccess: (_answer, clientId) => {
      queryClient.setQueriesData<TClientsPage>({ queryKey: listKeys.clients() }, (page) =>
        page?.rows.some((row) => row.id === clientId)
          ? {
              rows: page.rows.filter((row) => row.id !== clientId),
              pagination: { ...page.pagination, totalCount: Math.max(0, page.pagination.totalCount - 1) },
            }
          : page,
      );
      return queryClient.invalidateQueries({ queryKey: listKeys.clients(), refetchType: 'none' });
    },
    onError: (error) => toast.error(error.message),
  });
}

// CRM clients -------------------------------------------------------------------------------------

export function fetchCrmClients(query: ListQuery, signal?: AbortSignal): Promise<TCrmClientsPage> {
  return callApi(listsApi.listCrmClients, {
    query: pageParams(query),
    errorMessage: GATEWAY_ERRORS.importCrmClients,
    signal,
  });
}

export function useCrmClients(query: ListQuery) {
  return useQuery({
    queryKey: listKeys.crmClientPage(query),
    queryFn: ({ signal }) => fetchCrmClients(query, signal),
    placeholderData: keepPreviousData,
  });
}

// CSV imports -------------------------------------------------------------------------------------

/** Where a CSV goes, and what the user is told about it (spec section 8). */
export type CsvImportTarget = {
  kind: ImportKind;
  upload: typeof listsApi.uploadAccounts | typeof listsApi.uploadClients | typeof listsApi.uploadCrmClients;
  /** Multipart fields sent before the file (the clients' flags). */
  fields?: Record<string, string>;
  errorMessage: string;
  uploadedMessage: string;
  failedMessage: string;
  /** The lists the import fills, fetched again once it is done. */
  refreshes: QueryKey;
};

export const ACCOUNTS_IMPORT: CsvImportTarget = {
  kind: 'accounts',
  upload: listsApi.uploadAccounts,
  errorMessage: MESSAGES.accountsUploadFailed,
  uploadedMessage: MESSAGES.accountsUploaded,
  failedMessage: MESSAGES.accountsUploadFailed,
  refreshes: listKeys.accounts(),
};

export const CRM_CLIENTS_IMPORT: CsvImportTarget = {
  kind: 'crm-clients',
  upload: listsApi.uploadCrmClients,
  errorMessage: GATEWAY_ERRORS.importCrmClients,
  uploadedMessage: MESSAGES.crmCustomersUploaded,
  failedMessage: GATEWAY_ERRORS.importCrmClients,
  refreshes: listKeys.crmClients(),
};

/** Clients and allies: to map the network from, to track for job changes, both, or (onboarding) neither. */
export function clientsImport(flags: { mapNetwork: boolean; trackJobChanges: boolean }): CsvImportTarget {
  const errorMessage = flags.mapNetwork
    ? GATEWAY_ERRORS.importClientsForNetworkMapping
    : flags.trackJobChanges
      ? GATEWAY_ERRORS.importClientsForJobTracking
      : GATEWAY_ERRORS.importClients;
  return {
    kind: 'clients',
    upload: listsApi.uploadClients,
    fields: { mapNetwork: String(flags.mapNetwork), trackJobChanges: String(flags.trackJobChanges) },
    errorMessage,
    uploadedMessage: MESSAGES.clientsUploaded,
    failedMessage: MESSAGES.clientsUploadFailed,
    refreshes: listKeys.clients(),
  };
}

export async function uploadCsv(
  target: CsvImportTarget,
  file: File,
  importId: string,
  onProgress: (progress: UploadProgress) => void,
): Promise<TImportStatus> {
  const body = new FormData();
  // The server reads the fields as the body streams in: they must come before the file.
  for (const [name, value] of Object.entries(target.fields ?? {})) body.append(name, value);
  body.append('file', file, file.name);
  const result = await uploadToApi(target.upload, {
    query: { importId },
    body,
    errorMessage: target.errorMessage,
    preferServerMessage: true,
    onProgress,
  });
  if (result.status === 'failed') throw new ApiError('IMPORT_FAILED', result.error ?? target.errorMessage);
  return result;
}

/** An import's progress; null while the server has not heard of it yet (the upload's first bytes). */
export async function fetchImportStatus(importId: string, signal?: AbortSignal): Promise<TImportStatus | null> {
  try {
    return await callApi(listsApi.getImportStatus, { params: { id: importId }, signal });
  } catch (error) {
    if (hasErrorCode(error, 'NOT_FOUND')) return null;
    throw error;
  }
}

/** How often the rows processed are asked while a file uploads. */
const IMPORT_POLL_MS = 1000;

/**
 * One CSV import as the upload panel shows it: the bytes sent, the server's rows processed (polled
 * while the upload runs), then the counts, with the spec's toasts and the 'uploaded CSV file' event.
 */
export function useCsvImport(target: CsvImportTarget) {
  const queryClient = useQueryClient();
  const [importId, setImportId] = useState<string | null>(null);
  const [sent, setSent] = useState<UploadProgress | null>(null);
  const upload = useMutation({
    mutationFn: ({ file, id }: { file: File; id: string }) => uploadCsv(target, file, id, setSent),
    onMutate: ({ file }) => capture('uploaded CSV file', { fileName: file.name }),
    onSuccess: () => {
      toast.success(target.uploadedMessage);
      return queryClient.invalidateQueries({ queryKey: target.refreshes });
    },
    onError: (error) => failureToast(target.failedMessage, error.message),
  });
  const server = useQuery({
    queryKey: listKeys.importStatus(importId ?? ''),
    queryFn: ({ signal }) => (importId ? fetchImportStatus(importId, signal) : null),
    enabled: importId !== null && upload.isPending,
    refetchInterval: IMPORT_POLL_MS,
    gcTime: 0,
  });
  const rejected = useMutation({
    mutationFn: (id: string) => downloadFromApi(listsApi.downloadRejectedRows, { params: { id } }),
    onSuccess: (file) => saveFile(file, `rejected-rows-${importId ?? 'import'}.csv`),
    onError: (error) => toast.error(error.message),
  });

  const start = (file: File) => {
    const id = crypto.randomUUID();
    setImportId(id);
    setSent(null);
    upload.mutate({ file, id });
  };

  let state: CsvUploadState = { stage: 'idle' };
  if (upload.isPending) state = { stage: 'uploading', sent, server: server.data ?? null };
  else if (upload.isSuccess) state = { stage: 'completed', result: upload.data };
  else if (upload.isError) state = { stage: 'failed', message: upload.error.message };

  const downloadRejected = () => {
    if (upload.data?.rejectedRowsUrl) rejected.mutate(upload.data.id);
  };

  return { state, start, downloadRejected, template: CSV_TEMPLATES[target.kind] };
}

// Ally share links (issue 22) ---------------------------------------------------------------------------

export const allyShareKeys = {
  shared: (clientId: string) => [...listKeys.all, 'ally-shared', clientId] as const,
};

/** E-mails a mapped ally their share link, from the admin's Google account. */
export function useSendAllyShareLink() {
  return useMutation({
    mutationFn: (clientId: string) =>
      callApi(listsApi.sendAllyShareLink, { params: { id: clientId }, preferServerMessage: true }),
    onSuccess: ({ sentTo }) => toast.success(`Share link sent to ${sentTo}.`),
    onError: (error) => toast.error(error.message),
  });
}

/** What an ally confirmed through their share links. */
export function useAllySharedConnections(clientId: string, enabled: boolean) {
  return useQuery({
    queryKey: allyShareKeys.shared(clientId),
    queryFn: ({ signal }) => callApi(listsApi.listAllySharedConnections, { params: { id: clientId }, signal }),
    enabled,
  });
}
