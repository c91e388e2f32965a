import { CheckIcon, Combobox, Group, Pill, PillsInput, ScrollArea, Text, useCombobox } from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';

export type MultiSelectOption = { value: string; label: string; prefix?: ReactNode };

export type LoadMoreControl = { hasMore: boolean; isLoading: boolean; onLoadMore: () => void };

export type SearchableMultiSelectProps = {
  label: string;
  description?: ReactNode;
  placeholder?: string;
  /** The options matching the current search, in the order to show them. */
  options: readonly MultiSelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** The text of a chosen value, which may not be among the options of the current search. */
  labelOf: (value: string) => string;
  search: string;
  onSearchChange: (search: string) => void;
  maxDropdownHeight: number;
  onDropdownOpen?: () => void;
  isLoading?: boolean;
  /** Why the options could not be loaded. */
  loadError?: string;
  /** A 'Load More' entry at the end of the list, for options served by pages. */
  loadMore?: LoadMoreControl;
  error?: ReactNode;
};

// Never an option's value: the options come from our own constants and the API's identifiers.
const LOAD_MORE_VALUE = '\u0000load-more';

/**
 * Chosen values as removable pills, and a search field opening a list of options to toggle. The
 * arrow keys move through the list, including 'Load More'; Enter toggles or loads; Backspace in an
 * empty search removes the last value.
 */
export function SearchableMultiSelect({
  label,
  description,
  placeholder,
  options,
  value,
  onChange,
  labelOf,
  search,
  onSearchChange,
  maxDropdownHeight,
  onDropdownOpen,
  isLoading = false,
  loadError,
  loadMore,
  error,
}: SearchableMultiSelectProps) {
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => {
      combobox.updateSelectedOptionIndex('active');
      onDropdownOpen?.();
    },
  });
  const chosen = new Set(value);

  const remove = (removed: string) => onChange(value.filter((existing) => existing !== removed));

  const submit = (submitted: string) => {
    if (submitted === LOAD_MORE_VALUE) {
      loadMore?.onLoadMore();
      return;
    }
    if (chosen.has(submitted)) remove(submitted);
    else onChange([...value, submitted]);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = value.at(-1);
    if (event.key === 'Backspace' && search === '' && last !== undefined) {
      event.preventDefault();
      remove(last);
    }
  };

  return (
    <Combobox store={combobox} onOptionSubmit={submit}>
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          description={description}
          error={error}
          onClick={() => combobox.openDropdown()}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
        >
          <Pill.Group>
            {value.map((item) => (
              <Pill
                key={item}
                withRemoveButton
                onRemove={() => remove(item)}
                removeButtonProps={{ 'aria-label': `Remove ${labelOf(item)}`, 'aria-hidden': false, tabIndex: 0 }}
              >
                {labelOf(item)}
              </Pill>
            ))}
            <Combobox.EventsTarget>
              <PillsInput.Field
                value={search}
                placeholder={placeholder}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                onChange={(event) => {
                  combobox.openDropdown();
                  combobox.updateSelectedOptionIndex();
                  onSearchChange(event.currentTarget.value);
                }}
                onKeyDown={handleKeyDown}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>

      <Combobox.Dropdown>
        <Combobox.Options aria-label={label} aria-multiselectable>
          <ScrollArea.Autosize mah={maxDropdownHeight} type="scroll">
            {options.map((option) => {
              const isChosen = chosen.has(option.value);
              return (
                <Combobox.Option key={option.value} value={option.value} active={isChosen} aria-selected={isChosen}>
                  <Group gap="xs" wrap="nowrap">
                    {isChosen ? <CheckIcon size={12} aria-hidden /> : null}
                    {option.prefix}
                    <span>{option.label}</span>
                  </Group>
                </Combobox.Option>
              );
            })}
            {loadMore?.hasMore ? (
              <Combobox.Option value={LOAD_MORE_VALUE} disabled={loadMore.isLoading}>
                <Text size="sm" fw={500} c="blue.8">
                  {loadMore.isLoading ? 'Loading...' : 'Load More'}
                </Text>
              </Combobox.Option>
            ) : null}
            {loadError ? (
              <Combobox.Empty role="alert">{loadError}</Combobox.Empty>
            ) : isLoading ? (
              <Combobox.Empty>Loading...</Combobox.Empty>
            ) : options.length === 0 ? (
              <Combobox.Empty>Nothing found</Combobox.Empty>
            ) : null}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
