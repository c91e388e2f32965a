import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
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
} from '@warmpath/shared';
import { useEffect, useRef } from 'react';
import { callApi, downloadFromApi } from '../../lib/api.ts';
import { saveFile } from '../../lib/browser.ts';
import { toast } from '../../lib/toasts.tsx';
import { exportFileName } from './networkDisplay.ts';

/** The filter fields whose options come in pages ('Load More'). */
export const PAGED_FILTER_FIELDS = ['companyName', 'personName'] as const satisfies readonly NetworkFilterField[];
export type PagedFilterField = (typeof PAGED_FILTER_FIELDS)[number];
export function isPagedFilterField(field: NetworkFilterField): field is PagedFilterField {
  return PAGED_FILTER_FIELDS.some((paged) => paged === field);
}

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
};

export function fetchReportCards(signal?: AbortSignal): Promise<TReportCards> {
  return callApi(networkApi.getNetworkReportCards, {
    errorMessage: GATEWAY_ERRORS.fetchReportCards,
    signal,
  });
}

/** How often the page looks again while new evidence is being rolled into the network. */
const UPDATING_POLL_MS = 3000;

export function useReportCards() {
  return useQuery({
    queryKey: networkKeys.reportCards(),
    queryFn: ({ signal }) => fetchReportCards(signal),
    refetchInterval: (query) => (query.state.data?.updating ? UPDATING_POLL_MS : false),
  });
}

/**
 * While the graph job rolls new evidence in (a sync, an upload), the cards say so and are asked again
 * every few seconds; once it is done, the table and its filters are fetched again, so people appear
 * without a reload. Answers whether an update is under way.
 */
export function useNetworkUpdating(): boolean {
  const queryClient = useQueryClient();
  const updating = useReportCards().data?.updating ?? false;
  const wasUpdating = useRef(updating);
  useEffect(() => {
    if (wasUpdating.current && !updating) void queryClient.invalidateQueries({ queryKey: networkKeys.all });
    wasUpdating.current = updating;
  }, [updating, queryClient]);
  return updating;
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
