import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  sourcesApi,
  type TLinkedinImportResult,
  type TSuggestion,
  type TSyncRun,
} from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { leaveTo } from '../../lib/browser.ts';
import { toast } from '../../lib/toasts.tsx';
import { userKeys } from '../users/api.ts';
import { isSyncActive, SYNC_POLL_INTERVAL_MS } from './syncRun.ts';

export const googleKeys = {
  all: ['google'] as const,
  syncStatus: () => [...googleKeys.all, 'sync-status'] as const,
  suggestedTeammates: () => [...googleKeys.all, 'suggested-teammates'] as const,
  undeliveredEmails: () => [...googleKeys.all, 'undelivered-emails'] as const,
};

/** The member's e-mails that failed at least once and have not left (retrying, or failed for good). */
export function useUndeliveredEmails(enabled: boolean) {
  return useQuery({
    queryKey: googleKeys.undeliveredEmails(),
    queryFn: () => callApi(sourcesApi.listUndeliveredEmails),
    enabled,
  });
}

/** Sends a failed e-mail again. */
export function useRetryEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(sourcesApi.retryEmail, { params: { id } }),
    onSuccess: () => {
      toast.success('The e-mail will be sent again.');
      void queryClient.invalidateQueries({ queryKey: googleKeys.undeliveredEmails() });
    },
    onError: (error) => toast.error(error.message),
  });
}

/** Where to send the browser to grant Google access; it comes back to `redirectUrl` (a path of ours). */
export function authenticateGoogle(redirectUrl: string): Promise<{ url: string }> {
  return callApi(sourcesApi.startGoogleConnection, { query: { redirectUrl } });
}

/** Connect (or reconnect) Google: off to Google's consent page, back to the page the user is on. */
export function useConnectGoogle() {
  return useMutation({
    mutationFn: authenticateGoogle,
    onSuccess: ({ url }) => leaveTo(url),
    onError: (error) => toast.error(error.message),
  });
}

export function requestGoogleSync(): Promise<TSyncRun> {
  return callApi(sourcesApi.requestGoogleSync);
}

/** Queues a sync; the answer becomes the status on screen, which then polls until the run ends. */
export function useRequestGoogleSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestGoogleSync,
    onSuccess: (run) => queryClient.setQueryData(googleKeys.syncStatus(), run),
    onError: (error) => toast.error(error.message),
  });
}

/** The latest sync of the current user's Google account, or null before the first. */
export function fetchGoogleSyncStatus(signal?: AbortSignal): Promise<TSyncRun | null> {
  return callApi(sourcesApi.getGoogleSyncStatus, { signal });
}

export function useGoogleSyncStatus(enabled: boolean) {
  return useQuery({
    queryKey: googleKeys.syncStatus(),
    queryFn: ({ signal }) => fetchGoogleSyncStatus(signal),
    enabled,
    refetchInterval: (query) => (isSyncActive(query.state.data) ? SYNC_POLL_INTERVAL_MS : false),
  });
}

/** People of the workspace's domains the user exchanged with, for the invite form (spec section 2). */
export function fetchSuggestedTeammates(signal?: AbortSignal): Promise<TSuggestion[]> {
  return callApi(sourcesApi.listSuggestedTeammates, {
    errorMessage: GATEWAY_ERRORS.fetchSuggestions,
    signal,
  });
}

export function useSuggestedTeammates() {
  return useQuery({
    queryKey: googleKeys.suggestedTeammates(),
    queryFn: ({ signal }) => fetchSuggestedTeammates(signal),
  });
}

/** Uploads LinkedIn's `Connections.csv` export as the multipart field `file`. */
export function uploadLinkedinConnections(file: File): Promise<TLinkedinImportResult> {
  const body = new FormData();
  body.append('file', file);
  return callApi(sourcesApi.uploadLinkedinConnections, { body });
}

/** Uploads the member's own `Positions.csv` (their work history) as the multipart field `file`. */
export function uploadLinkedinPositions(file: File): Promise<TLinkedinImportResult> {
  const body = new FormData();
  body.append('file', file);
  return callApi(sourcesApi.uploadLinkedinPositions, { body });
}

export function useUploadLinkedinPositions() {
  return useMutation({ mutationFn: uploadLinkedinPositions });
}

/** The result (or the server's refusal) is shown beside the upload; the user is LinkedIn-connected after it. */
export function useUploadLinkedinConnections() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLinkedinConnections,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.me() }),
  });
}
