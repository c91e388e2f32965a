import { Group, SimpleGrid, Skeleton, Stack, Switch } from '@mantine/core';
import { NETWORK_FILTER_FIELDS, type TFilterItem, type TNetworkFilter } from '@warmpath/shared';
import { memo } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import {
  EXCLUSIVE_FILTERS,
  type ExclusiveFilter,
  type NetworkFilterState,
  withExclusiveFilter,
  withExternalOnly,
  withFieldValues,
} from '../filterToggle.ts';
import { NetworkFilterSelect } from './NetworkFilterSelect.tsx';

export type NetworkFilterBarProps = {
  /** The filters and their options, undefined until first loaded. */
  filters: readonly TNetworkFilter[] | undefined;
  loadError: string | null;
  onRetry: () => void;
  state: NetworkFilterState;
  onChange: (state: NetworkFilterState) => void;
  /** The request form of `state`, which the options are counted under. */
  filterItems: readonly TFilterItem[];
};

const EXCLUSIVE_LABELS: Record<ExclusiveFilter, string> = {
  idealCustomerProfile: 'Ideal customer profile',
  personas: 'Personas',
  myAccounts: 'My accounts',
};
const COLUMNS = { base: 1, sm: 3, lg: 5 };
const FIELD_HEIGHT = 60;

/**
 * The network filters: one searchable multi-select per field, then the exclusive filters and
 * external-only. Memoized: new table rows leave it as it was.
 */
export const NetworkFilterBar = memo(function NetworkFilterBar({
  filters,
  loadError,
  onRetry,
  state,
  onChange,
  filterItems,
}: NetworkFilterBarProps) {
  if (!filters) {
    return loadError ? (
      <ErrorAlert message={loadError} onRetry={onRetry} />
    ) : (
      <Stack gap="sm" role="status" aria-label="Loading the filters">
        <SimpleGrid cols={COLUMNS}>
          {NETWORK_FILTER_FIELDS.map((field) => (
            <Skeleton key={field} height={FIELD_HEIGHT} />
          ))}
        </SimpleGrid>
        <Skeleton height={24} width="60%" />
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-label="Filters">
      <SimpleGrid cols={COLUMNS}>
        {NETWORK_FILTER_FIELDS.map((field) => (
          <NetworkFilterSelect
            key={field}
            filter={
              filters.find((filter) => filter.filterField === field) ?? {
                filterField: field,
                prettyName: field,
                options: [],
                hasMore: false,
              }
            }
            selected={state.fields[field]}
            onSelectedChange={(values) => onChange(withFieldValues(state, field, values))}
            filterItems={filterItems}
          />
        ))}
      </SimpleGrid>
      <Group gap="lg">
        {EXCLUSIVE_FILTERS.map((name) => (
          <Switch
            key={name}
            label={EXCLUSIVE_LABELS[name]}
            checked={state.toggles[name]}
            onChange={(event) => onChange(withExclusiveFilter(state, name, event.currentTarget.checked))}
          />
        ))}
        <Switch
          label="External allies only"
          checked={state.toggles.externalOnly}
          onChange={(event) => onChange(withExternalOnly(state, event.currentTarget.checked))}
        />
      </Group>
    </Stack>
  );
});
