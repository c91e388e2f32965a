import type { TFilterItem, TFilterOption, TNetworkFilter } from '@warmpath/shared';
import { useState } from 'react';
import type { LoadMoreControl } from '../../components/SearchableMultiSelect.tsx';
import { isPagedFilterField, useMoreFilterOptions } from './api.ts';

export type FilterOptionPages = {
  /** The first page's options, then those of every page loaded since, each once. */
  options: TFilterOption[];
  /** 'Load More' for the fields served by pages (companies and names). */
  loadMore: LoadMoreControl | undefined;
  error: string | null;
};

/**
 * A filter's options across its pages. The first page comes with every filter; 'Load More' asks for
 * the next, and new filters start again from the first page.
 */
export function useFilterOptionPages(filter: TNetworkFilter, filterItems: readonly TFilterItem[]): FilterOptionPages {
  const field = filter.filterField;
  const paged = isPagedFilterField(field);
  const filtersKey = JSON.stringify(filterItems);
  // More pages are fetched for the filters under which the user asked for them, not for later ones.
  const [moreFor, setMoreFor] = useState<string | null>(null);
  const wantsMore = paged && moreFor === filtersKey;
  const more = useMoreFilterOptions(field, filterItems, wantsMore);

  const morePages = wantsMore ? (more.data?.pages ?? []) : [];
  // Keyed, so an option the pages repeat (their counts moved meanwhile) is listed once.
  const byKey = new Map(
    [filter, ...morePages].flatMap((page) => page?.options ?? []).map((option) => [option.key, option]),
  );
  const options = [...byKey.values()];
  const lastPage = morePages.at(-1);
  const hasMore = lastPage === undefined ? filter.hasMore : (lastPage?.hasMore ?? false);

  return {
    options,
    loadMore: paged
      ? {
          hasMore,
          isLoading: wantsMore && more.isFetching,
          onLoadMore: () => {
            if (!wantsMore) setMoreFor(filtersKey);
            else if (more.hasNextPage) void more.fetchNextPage();
          },
        }
      : undefined,
    error: wantsMore && more.isError ? more.error.message : null,
  };
}
