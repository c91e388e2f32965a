import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  integrationsApi,
  MESSAGES,
  type THubspotConnection,
  type THubspotIntegrate,
  type TSetWebhookUrl,
  type TWorkspace,
} from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { leaveTo } from '../../lib/browser.ts';
import { toast } from '../../lib/toasts.tsx';
import { userKeys } from '../users/api.ts';
import { updateWorkspace, workspaceKeys } from '../workspace/api.ts';

export const integrationKeys = {
  all: ['integrations'] as const,
  slack: () => [...integrationKeys.all, 'slack'] as const,
  webhook: () => [...integrationKeys.all, 'webhook'] as const,
  deliveries: () => [...integrationKeys.all, 'webhook', 'deliveries'] as const,
  hubspot: () => [...integrationKeys.all, 'hubspot'] as const,
  hubspotLists: (searchTerm: string) => [...integrationKeys.all, 'hubspot', 'lists', searchTerm] as const,
  hubspotCompanies: (query: HubspotCompaniesQuery) => [...integrationKeys.all, 'hubspot', 'companies', query] as const,
};

/** While a HubSpot sync runs, its progress is asked for this often. */
const SYNC_REFRESH_MS = 2_000;

/** While deliveries are in flight the log follows them; a few seconds is what a retry's first step takes. */
const LOG_REFRESH_MS = 5_000;
/** A queued delivery is tried within a second or so of being queued. */
const WAITING_REFRESH_MS = 1_500;

export function fetchWebhook(signal?: AbortSignal) {
  return callApi(integrationsApi.getWebhook, { signal });
}

export function useWebhook(enabled = true) {
  return useQuery({ queryKey: integrationKeys.webhook(), queryFn: ({ signal }) => fetchWebhook(signal), enabled });
}

export function saveWebhookUrl(body: TSetWebhookUrl) {
  return callApi(integrationsApi.setWebhookUrl, {
    body,
    // Spec section 8: the gateway's message, not the server's (the field says which URLs are refused).
    errorMessage: GATEWAY_ERRORS.setWebhookUrl,
  });
}

/** Saving connects the webhook (spec section 4): the user's flags and the endpoint are read again. */
export function useSaveWebhookUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWebhookUrl,
    onSuccess: (saved) => {
      queryClient.setQueryData(integrationKeys.webhook(), saved.endpoint);
      return queryClient.invalidateQueries({ queryKey: userKeys.me() });
    },
    onError: (error) => toast.error(error.message),
  });
}

export function deleteWebhookUrl() {
  return callApi(integrationsApi.deleteWebhookUrl, { errorMessage: GATEWAY_ERRORS.deleteWebhookUrl });
}

export function useDeleteWebhookUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookUrl,
    onSuccess: () => {
      toast.success(MESSAGES.webhookDisconnected);
      queryClient.setQueryData(integrationKeys.webhook(), null);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.me() }),
        queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
      ]);
    },
    onError: () => toast.error(MESSAGES.webhookDisconnectFailed),
  });
}

export function fetchDeliveryLog(signal?: AbortSignal) {
  return callApi(integrationsApi.listWebhookDeliveries, { signal });
}

export function useDeliveryLog() {
  return useQuery({
    queryKey: integrationKeys.deliveries(),
    queryFn: ({ signal }) => fetchDeliveryLog(signal),
    // Followed while anything is on its way: a delivery not tried yet (it has no row to show), or one
    // whose next attempt is due.
    refetchInterval: (query) => {
      const log = query.state.data;
      if (!log) return false;
      if (log.waiting > 0) return WAITING_REFRESH_MS;
      return log.attempts.some((attempt) => attempt.deliveryStatus === 'pending') ? LOG_REFRESH_MS : false;
    },
  });
}

function useLogMutation(mutationFn: () => Promise<null>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      toast.success(success);
      // The log shows the delivery waiting, then follows it until it settles.
      void queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries() });
    },
    onError: (error) => toast.error(error.message),
  });
}

export function useSendTestWebhook() {
  return useLogMutation(() => callApi(integrationsApi.sendTestWebhook), 'Test event queued');
}

export function useRetryDelivery(deliveryId: string) {
  return useLogMutation(
    () => callApi(integrationsApi.retryDelivery, { params: { id: deliveryId } }),
    'Delivery queued again',
  );
}

export function useRevealWebhookSecret() {
  return useMutation({
    mutationFn: () => callApi(integrationsApi.revealWebhookSecret),
    onError: (error) => toast.error(error.message),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(integrationsApi.rotateWebhookSecret),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.webhook() }),
    onError: (error) => toast.error(error.message),
  });
}

export function useSlack(enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.slack(),
    queryFn: ({ signal }) => callApi(integrationsApi.getSlack, { signal }),
    enabled,
  });
}

/** The team-chat connect call (spec section 7): off to Slack's install screen, back to this page. */
export function useConnectSlack() {
  return useMutation({
    mutationFn: () =>
      callApi(integrationsApi.connectSlack, {
        query: { redirectUrl: `${window.location.pathname}${window.location.search}` },
        errorMessage: MESSAGES.slackConnectFailed,
      }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: () => toast.error(MESSAGES.slackConnectFailed),
  });
}

export function useDisconnectSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(integrationsApi.deleteSlackToken, { errorMessage: MESSAGES.slackDisconnectFailed }),
    onSuccess: () => {
      toast.success(MESSAGES.slackDisconnected);
      queryClient.setQueryData(integrationKeys.slack(), null);
      return queryClient.invalidateQueries({ queryKey: userKeys.me() });
    },
    onError: () => toast.error(MESSAGES.slackDisconnectFailed),
  });
}

// HubSpot ------------------------------------------------------------------------------------------

/** The HubSpot connection with its last sync, followed while the sync runs. */
export function useHubspot(enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.hubspot(),
    queryFn: ({ signal }) => callApi(integrationsApi.getHubspot, { signal }),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.sync?.status;
      return status === 'queued' || status === 'running' ? SYNC_REFRESH_MS : false;
    },
  });
}

/** Off to HubSpot's consent screen, which returns the browser to /hubspot-oauth-callback. */
export async function leaveForHubspot(): Promise<void> {
  const { url } = await callApi(integrationsApi.connectHubspot, {
    query: { redirectUrl: `${window.location.pathname}${window.location.search}` },
    errorMessage: GATEWAY_ERRORS.saveHubspotToken,
  });
  leaveTo(url);
}

/** The CRM card's connect. */
export function useConnectHubspot() {
  return useMutation({ mutationFn: leaveForHubspot, onError: (error) => toast.error(error.message) });
}

/** The callback route's call (spec section 7): the code and state HubSpot returned. */
export function integrateHubspot(body: THubspotIntegrate): Promise<THubspotConnection> {
  return callApi(integrationsApi.integrateHubspot, {
    body,
    errorMessage: GATEWAY_ERRORS.saveHubspotToken,
    preferServerMessage: true,
  });
}

export function useDisconnectHubspot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(integrationsApi.deleteHubspotToken, { errorMessage: GATEWAY_ERRORS.saveHubspotToken }),
    onSuccess: () => {
      toast.success(MESSAGES.integrationRemoved);
      queryClient.setQueryData(integrationKeys.hubspot(), null);
      return queryClient.invalidateQueries({ queryKey: userKeys.me() });
    },
    onError: (error) => toast.error(error.message),
  });
}

export function useSyncHubspot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(integrationsApi.syncHubspot, { errorMessage: GATEWAY_ERRORS.saveHubspotToken }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.hubspot() }),
    onError: (error) => toast.error(error.message),
  });
}

export function useSetHubspotNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notesEnabled: boolean) =>
      callApi(integrationsApi.setHubspotNotes, {
        body: { notesEnabled },
        errorMessage: GATEWAY_ERRORS.saveHubspotToken,
      }),
    onSuccess: (connection) => queryClient.setQueryData(integrationKeys.hubspot(), connection),
    onError: (error) => toast.error(error.message),
  });
}

/** The portal's company lists whose name contains the search term (spec: CRM list options). */
export function useHubspotLists(searchTerm: string, enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.hubspotLists(searchTerm),
    queryFn: ({ signal }) =>
      callApi(integrationsApi.hubspotListsOptions, {
        query: { searchTerm: searchTerm.trim() || undefined },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

type HubspotCompaniesQuery = {
  listIds: readonly string[];
  page: number;
  pageSize: number;
  searchTerm: string;
  /** When the last sync finished: a new one brings the lists' companies again. */
  syncedAt: string | null;
};

/** A page of the chosen lists' companies (`GET /hubspot/query`), as of the last sync. */
export function useHubspotCompanies(query: HubspotCompaniesQuery) {
  return useQuery({
    queryKey: integrationKeys.hubspotCompanies(query),
    queryFn: ({ signal }) =>
      callApi(integrationsApi.hubspotCompanies, {
        query: {
          listIds: query.listIds.join(','),
          page: query.page,
          pageSize: query.pageSize,
          searchTerm: query.searchTerm.trim() || undefined,
        },
        signal,
      }),
    enabled: query.listIds.length > 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * Saves the CRM clients page's lists: the workspace as it is, with the chosen lists
 * (`PUT /workspace/command/update`, spec section 7); the server syncs their companies in the background.
 */
export function useSaveHubspotLists() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      workspace,
      lists,
    }: {
      workspace: TWorkspace;
      lists: Pick<TWorkspace, 'activeCrmClientExclusionLists'> | Pick<TWorkspace, 'selectedHubspotExclusionLists'>;
    }) => updateWorkspace({ ...workspace, ...lists }),
    onSuccess: async (workspace) => {
      toast.success(MESSAGES.exclusionListsUpdated);
      queryClient.setQueryData(workspaceKeys.current(), workspace);
      await queryClient.invalidateQueries({ queryKey: integrationKeys.hubspot() });
    },
    onError: (error) => toast.error(error.message),
  });
}
