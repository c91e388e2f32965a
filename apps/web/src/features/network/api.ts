import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  introsApi,
  MESSAGES,
  type NetworkFilterField,
  networkApi,
  type TContactsPage,
  type TFilterItem,
  type TFilterSearchResult,
  type TNetworkFilter,
  type TNetworkFilters,
  type TProximityExplanation,
  type TReportCards,
  type TWarmIntroItem,
  type TWarmIntroModalData,
  type WarmIntroSource,
} from '@warmpath/shared';
import { toast } from 'react-toastify';
import { capture } from '../../lib/analytics.ts';
import { callApi, downloadFromApi } from '../../lib/api.ts';
import { saveFile } from '../../lib/browser.ts';
import { failureToast } from '../../lib/toasts.tsx';
import { exportFileName } from './networkDisplay.ts';

/** The filter fields whose options come in pages ('Load More'). */
export const PAGED_FILTER_FIELDS = ['companyName', 'personName'] as const satisfies readonly NetworkFilterField[];
export type PagedFilterField = (typeof PAGED_FILTER_FIELDS)[number];
export function isPagedFilterField(field: NetworkFilterField): field is PagedFilterField {
  return PAGED_FILTER_FIELDS.some((paged) => paged === field);
}

/** Which warm-intro panel to open: ask `connectorId` (a colleague, or a client ally) for an intro to `targetId`. */
export type WarmIntroQuery = { source: WarmIntroSource; targetId: string; connectorId: string };
/** Opens the panel: what to load, and whether the row named an account owner (the title, before the data). */
export type WarmIntroRequest = WarmIntroQuery & { hasContactOwner: boolean };

export const networkKeys = {
  all: ['network'] as const,
  reportCards: () => [...networkKeys.all, 'report-cards'] as const,
  contacts: () => [...networkKeys.all, 'contacts'] as const,
  contactPage: (filters: readonly TFilterItem[], page: number, pageSize: number) =>
    [...networkKeys.contacts(), { filters, page, pageSize }] as const,
  filters: () => [...networkKeys.all, 'filters'] as const,
  filterOptions: (filters: readonly TFilterItem[]) => [...networkKeys.filters(), { filters }] as const,
  moreOptions: (field: NetworkFilterField, filters: readonly TFilterItem[]) =>
    [...networkKeys.filters(), 'more', field, { filters }] as const,
  searchOptions: (field: NetworkFilterField, searchTerm: string, filters: readonly TFilterItem[]) =>
    [...networkKeys.filters(), 'search', field, { searchTerm, filters }] as const,
  proximity: (prospectId: string) => [...networkKeys.all, 'proximity', prospectId] as const,
  warmIntro: (query: WarmIntroQuery) => [...networkKeys.all, 'warm-intro', query] as const,
};

export function fetchReportCards(signal?: AbortSignal): Promise<TReportCards> {
  return callApi(networkApi.getNetworkReportCards, {
    errorMessage: GATEWAY_ERRORS.fetchReportCards,
    signal,
  });
}

export function useReportCards() {
  return useQuery({ queryKey: networkKeys.reportCards(), queryFn: ({ signal }) => fetchReportCards(signal) });
}

export function fetchContacts(
  filters: readonly TFilterItem[],
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<TContactsPage> {
  return callApi(networkApi.queryContacts, {
    query: { page, pageSize },
    body: { filters },
    errorMessage: GATEWAY_ERRORS.fetchNetworkTable,
    signal,
  });
}

/** One page of the network table; a new page or filter keeps the rows on screen until it arrives. */
export function useContacts(filters: readonly TFilterItem[], page: number, pageSize: number) {
  return useQuery({
    queryKey: networkKeys.contactPage(filters, page, pageSize),
    queryFn: ({ signal }) => fetchContacts(filters, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}

export type FilterOptionPages = Partial<Record<PagedFilterField, number>>;

export function fetchNetworkFilters(
  filters: readonly TFilterItem[],
  pages: FilterOptionPages = {},
  signal?: AbortSignal,
): Promise<TNetworkFilters> {
  return callApi(networkApi.queryNetworkFilters, {
    query: { companyNamePage: pages.companyName ?? 1, personNamePage: pages.personName ?? 1 },
    body: { filters },
    errorMessage: GATEWAY_ERRORS.fetchNetworkFilters,
    signal,
  });
}

/** Every filter's options (the first page of companies and names), counted under the current filters. */
export function useNetworkFilters(filters: readonly TFilterItem[]) {
  return useQuery({
    queryKey: networkKeys.filterOptions(filters),
    queryFn: ({ signal }) => fetchNetworkFilters(filters, {}, signal),
    placeholderData: keepPreviousData,
  });
}

const FIRST_MORE_PAGE = 2;

/**
 * The pages after the first of a field's options, fetched from the first 'Load More' on; never for
 * the fields whose options all come at once.
 */
export function useMoreFilterOptions(field: NetworkFilterField, filters: readonly TFilterItem[], enabled: boolean) {
  return useInfiniteQuery({
    queryKey: networkKeys.moreOptions(field, filters),
    queryFn: async ({ pageParam, signal }): Promise<TNetworkFilter | null> => {
      const pages = isPagedFilterField(field) ? { [field]: pageParam } : {};
      const answer = await fetchNetworkFilters(filters, pages, signal);
      return answer.filters.find((filter) => filter.filterField === field) ?? null;
    },
    initialPageParam: FIRST_MORE_PAGE,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPage?.hasMore ? lastPageParam + 1 : undefined),
    enabled: enabled && isPagedFilterField(field),
  });
}

export function searchFilterOptions(
  field: NetworkFilterField,
  searchTerm: string,
  filters: readonly TFilterItem[],
  signal?: AbortSignal,
): Promise<TFilterSearchResult> {
  return callApi(networkApi.searchNetworkFilterOptions, {
    query: { filterField: field, searchTerm },
    body: { filters },
    errorMessage: GATEWAY_ERRORS.searchFilterOptions,
    signal,
  });
}

/** A field's options matching a (debounced, trimmed) search; nothing is asked for an empty search. */
export function useFilterOptionSearch(field: NetworkFilterField, searchTerm: string, filters: readonly TFilterItem[]) {
  return useQuery({
    queryKey: networkKeys.searchOptions(field, searchTerm, filters),
    queryFn: ({ signal }) => searchFilterOptions(field, searchTerm, filters, signal),
    enabled: searchTerm !== '',
  });
}

export function fetchProximityExplanation(prospectId: string, signal?: AbortSignal): Promise<TProximityExplanation> {
  return callApi(networkApi.explainProximity, { query: { prospectId }, signal });
}

export function useProximityExplanation(prospectId: string) {
  return useQuery({
    queryKey: networkKeys.proximity(prospectId),
    queryFn: ({ signal }) => fetchProximityExplanation(prospectId, signal),
  });
}

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
    queryKey: networkKeys.warmIntro(query),
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
    onError: (error) => failureToast(MESSAGES.warmIntroFailed, error.message),
  });
}

export function exportContactsCsv(filters: readonly TFilterItem[]): Promise<Blob> {
  return downloadFromApi(networkApi.exportContactsCsv, { body: { filters } });
}

/** Downloads the table under the current filters as a timestamped CSV file, with the spec's three toasts. */
export function useExportContactsCsv() {
  return useMutation({
    mutationFn: exportContactsCsv,
    onMutate: () => {
      toast.info(MESSAGES.csvDownloadStarted);
    },
    onSuccess: (file) => {
      saveFile(file, exportFileName(new Date()));
      toast.success(MESSAGES.csvDownloadFinished);
    },
    onError: (error) => {
      // Spec section 8: the user sees the spec's text; the gateway's error is only logged.
      console.error(error);
      toast.error(MESSAGES.csvExportFailed);
    },
  });
}
