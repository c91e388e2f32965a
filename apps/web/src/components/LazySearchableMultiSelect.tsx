import { ComboboxChevron, Pill, PillsInput, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { SearchableMultiSelectProps } from './SearchableMultiSelect.tsx';

// The list's code (Mantine's combobox, scroll area and floating layer) loads on a field's first use.
const SearchableMultiSelect = lazy(async () => ({
  default: (await import('./SearchableMultiSelect.tsx')).SearchableMultiSelect,
}));

/**
 * SearchableMultiSelect for a page that draws many at once and must be light (the network's filter
 * bar, issue 26): until it is first focused or clicked it is the field alone, drawn the same, its list
 * not loaded; the full control then takes its place, its search field focused, which opens the list.
 */
export function LazySearchableMultiSelect(props: SearchableMultiSelectProps) {
  const [used, setUsed] = useState(false);
  const field = <ClosedField {...props} onUse={() => setUsed(true)} />;
  if (!used) return field;
  return (
    <Suspense fallback={field}>
      <SearchableMultiSelect {...props} focusOnMount />
    </Suspense>
  );
}

/** What SearchableMultiSelect shows while its list is closed: label, pills or summary, search field. */
function ClosedField(props: SearchableMultiSelectProps & { onUse: () => void }) {
  const { label, description, error, placeholder, search, onSearchChange, onUse } = props;
  return (
    <PillsInput
      label={label}
      description={description}
      error={error}
      onClick={onUse}
      rightSection={<ComboboxChevron />}
      rightSectionPointerEvents="none"
    >
      <Pill.Group>
        {'selection' in props ? (
          <Text size="sm" span>
            {props.selection.summary}
          </Text>
        ) : (
          props.value.map((item) => (
            <Pill
              key={item}
              withRemoveButton
              onRemove={() => props.onChange(props.value.filter((chosen) => chosen !== item))}
              removeButtonProps={{
                'aria-label': `Remove ${props.labelOf(item)}`,
                'aria-hidden': false,
                tabIndex: 0,
              }}
            >
              {props.labelOf(item)}
            </Pill>
          ))
        )}
        <PillsInput.Field
          value={search}
          placeholder={placeholder}
          aria-haspopup="listbox"
          autoComplete="off"
          onFocus={onUse}
          onChange={(event) => {
            onUse();
            onSearchChange(event.currentTarget.value);
          }}
        />
      </Pill.Group>
    </PillsInput>
  );
}
