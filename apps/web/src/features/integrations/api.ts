import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GATEWAY_ERRORS, integrationsApi, MESSAGES, type TSetWebhookUrl } from '@warmpath/shared';
import { toast } from 'react-toastify';
import { callApi } from '../../lib/api.ts';
import { userKeys } from '../users/api.ts';

export const integrationKeys = {
  all: ['integrations'] as const,
  slack: () => [...integrationKeys.all, 'slack'] as const,
  webhook: () => [...integrationKeys.all, 'webhook'] as const,
  deliveries: () => [...integrationKeys.all, 'webhook', 'deliveries'] as const,
};

/** While deliveries are in flight the log follows them; a few seconds is what a retry's first step takes. */
const LOG_REFRESH_MS = 5_000;

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
    refetchInterval: (query) =>
      query.state.data?.attempts.some((attempt) => attempt.deliveryStatus === 'pending') ? LOG_REFRESH_MS : false,
  });
}

function useLogMutation(mutationFn: () => Promise<null>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      toast.success(success);
      // The worker takes the delivery within a second or so; the log then follows it until it settles.
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries() }), 1_500);
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
