import { Button, Stack, Text } from '@mantine/core';
import { PAGINATION, PAST_ACTION_FILTER_NAMES, type TPastAction } from '@warmpath/shared';
import { useMemo, useState } from 'react';
import type { FitColumn } from '../../../components/FitTable.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { type ActionFilterSelection, canSendThankYou, toActionFilterItems } from '../actionsDisplay.ts';
import { type PastActionsTab, usePastActionFilters, usePastActions } from '../api.ts';
import { ActionFilterBar } from '../components/ActionFilterBar.tsx';
import { ActionPanelDrawer } from '../components/ActionPanelDrawer.tsx';
import { ActionsTable } from '../components/ActionsTable.tsx';
import { PastActionRow } from '../components/PastActionRow.tsx';
import { RestrictedActionsNotice } from '../components/RestrictedActionsNotice.tsx';
import { useActionsAccess } from '../useActionsAccess.ts';

/** Spec section 2's columns; the date ('Sent 3 days ago') whole, the rest cut if they must. */
const COLUMNS: readonly FitColumn[] = [
  { header: 'USER', width: '16%' },
  { header: 'PROSPECT', width: '20%' },
  { header: 'JOB TITLE' },
  { header: 'COMPANY', width: '15%' },
  { header: 'CONNECTOR', width: '18%' },
  { header: 'DATE', width: 150 },
];

const TABLE_LABELS: Record<PastActionsTab, string> = {
  past: 'Past actions',
  pending: 'Pending actions',
  skipped: 'Skipped actions',
};
const EMPTY_TEXTS: Record<PastActionsTab, string> = {
  past: 'No past actions yet. Intro requests and messages you send, and recommendations you complete, show here.',
  pending: 'No pending actions. Recommendations of earlier days that nobody acted on show here.',
  skipped: 'No skipped actions.',
};

/**
 * The past, pending or skipped actions (the team's for admins): filters, the table and paging; the
 * thank-you panel for the user's own intro requests that got a reply.
 */
export function PastActionsPage({ tab }: { tab: PastActionsTab }) {
  const { user, canLoad } = useActionsAccess();
  const [thankYou, setThankYou] = useState<TPastAction | null>(null);
  const [selection, setSelection] = useState<ActionFilterSelection>({});
  const [page, setPage] = useState<number>(PAGINATION.defaultPage);
  const [pageSize, setPageSize] = useState<number>(PAGINATION.defaultPageSize);
  const filterItems = useMemo(() => toActionFilterItems(selection), [selection]);

  const actions = usePastActions(tab, filterItems, page, pageSize, canLoad);
  const filters = usePastActionFilters(canLoad);
  // One clock for the whole page, read when the page's data arrives.
  const now = useMemo(
    () => (actions.dataUpdatedAt > 0 ? new Date(actions.dataUpdatedAt) : new Date()),
    [actions.dataUpdatedAt],
  );

  if (!canLoad) return <RestrictedActionsNotice />;

  const changeSelection = (next: ActionFilterSelection) => {
    setSelection(next);
    setPage(PAGINATION.defaultPage);
  };
  const changePageSize = (next: number) => {
    setPageSize(next);
    setPage(PAGINATION.defaultPage);
  };

  return (
    <Stack gap="lg">
      <ActionFilterBar
        names={PAST_ACTION_FILTER_NAMES}
        filters={filters.data?.filters}
        loadError={filters.isError ? filters.error.message : null}
        onRetry={() => void filters.refetch()}
        selection={selection}
        onChange={changeSelection}
        remoteSearch={false}
      />
      <ActionsTable
        label={TABLE_LABELS[tab]}
        columns={COLUMNS}
        rows={actions.data?.rows.map((action) => (
          <PastActionRow
            key={action.actionId}
            action={action}
            now={now}
            canThank={user !== null && canSendThankYou(action, user.id)}
            onThank={setThankYou}
          />
        ))}
        error={actions.isError ? actions.error.message : null}
        onRetry={() => void actions.refetch()}
        isRefreshing={actions.isPlaceholderData}
        emptyState={
          filterItems.length > 0 ? (
            <Stack align="center" gap="xs" py="xl">
              <Text fw={600}>No actions match these filters.</Text>
              <Button variant="default" size="xs" onClick={() => changeSelection({})}>
                Clear filters
              </Button>
            </Stack>
          ) : (
            <Text ta="center" py="xl" size="sm">
              {EMPTY_TEXTS[tab]}
            </Text>
          )
        }
      />
      {actions.data ? (
        <TablePagination
          label={`${TABLE_LABELS[tab]} pages`}
          pagination={actions.data.pagination}
          onPageChange={setPage}
          onPageSizeChange={changePageSize}
        />
      ) : null}
      <ActionPanelDrawer
        panel={thankYou && { kind: 'thank-you', action: thankYou }}
        onClose={() => setThankYou(null)}
      />
    </Stack>
  );
}
