import { SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ActionFilterName, TActionFilter } from '@warmpath/shared';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import type { ActionFilterSelection } from '../actionsDisplay.ts';
import { ActionFilterSelect } from './ActionFilterSelect.tsx';

export type ActionFilterBarProps = {
  /** The filters to show, in order. */
  names: readonly ActionFilterName[];
  /** The filters and their options, undefined until loaded. */
  filters: readonly TActionFilter[] | undefined;
  loadError: string | null;
  onRetry: () => void;
  selection: ActionFilterSelection;
  onChange: (selection: ActionFilterSelection) => void;
  remoteSearch: boolean;
};

const COLUMNS = { base: 1, sm: 2, lg: 4 };
const FIELD_HEIGHT = 60;

/** The actions filters under 'Show': one searchable multi-select per filter. */
export function ActionFilterBar({
  names,
  filters,
  loadError,
  onRetry,
  selection,
  onChange,
  remoteSearch,
}: ActionFilterBarProps) {
  return (
    <Stack gap={6} component="section" aria-label="Filters">
      <Text size="sm" fw={600}>
        Show
      </Text>
      {filters ? (
        <SimpleGrid cols={COLUMNS}>
          {names.map((name) => (
            <ActionFilterSelect
              key={name}
              filter={filters.find((filter) => filter.filterName === name) ?? { filterName: name, optionValues: [] }}
              selected={selection[name] ?? []}
              onSelectedChange={(values) => onChange({ ...selection, [name]: values })}
              remoteSearch={remoteSearch}
            />
          ))}
        </SimpleGrid>
      ) : loadError ? (
        <ErrorAlert message={loadError} onRetry={onRetry} />
      ) : (
        <SimpleGrid cols={COLUMNS} role="status" aria-label="Loading the filters">
          {names.map((name) => (
            <Skeleton key={name} height={FIELD_HEIGHT} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
