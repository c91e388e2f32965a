import { CheckIcon, Combobox, Group, Pill, PillsInput, ScrollArea, Text, useCombobox } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

export type MultiSelectOption = {
  value: string;
  label: string;
  prefix?: ReactNode;
  /** Shown at the end of the option's line (a count). */
  suffix?: ReactNode;
};

export type LoadMoreControl = { hasMore: boolean; isLoading: boolean; onLoadMore: () => void };

/** The chosen values as removable pills; picking an option adds or removes it. */
type PillSelection = {
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** The text of a chosen value, which may not be among the options of the current search. */
  labelOf: (value: string) => string;
};

/**
 * For lists whose picks follow their own rules (the network filters of spec section 4, where
 * nothing chosen means all): what counts as chosen, what a pick does, and a summary shown in place
 * of pills.
 */
export type RuledSelection = {
  isChosen: (value: string) => boolean;
  pick: (value: string) => void;
  summary: string;
};

type Picking = Pick<RuledSelection, 'isChosen' | 'pick'>;

type CommonProps = {
  label: string;
  description?: ReactNode;
  placeholder?: string;
  /** The options matching the current search, in the order to show them. */
  options: readonly MultiSelectOption[];
  search: string;
  onSearchChange: (search: string) => void;
  maxDropdownHeight: number;
  onDropdownOpen?: () => void;
  isLoading?: boolean;
  /** Why the options could not be loaded. */
  loadError?: string;
  /** A 'Load More' entry at the end of the list, for options served by pages. */
  loadMore?: LoadMoreControl;
  /** A line under the list: what it leaves out, and how to find it. */
  footnote?: string;
  error?: ReactNode;
  /** Put in place of a placeholder on first use (LazySearchableMultiSelect): the search field takes the focus, which opens the list. */
  focusOnMount?: boolean;
};

export type SearchableMultiSelectProps = CommonProps & (PillSelection | { selection: RuledSelection });

// Never an option's value: the options come from our own constants and the API's identifiers.
const LOAD_MORE_VALUE = '\u0000load-more';

/**
 * Chosen values (as removable pills, or a summary), and a search field opening a list of options to
 * toggle. The arrow keys move through the list, including 'Load More'; Enter toggles or loads;
 * Backspace in an empty search removes the last pill.
 */
export function SearchableMultiSelect(props: SearchableMultiSelectProps) {
  const {
    label,
    description,
    placeholder,
    options,
    search,
    onSearchChange,
    maxDropdownHeight,
    onDropdownOpen,
    isLoading = false,
    loadError,
    loadMore,
    footnote,
    error,
    focusOnMount = false,
  } = props;
  const field = useRef<HTMLInputElement>(null);
  // Only as it mounts: a later render never moves the focus.
  const focusAtMount = useRef(focusOnMount);
  useEffect(() => {
    if (focusAtMount.current) field.current?.focus();
  }, []);
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => onDropdownOpen?.(),
  });
  // The options exist only while the list is open (below): the arrow keys start from the chosen one
  // once they are there.
  const { dropdownOpened, updateSelectedOptionIndex } = combobox;
  useEffect(() => {
    if (dropdownOpened) updateSelectedOptionIndex('active');
  }, [dropdownOpened, updateSelectedOptionIndex]);
  const pills = 'selection' in props ? null : props;
  const selection: Picking = 'selection' in props ? props.selection : pillSelection(props);
  const summary = 'selection' in props ? props.selection.summary : null;

  const submit = (submitted: string) => {
    if (submitted === LOAD_MORE_VALUE) loadMore?.onLoadMore();
    else selection.pick(submitted);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = pills?.value.at(-1);
    if (event.key === 'Backspace' && search === '' && last !== undefined) {
      event.preventDefault();
      selection.pick(last);
    }
  };

  return (
    // Not kept mounted while closed (Mantine's default keeps every option in the page, hidden): the
    // network bar's nine lists held 700 options, half a second of the page's first render.
    <Combobox store={combobox} onOptionSubmit={submit} keepMounted={false}>
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
            {pills ? (
              pills.value.map((item) => (
                <Pill
                  key={item}
                  withRemoveButton
                  onRemove={() => selection.pick(item)}
                  removeButtonProps={{
                    'aria-label': `Remove ${pills.labelOf(item)}`,
                    'aria-hidden': false,
                    tabIndex: 0,
                  }}
                >
                  {pills.labelOf(item)}
                </Pill>
              ))
            ) : (
              <Text size="sm" span>
                {summary}
              </Text>
            )}
            <Combobox.EventsTarget>
              <PillsInput.Field
                ref={field}
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
              const isChosen = selection.isChosen(option.value);
              return (
                <Combobox.Option key={option.value} value={option.value} active={isChosen} aria-selected={isChosen}>
                  <Group gap="xs" wrap="nowrap">
                    {isChosen ? <CheckIcon size={12} aria-hidden /> : null}
                    {option.prefix}
                    <span>{option.label}</span>
                    {option.suffix === undefined ? null : (
                      <Text span size="xs" c="dimmed" ml="auto">
                        {option.suffix}
                      </Text>
                    )}
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
        {footnote ? (
          <Combobox.Footer>
            <Text size="xs" c="dimmed">
              {footnote}
            </Text>
          </Combobox.Footer>
        ) : null}
      </Combobox.Dropdown>
    </Combobox>
  );
}

/** The plain rule: a pick adds the option, or removes it when chosen. */
function pillSelection({ value, onChange }: PillSelection): Picking {
  const chosen = new Set(value);
  return {
    isChosen: (option) => chosen.has(option),
    pick: (option) => onChange(chosen.has(option) ? value.filter((item) => item !== option) : [...value, option]),
  };
}
