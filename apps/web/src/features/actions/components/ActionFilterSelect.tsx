import { Avatar } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ACTION_FILTER_LABELS,
  DEBOUNCE_MS,
  LAYOUT,
  type TActionFilter,
  type TActionFilterOption,
} from '@warmpath/shared';
import { useState } from 'react';
import { type MultiSelectOption, SearchableMultiSelect } from '../../../components/SearchableMultiSelect.tsx';
import { formatCount } from '../../../lib/format.ts';
import { useRecommendedFilterSearch } from '../api.ts';

export type ActionFilterSelectProps = {
  filter: TActionFilter;
  selected: readonly string[];
  onSelectedChange: (values: string[]) => void;
  /** Search the options on the server (the recommended actions' filters), else among those loaded. */
  remoteSearch: boolean;
};

function toOption(option: TActionFilterOption): MultiSelectOption {
  const picture = option.avatar ?? option.companyLogo;
  return {
    value: option.optionValue,
    label: option.optionName,
    prefix: picture ? <Avatar src={picture} alt="" size={20} radius="xl" /> : undefined,
    suffix: formatCount(option.count),
  };
}

const matches = (option: TActionFilterOption, searchTerm: string) =>
  option.optionName.toLowerCase().includes(searchTerm.toLowerCase());

/** One actions filter: its options with their counts, searched after a short pause; picks add or remove. */
export function ActionFilterSelect({ filter, selected, onSelectedChange, remoteSearch }: ActionFilterSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, DEBOUNCE_MS.dropdownSearch);
  const searchTerm = debounced.trim();
  const found = useRecommendedFilterSearch(filter.filterName, searchTerm, remoteSearch);
  const searching = searchTerm !== '';

  const listed = !searching
    ? filter.optionValues
    : remoteSearch
      ? (found.data ?? [])
      : filter.optionValues.filter((option) => matches(option, searchTerm));
  const names = new Map(
    [...filter.optionValues, ...(found.data ?? [])].map((option) => [option.optionValue, option.optionName]),
  );

  return (
    <SearchableMultiSelect
      label={ACTION_FILTER_LABELS[filter.filterName]}
      placeholder={selected.length === 0 ? 'All' : undefined}
      options={listed.map(toOption)}
      value={selected}
      onChange={onSelectedChange}
      labelOf={(value) => names.get(value) ?? value}
      search={search}
      onSearchChange={setSearch}
      maxDropdownHeight={LAYOUT.filterDropdownMaxHeightPx}
      isLoading={remoteSearch && searching && found.isPending}
      loadError={remoteSearch && searching && found.isError ? found.error.message : undefined}
    />
  );
}
