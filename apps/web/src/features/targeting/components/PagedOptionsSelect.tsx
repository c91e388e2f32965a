import { useDebouncedValue } from '@mantine/hooks';
import { DEBOUNCE_MS, type TOption } from '@warmpath/shared';
import { useMemo, useState } from 'react';
import { SearchableMultiSelect } from '../../../components/SearchableMultiSelect.tsx';
import { type OptionListKind, useOptionPages } from '../api.ts';
import { mergeOptionPages } from '../targetingForm.ts';

export type PagedOptionsSelectProps = {
  kind: OptionListKind;
  label: string;
  value: readonly TOption[];
  onChange: (options: TOption[]) => void;
  maxDropdownHeight: number;
};

/**
 * A multi-select over a long server list: searched by the server after a short pause, loaded page
 * by page on 'Load More', the pages adding up. Nothing is fetched until the list is first opened.
 */
export function PagedOptionsSelect({ kind, label, value, onChange, maxDropdownHeight }: PagedOptionsSelectProps) {
  const [search, setSearch] = useState('');
  const [searchTerm] = useDebouncedValue(search, DEBOUNCE_MS.dropdownSearch);
  const [opened, setOpened] = useState(false);
  const pages = useOptionPages(kind, searchTerm, opened);
  const loaded = useMemo(() => mergeOptionPages(pages.data?.pages ?? []), [pages.data]);
  const names = new Map([...value, ...loaded].map((option) => [option.value, option.name]));

  return (
    <SearchableMultiSelect
      label={label}
      placeholder="Search"
      options={loaded.map((option) => ({ value: option.value, label: option.name }))}
      value={value.map((option) => option.value)}
      onChange={(values) => onChange(values.map((chosen) => ({ value: chosen, name: names.get(chosen) ?? chosen })))}
      labelOf={(chosen) => names.get(chosen) ?? chosen}
      search={search}
      onSearchChange={setSearch}
      maxDropdownHeight={maxDropdownHeight}
      onDropdownOpen={() => setOpened(true)}
      isLoading={pages.isLoading}
      loadError={pages.isError ? pages.error.message : undefined}
      loadMore={{
        hasMore: pages.hasNextPage,
        isLoading: pages.isFetchingNextPage,
        onLoadMore: () => void pages.fetchNextPage(),
      }}
    />
  );
}
