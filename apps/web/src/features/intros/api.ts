import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  introsApi,
  MESSAGES,
  type TActionCommandResult,
  type TPastActionsPage,
  type TSendAskIntroActionBody,
  type TSendDirectMessageActionBody,
  type TSendThankYouBody,
  type TSendThankYouResult,
  type TWarmIntroItem,
  type TWarmIntroModalData,
  type WarmIntroSource,
} from '@warmpath/shared';
import { capture } from '../../lib/analytics.ts';
import { callApi, hasErrorCode } from '../../lib/api.ts';
import { failureToast, toast } from '../../lib/toasts.tsx';
import { actionKeys, moveRecommendedAction } from '../actions/api.ts';
import { networkKeys } from '../network/api.ts';

// Intros: asking a connector for an intro (from the network page or an action), messaging a prospect,
// thanking a connector. Sending moves what the network and the actions show, so both are refreshed.

/** Which warm-intro panel to open: ask `connectorId` (a colleague, or a client ally) for an intro to `targetId`. */
export type WarmIntroQuery = { source: WarmIntroSource; targetId: string; connectorId: string };
/** Opens the panel: what to load, and whether the row named an account owner (the title, before the data). */
export type WarmIntroRequest = WarmIntroQuery & { hasContactOwner: boolean };

export const introKeys = {
  all: ['intros'] as const,
  panel: (query: WarmIntroQuery) => [...introKeys.all, 'panel', query] as const,
};

export function fetchWarmIntroModalData(
  { source, targetId, connectorId }: WarmIntroQuery,
  signal?: AbortSignal,
): Promise<TWarmIntroModalData> {
  return callApi(introsApi.getWarmIntroModalData, {
    // Named one by one: a request carries more than the query (what opened the panel).
    query: { source, targetId, connectorId },
    errorMessage: GATEWAY_ERRORS.fetchWarmIntroModal,
    signal,
  });
}

/** The warm-intro panel's people, signals and templates, loaded each time the panel opens. */
export function useWarmIntroModalData({ source, targetId, connectorId }: WarmIntroQuery) {
  const query: WarmIntroQuery = { source, targetId, connectorId };
  return useQuery({
    queryKey: introKeys.panel(query),
    queryFn: ({ signal }) => fetchWarmIntroModalData(query, signal),
    staleTime: 0,
    gcTime: 0,
  });
}

export function sendWarmIntros(items: TWarmIntroItem[]) {
  return callApi(introsApi.sendWarmIntros, {
    body: items,
    errorMessage: GATEWAY_ERRORS.sendWarmIntro,
    // A refusal says why (the connector's weekly cap, Google not connected): worth showing.
    preferServerMessage: true,
  });
}

/** Sends one warm intro; the table then shows the prospect's request as sent. */
export function useSendWarmIntro() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: TWarmIntroItem) => sendWarmIntros([item]),
    onSuccess: (_sent, item) => {
      toast.success(MESSAGES.warmIntroSent);
      capture('intro sent', { source: item.source });
      return queryClient.invalidateQueries({ queryKey: networkKeys.contacts() });
    },
    // A repeat to confirm is a question, asked by the form (RepeatConfirmation), not a failure.
    onError: (error) => {
      if (!hasErrorCode(error, 'NEEDS_CONFIRMATION')) failureToast(MESSAGES.warmIntroFailed, error.message);
    },
  });
}

export function sendAskIntroActionEmail(body: TSendAskIntroActionBody): Promise<TActionCommandResult> {
  return callApi(introsApi.sendAskIntroActionEmail, {
    body,
    // A refusal says why (the connector's weekly cap, Google not connected): worth showing.
    preferServerMessage: true,
  });
}

/** 'Ask intro': e-mails the connector; the action moves to past, and the network shows the request. */
export function useSendAskIntro() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendAskIntroActionEmail,
    onSuccess: (result, body) => {
      toast.success(MESSAGES.requestSent);
      capture('intro sent', { source: body.source, from: 'recommended actions' });
      void queryClient.invalidateQueries({ queryKey: networkKeys.contacts() });
      return moveRecommendedAction(queryClient, result);
    },
    onError: (error) => {
      if (!hasErrorCode(error, 'NEEDS_CONFIRMATION')) failureToast(MESSAGES.requestFailed, error.message);
    },
  });
}

export function sendDirectMessageActionEmail(body: TSendDirectMessageActionBody): Promise<TActionCommandResult> {
  return callApi(introsApi.sendDirectMessageActionEmail, {
    body,
    preferServerMessage: true,
  });
}

/** 'Engage with Prospect': e-mails the prospect; the action moves to past. */
export function useSendDirectMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendDirectMessageActionEmail,
    onSuccess: (result) => {
      toast.success(MESSAGES.messageSent);
      return moveRecommendedAction(queryClient, result);
    },
    onError: (error) => failureToast(MESSAGES.requestFailed, error.message),
  });
}

export function sendThankYouEmail(body: TSendThankYouBody): Promise<TSendThankYouResult> {
  return callApi(introsApi.sendThankYou, {
    body,
    // A refusal says why (no e-mail address for the connector, already thanked): worth showing.
    preferServerMessage: true,
  });
}

/** The thank-you note to the connector of an answered intro request; the past row shows 'Thanked' at once. */
export function useSendThankYou() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendThankYouEmail,
    onSuccess: (result) => {
      toast.success(MESSAGES.thankYouSent);
      capture('thank-you sent');
      queryClient.setQueriesData<TPastActionsPage>({ queryKey: actionKeys.list('past') }, (page) =>
        page
          ? {
              ...page,
              rows: page.rows.map((row) =>
                row.actionId === result.actionId ? { ...row, thankedAt: result.thankedAt } : row,
              ),
            }
          : page,
      );
      return queryClient.invalidateQueries({ queryKey: actionKeys.list('past') });
    },
    onError: (error) => failureToast(MESSAGES.thankYouFailed, error.message),
  });
}
