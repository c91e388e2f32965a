import { Avatar } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  DEBOUNCE_MS,
  FILTER_OPTION_PAGE_SIZE,
  LAYOUT,
  NETWORK_FILTER_LABELS,
  type TFilterItem,
  type TFilterOption,
  type TNetworkFilter,
} from '@warmpath/shared';
import { useState } from 'react';
import { LazySearchableMultiSelect } from '../../../components/LazySearchableMultiSelect.tsx';
import type { MultiSelectOption } from '../../../components/SearchableMultiSelect.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useFilterOptionSearch } from '../api.ts';
import { ALL_OPTION, isOptionChosen, toggleOption } from '../filterToggle.ts';
import { filterSummary } from '../networkDisplay.ts';
import { useFilterOptionPages } from '../useFilterOptionPages.ts';

export type NetworkFilterSelectProps = {
  filter: TNetworkFilter;
  /** The field's values: [] for all, [EMPTY_STATE] for none, else the chosen keys. */
  selected: readonly string[];
  onSelectedChange: (values: string[]) => void;
  /** The current filters, which the options are counted under. */
  filterItems: readonly TFilterItem[];
};

const ALL_ENTRY: MultiSelectOption = { value: ALL_OPTION, label: 'All' };

function toOption(option: TFilterOption): MultiSelectOption {
  const picture = option.avatar ?? option.companyLogo ?? null;
  return {
    value: option.key,
    label: option.companyName ? `${option.name} (${option.companyName})` : option.name,
    prefix: picture ? <Avatar src={picture} alt="" size={20} radius="xl" /> : undefined,
    suffix: formatCount(option.count),
  };
}

/**
 * One filter of the network bar: its options with their counts, an 'All' entry, the server's search
 * after a short pause, and 'Load More' for companies and names. Picks follow spec section 4's rules.
 */
export function NetworkFilterSelect({ filter, selected, onSelectedChange, filterItems }: NetworkFilterSelectProps) {
  const field = filter.filterField;
  const label = NETWORK_FILTER_LABELS[field];
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, DEBOUNCE_MS.dropdownSearch);
  const searchTerm = debounced.trim();
  const pages = useFilterOptionPages(filter, filterItems);
  const found = useFilterOptionSearch(field, searchTerm, filterItems);
  const searching = searchTerm !== '';

  const known = searching ? [...pages.options, ...(found.data?.options ?? [])] : pages.options;
  const names = new Map(known.map((option) => [option.key, option.name]));
  const listed = searching ? (found.data?.options ?? []) : pages.options;
  const optionKeys = [...new Set(known.map((option) => option.key))];

  return (
    <LazySearchableMultiSelect
      label={label}
      placeholder="Search"
      options={searching ? listed.map(toOption) : [ALL_ENTRY, ...listed.map(toOption)]}
      selection={{
        isChosen: (key) => isOptionChosen(selected, key),
        pick: (key) => onSelectedChange(toggleOption(selected, key, optionKeys)),
        summary: filterSummary(selected, (key) => names.get(key)),
      }}
      search={search}
      onSearchChange={setSearch}
      maxDropdownHeight={LAYOUT.filterDropdownMaxHeightPx}
      isLoading={searching && found.isPending}
      loadError={searching && found.isError ? found.error.message : (pages.error ?? undefined)}
      loadMore={searching ? undefined : pages.loadMore}
      footnote={
        !searching && pages.loadMore === undefined && filter.hasMore
          ? `The ${FILTER_OPTION_PAGE_SIZE} with the most prospects: search to find the others`
          : undefined
      }
    />
  );
}
