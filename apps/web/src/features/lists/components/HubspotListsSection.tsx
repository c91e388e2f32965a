import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEBOUNCE_MS, LAYOUT } from '@warmpath/shared';
import { useId, useMemo, useState } from 'react';
import { SearchableMultiSelect } from '../../../components/SearchableMultiSelect.tsx';
import { useHubspotCompanies, useHubspotLists } from '../../integrations/api.ts';
import { useListQuery } from '../useListQuery.ts';
import { CompanyTable } from './CompanyTable.tsx';

export type HubspotListsSectionProps = {
  /** The section's heading ('Excluded companies'), or null when it sits under another heading. */
  title: string | null;
  /** The multi-select's label (spec: 'Company lists'). */
  selectLabel: string;
  /** What the table's search box is for, as its label says. */
  searchLabel: string;
  saved: readonly string[];
  onSave: (listIds: string[]) => void;
  saving: boolean;
  /** A sync is under way: an empty table is still filling. */
  syncing: boolean;
  /** When the last sync finished, or null: the table is read again after each. */
  syncedAt: string | null;
};

/**
 * HubSpot company lists chosen from the portal (searched as the admin types), saved together, and the
 * companies they hold as last synced, with their own search and pages.
 */
export function HubspotListsSection({
  title,
  selectLabel,
  searchLabel,
  saved,
  onSave,
  saving,
  syncing,
  syncedAt,
}: HubspotListsSectionProps) {
  const headingId = useId();
  const [draft, setDraft] = useState<string[] | null>(null);
  const chosen = draft ?? [...saved];
  const [listSearch, setListSearch] = useState('');
  const [listSearchTerm] = useDebouncedValue(listSearch.trim(), DEBOUNCE_MS.dropdownSearch);
  const lists = useHubspotLists(listSearchTerm, true);
  // Names of every list seen: a chosen list keeps its name whatever the current search shows.
  const [names] = useState(() => new Map<string, string>());
  for (const list of lists.data ?? []) names.set(list.id, list.name);
  const changed = useMemo(() => [...chosen].sort().join() !== [...saved].sort().join(), [chosen, saved]);

  const { search, setSearch, query, setPage, setPageSize } = useListQuery();
  const companies = useHubspotCompanies({ listIds: saved, ...query, syncedAt });

  return (
    <Stack
      component="section"
      // A section of its own stands apart from the table above it.
      mt={title ? 'xl' : undefined}
      aria-labelledby={title ? headingId : undefined}
      aria-label={title ? undefined : selectLabel}
    >
      {title ? (
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
      ) : null}
      <Group align="flex-end" wrap="nowrap">
        <div style={{ flex: 1, maxWidth: 520 }}>
          <SearchableMultiSelect
            label={selectLabel}
            placeholder={chosen.length === 0 ? 'Choose HubSpot company lists' : undefined}
            options={(lists.data ?? []).map((list) => ({ value: list.id, label: list.name }))}
            value={chosen}
            onChange={setDraft}
            labelOf={(id) => names.get(id) ?? id}
            search={listSearch}
            onSearchChange={setListSearch}
            maxDropdownHeight={LAYOUT.filterDropdownMaxHeightPx}
            isLoading={lists.isPending}
            loadError={lists.isError ? lists.error.message : undefined}
          />
        </div>
        <Button
          onClick={() => onSave(chosen)}
          disabled={!changed}
          loading={saving}
          aria-label={`Save ${selectLabel.toLowerCase()}${title ? ` of ${title.toLowerCase()}` : ''}`}
        >
          Save
        </Button>
      </Group>
      <TextInput
        aria-label={searchLabel}
        placeholder="Search"
        type="search"
        maw={360}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      <CompanyTable
        label={title ?? selectLabel}
        page={saved.length > 0 ? companies.data : undefined}
        loading={saved.length > 0 && companies.isPending}
        fetching={companies.isFetching}
        error={companies.isError ? companies.error.message : null}
        onRetry={() => void companies.refetch()}
        empty={
          saved.length === 0
            ? 'Choose HubSpot company lists, then save: their companies show here.'
            : syncing
              ? 'Reading the lists from HubSpot…'
              : query.searchTerm === ''
                ? 'These lists hold no companies.'
                : 'No companies match your search.'
        }
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
      />
    </Stack>
  );
}
