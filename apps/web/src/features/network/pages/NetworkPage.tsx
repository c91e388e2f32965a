import { Button, Group, Loader, Skeleton, Stack, Text } from '@mantine/core';
import { PAGINATION } from '@warmpath/shared';
import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LazyPanel } from '../../../components/LazyPanel.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { useDrawnInBackground } from '../../../lib/useDrawnInBackground.ts';
import { useSession } from '../../../lib/useSession.ts';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { useContacts, useExportContactsCsv, useNetworkFilters, useNetworkUpdating } from '../api.ts';
import { NetworkEmptyState } from '../components/NetworkEmptyState.tsx';
import { NetworkFilterBar } from '../components/NetworkFilterBar.tsx';
import { NetworkTable } from '../components/NetworkTable.tsx';
import { ReportCards } from '../components/ReportCards.tsx';
import { SignalLegend } from '../components/SignalChips.tsx';
import { initialFilterState, type NetworkFilterState, toFilterItems } from '../filterToggle.ts';
import { COMPANY_PARAM, type NetworkView, PERSON_PARAM, VIEW_PARAM, viewOf } from '../networkView.ts';

// Opened from a row's allies: its form comes with it, not with the page.
const WarmIntroDrawer = lazy(async () => ({
  default: (await import('../../intros/components/WarmIntroDrawer.tsx')).WarmIntroDrawer,
}));

// The account coverage view loads when first shown: the page's first script stays the people view's.
const AccountCoverageView = lazy(async () => ({
  default: (await import('../components/AccountCoverageView.tsx')).AccountCoverageView,
}));

const VIEWS: readonly { value: NetworkView; label: string }[] = [
  { value: 'people', label: 'People' },
  { value: 'accounts', label: 'Accounts' },
];

/**
 * The network home: report cards, then one of two views, chosen in the URL (`?view=accounts`): the
 * people (filters, the table of prospects and who knows them, warm intros) or the accounts' coverage.
 */
export function NetworkPage() {
  const { user } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = viewOf(searchParams);
  const updating = useNetworkUpdating();
  // Another view starts clean: the people view's links (one company, one person) are for it alone.
  const changeView = (next: NetworkView) => {
    setSearchParams(next === 'accounts' ? { [VIEW_PARAM]: 'accounts' } : {});
  };
  // A link naming a company or a person opens a people view filtered to it, even over the one shown.
  const peopleKey = `${searchParams.get(COMPANY_PARAM) ?? ''}/${searchParams.get(PERSON_PARAM) ?? ''}`;

  return (
    <>
      <PageHeader title="Network" />
      <Stack gap="lg">
        <ReportCards />
        {updating && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Adding what was just synced or uploaded to your network. People appear here as soon as it is done.
            </Text>
          </Group>
        )}
        {/* Two toggle buttons rather than Mantine's SegmentedControl, whose moving indicator would add
            3 kB (gzip) to the page's first script. */}
        <Button.Group aria-label="Network view">
          {VIEWS.map(({ value, label }) => (
            <Button
              key={value}
              size="xs"
              variant={view === value ? 'filled' : 'default'}
              aria-pressed={view === value}
              onClick={() => changeView(value)}
            >
              {label}
            </Button>
          ))}
        </Button.Group>
        {view === 'accounts' ? (
          <Suspense fallback={<Skeleton height={240} role="status" aria-label="Loading the accounts" />}>
            <AccountCoverageView isAdmin={user?.role === 'admin'} />
          </Suspense>
        ) : (
          <PeopleView key={peopleKey} searchParams={searchParams} />
        )}
      </Stack>
    </>
  );
}

/** The filters, the table of prospects, its pages and the warm-intro drawer. */
function PeopleView({ searchParams }: { searchParams: URLSearchParams }) {
  const { user } = useSession();
  // A link to one person (`?personId=`, as the webhook events give) or one company (`?companyId=`,
  // from the accounts view) opens the table filtered to them.
  const [filterState, setFilterState] = useState<NetworkFilterState>(() => {
    const initial = initialFilterState();
    const personId = searchParams.get(PERSON_PARAM);
    const companyId = searchParams.get(COMPANY_PARAM);
    return {
      ...initial,
      fields: {
        ...initial.fields,
        ...(personId ? { personName: [personId] } : {}),
        ...(companyId ? { companyName: [companyId] } : {}),
      },
    };
  });
  const [page, setPage] = useState<number>(PAGINATION.defaultPage);
  const [pageSize, setPageSize] = useState<number>(PAGINATION.defaultPageSize);
  const [warmIntro, setWarmIntro] = useState<WarmIntroRequest | null>(null);
  const filterItems = useMemo(() => toFilterItems(filterState), [filterState]);

  const contacts = useContacts(filterItems, page, pageSize);
  const filters = useNetworkFilters(filterItems);
  const exportCsv = useExportContactsCsv();
  // The table's rows and the filters' options are drawn in a background render that yields to the
  // browser, instead of one long task that holds the page (and the first paint) when they arrive. The
  // whole page of rows is one such render: drawn in batches of five on top of it, each batch a task
  // that laid the whole table out again, Lighthouse's blocking time on /network at 1M prospects had a
  // mean of 674 ms over five runs, against 507 ms (2026-11-26).
  const rows = useDeferredValue(contacts.data?.rows);
  const filterOptions = useDeferredValue(filters.data?.filters);

  // Spec section 4: any filter change goes back to page 1, keeping the page size. Stable, like the
  // retry below, so the memoized filter bar re-renders only when its own data changes.
  const changeFilters = useCallback((next: NetworkFilterState) => {
    setFilterState(next);
    setPage(PAGINATION.defaultPage);
  }, []);
  const { refetch: refetchFilters } = filters;
  const retryFilters = useCallback(() => void refetchFilters(), [refetchFilters]);
  const changePageSize = (next: number) => {
    setPageSize(next);
    setPage(PAGINATION.defaultPage);
  };
  // The page's heading and cards are painted first; the filters' and the table's skeletons (a few
  // hundred components) follow (drawn in the same task, they held the first paint). The requests
  // above start at once all the same.
  const drawn = useDrawnInBackground();
  if (!drawn) return null;

  return (
    <>
      <Stack gap="lg">
        <NetworkFilterBar
          filters={filterOptions}
          loadError={filters.isError ? filters.error.message : null}
          onRetry={retryFilters}
          state={filterState}
          onChange={changeFilters}
          filterItems={filterItems}
        />
        <Group justify="space-between">
          <SignalLegend />
          <Button variant="default" onClick={() => exportCsv.mutate(filterItems)} loading={exportCsv.isPending}>
            Download CSV
          </Button>
        </Group>
        <NetworkTable
          rows={rows}
          drawing={rows !== contacts.data?.rows}
          error={contacts.isError ? contacts.error.message : null}
          onRetry={() => void contacts.refetch()}
          isRefreshing={contacts.isPlaceholderData}
          emptyState={
            <NetworkEmptyState
              filtered={filterItems.length > 0}
              onClearFilters={() => changeFilters(initialFilterState())}
              user={user}
            />
          }
          onAsk={setWarmIntro}
        />
        {contacts.data ? (
          <TablePagination
            label="Contacts pages"
            pagination={contacts.data.pagination}
            onPageChange={setPage}
            onPageSizeChange={changePageSize}
          />
        ) : null}
      </Stack>
      <LazyPanel opened={warmIntro !== null}>
        <WarmIntroDrawer request={warmIntro} onClose={() => setWarmIntro(null)} />
      </LazyPanel>
    </>
  );
}
