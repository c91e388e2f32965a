import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ActionFilterName,
  actionsApi,
  GATEWAY_ERRORS,
  MESSAGES,
  RECOMMENDED_ACTION_FILTER_NAMES,
  type RecommendedActionFilterName,
  type TActionCommandResult,
  type TActionCounts,
  type TActionFilterItem,
  type TActionFilters,
  type TPastActionsPage,
  type TRecommendedActionsPage,
} from '@warmpath/shared';
import { useEffect, useRef } from 'react';
import { callApi } from '../../lib/api.ts';
import { failureToast, toast } from '../../lib/toasts.tsx';

/** The lists of acted-on actions, one per tab after the recommended one. */
export type PastActionsTab = 'past' | 'pending' | 'skipped';
export type ActionsTab = 'recommended' | PastActionsTab;

const PAST_LISTS = {
  past: actionsApi.listPastActions,
  pending: actionsApi.listPendingActions,
  skipped: actionsApi.listSkippedActions,
} as const satisfies Record<PastActionsTab, unknown>;

export const actionKeys = {
  all: ['actions'] as const,
  counts: () => [...actionKeys.all, 'counts'] as const,
  lists: () => [...actionKeys.all, 'list'] as const,
  list: (tab: ActionsTab) => [...actionKeys.lists(), tab] as const,
  page: (tab: ActionsTab, filters: readonly TActionFilterItem[], page: number, pageSize: number) =>
    [...actionKeys.list(tab), { filters, page, pageSize }] as const,
  filters: () => [...actionKeys.all, 'filters'] as const,
  pastFilters: () => [...actionKeys.filters(), 'past'] as const,
  recommendedFilters: () => [...actionKeys.filters(), 'recommended'] as const,
  recommendedFilterSearch: (field: ActionFilterName, searchTerm: string) =>
    [...actionKeys.recommendedFilters(), 'search', field, searchTerm] as const,
};

export function fetchActionCounts(signal?: AbortSignal): Promise<TActionCounts> {
  return callApi(actionsApi.getActionCounts, { signal });
}

/** How often the counts are asked for while the caller's first recommendations are on their way. */
const PREPARING_POLL_MS = 3000;

/**
 * How many actions each tab holds; `enabled` false for the restricted role, which loads no actions
 * data. Asked again every few seconds while the first recommendations are being prepared.
 */
export function useActionCounts(enabled: boolean) {
  return useQuery({
    queryKey: actionKeys.counts(),
    queryFn: ({ signal }) => fetchActionCounts(signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.preparingRecommendations ? PREPARING_POLL_MS : false),
  });
}

/**
 * Whether the caller's first recommendations are on their way (their Google sync, the network's
 * update or the run is still to come). Once they are there, the lists are fetched again, so the
 * recommendations appear without a reload.
 */
export function usePreparingRecommendations(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const preparing = useActionCounts(enabled).data?.preparingRecommendations ?? false;
  const wasPreparing = useRef(preparing);
  useEffect(() => {
    if (wasPreparing.current && !preparing) void queryClient.invalidateQueries({ queryKey: actionKeys.all });
    wasPreparing.current = preparing;
  }, [preparing, queryClient]);
  return preparing;
}

export function fetchRecommendedActions(
  filters: readonly TActionFilterItem[],
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<TRecommendedActionsPage> {
  return callApi(actionsApi.listRecommendedActions, {
    query: { page, pageSize },
    body: { filters },
    signal,
  });
}

export function useRecommendedActions(
  filters: readonly TActionFilterItem[],
  page: number,
  pageSize: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: actionKeys.page('recommended', filters, page, pageSize),
    queryFn: ({ signal }) => fetchRecommendedActions(filters, page, pageSize, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function fetchPastActions(
  tab: PastActionsTab,
  filters: readonly TActionFilterItem[],
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<TPastActionsPage> {
  return callApi(PAST_LISTS[tab], {
    query: { page, pageSize },
    body: { filters },
    errorMessage: GATEWAY_ERRORS.fetchPastActions,
    signal,
  });
}

export function usePastActions(
  tab: PastActionsTab,
  filters: readonly TActionFilterItem[],
  page: number,
  pageSize: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: actionKeys.page(tab, filters, page, pageSize),
    queryFn: ({ signal }) => fetchPastActions(tab, filters, page, pageSize, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function fetchPastActionFilters(signal?: AbortSignal): Promise<TActionFilters> {
  return callApi(actionsApi.listPastActionFilters, {
    errorMessage: GATEWAY_ERRORS.fetchActionsFilters,
    signal,
  });
}

/** The filters of the past, pending and skipped lists (one set for the three). */
export function usePastActionFilters(enabled: boolean) {
  return useQuery({
    queryKey: actionKeys.pastFilters(),
    queryFn: ({ signal }) => fetchPastActionFilters(signal),
    enabled,
  });
}

export function fetchRecommendedActionFilters(
  search: { filterField: RecommendedActionFilterName; searchTerm: string } | null,
  signal?: AbortSignal,
): Promise<TActionFilters> {
  return callApi(actionsApi.listRecommendedActionFilters, {
    query: { filterField: search?.filterField, searchTerm: search?.searchTerm },
    errorMessage: GATEWAY_ERRORS.fetchActionsFilters,
    signal,
  });
}

/** The admins' filter toggles of the recommended actions, with their first options. */
export function useRecommendedActionFilters(enabled: boolean) {
  return useQuery({
    queryKey: actionKeys.recommendedFilters(),
    queryFn: ({ signal }) => fetchRecommendedActionFilters(null, signal),
    enabled,
  });
}

function isRecommendedFilterName(name: ActionFilterName): name is RecommendedActionFilterName {
  return RECOMMENDED_ACTION_FILTER_NAMES.some((recommended) => recommended === name);
}

/**
 * A recommended-actions filter's options matching a (debounced, trimmed) search, asked of the server;
 * nothing is asked for an empty search, nor for a filter the recommended actions do not have.
 */
export function useRecommendedFilterSearch(field: ActionFilterName, searchTerm: string, enabled: boolean) {
  return useQuery({
    queryKey: actionKeys.recommendedFilterSearch(field, searchTerm),
    queryFn: async ({ signal }) => {
      if (!isRecommendedFilterName(field)) return [];
      const answer = await fetchRecommendedActionFilters({ filterField: field, searchTerm }, signal);
      return answer.filters.find((filter) => filter.filterName === field)?.optionValues ?? [];
    },
    enabled: enabled && searchTerm !== '' && isRecommendedFilterName(field),
  });
}

/** Where a command sent the action: the tab whose count rises. */
const TAB_OF_STATUS: Record<TActionCommandResult['status'], ActionsTab> = {
  recommended: 'recommended',
  pending: 'pending',
  completed: 'past',
  skipped: 'skipped',
};

/**
 * Spec section 4: the action leaves the recommended list at once and its new tab's count rises by
 * one; then everything the move touched is fetched again.
 */
export function moveRecommendedAction(queryClient: QueryClient, result: TActionCommandResult) {
  const target = TAB_OF_STATUS[result.status];
  queryClient.setQueriesData<TRecommendedActionsPage>({ queryKey: actionKeys.list('recommended') }, (page) => {
    if (!page?.rows.some((row) => row.actionId === result.actionId)) return page;
    const totalCount = Math.max(0, page.pagination.totalCount - 1);
    return {
      rows: page.rows.filter((row) => row.actionId !== result.actionId),
      pagination: { ...page.pagination, totalCount },
    };
  });
  queryClient.setQueryData<TActionCounts>(actionKeys.counts(), (counts) =>
    counts && target !== 'recommended'
      ? { ...counts, recommended: Math.max(0, counts.recommended - 1), [target]: counts[target] + 1 }
      : counts,
  );
  return queryClient.invalidateQueries({ queryKey: actionKeys.all });
}

function postActionCommand(
  contract: typeof actionsApi.skipAction | typeof actionsApi.completeAction,
  actionId: string,
): Promise<TActionCommandResult> {
  return callApi(contract, { body: { actionId } });
}

export function useSkipAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (actionId: string) => postActionCommand(actionsApi.skipAction, actionId),
    onSuccess: (result) => {
      toast.success(MESSAGES.actionSkipped);
      return moveRecommendedAction(queryClient, result);
    },
    onError: (error) => failureToast(MESSAGES.actionSkipFailed, error.message),
  });
}

export function useCompleteAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (actionId: string) => postActionCommand(actionsApi.completeAction, actionId),
    onSuccess: (result) => {
      toast.success(MESSAGES.recommendationCompleted);
      return moveRecommendedAction(queryClient, result);
    },
    onError: (error) => failureToast(MESSAGES.recommendationCompleteFailed, error.message),
  });
}
