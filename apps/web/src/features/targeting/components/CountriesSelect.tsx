import type { TCountry } from '@warmpath/shared';
import { useMemo, useState } from 'react';
import { type MultiSelectOption, SearchableMultiSelect } from '../../../components/SearchableMultiSelect.tsx';

export type CountriesSelectProps = {
  countries: readonly TCountry[];
  /** Chosen country codes. */
  value: readonly string[];
  onChange: (codes: string[]) => void;
  maxDropdownHeight: number;
  error?: string;
};

/** Countries by name, with their flags; the search filters the list already loaded. */
export function CountriesSelect({ countries, value, onChange, maxDropdownHeight, error }: CountriesSelectProps) {
  const [search, setSearch] = useState('');
  const names = useMemo(() => new Map(countries.map((country) => [country.countryCode, country.name])), [countries]);
  const needle = search.trim().toLowerCase();
  const options: MultiSelectOption[] = countries
    .filter((country) => country.name.toLowerCase().includes(needle))
    .map((country) => ({
      value: country.countryCode,
      label: country.name,
      prefix: <span aria-hidden="true">{country.flag}</span>,
    }));

  return (
    <SearchableMultiSelect
      label="Countries"
      placeholder="Search countries"
      options={options}
      value={value}
      onChange={onChange}
      labelOf={(code) => names.get(code) ?? code}
      search={search}
      onSearchChange={setSearch}
      maxDropdownHeight={maxDropdownHeight}
      error={error}
    />
  );
}
