import { Button, Group, Stack, Text } from '@mantine/core';
import { PAGINATION, RECOMMENDED_ACTION_FILTER_NAMES, type TRecommendedAction } from '@warmpath/shared';
import { useMemo, useState } from 'react';
import type { FitColumn } from '../../../components/FitTable.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { SignalLegend } from '../../network/components/SignalChips.tsx';
import { useGoogleSyncStatus } from '../../sources/api.ts';
import { type ActionFilterSelection, isActionFor, toActionFilterItems } from '../actionsDisplay.ts';
import {
  useCompleteAction,
  usePreparingRecommendations,
  useRecommendedActionFilters,
  useRecommendedActions,
  useSkipAction,
} from '../api.ts';
import { ActionFilterBar } from '../components/ActionFilterBar.tsx';
import { ActionPanelDrawer } from '../components/ActionPanelDrawer.tsx';
import { ACTION_ROW_HEIGHT, ActionsTable } from '../components/ActionsTable.tsx';
import { RecommendationsEmptyState } from '../components/RecommendationsEmptyState.tsx';
import { RecommendedActionRow, WHY_ROW_HEIGHT } from '../components/RecommendedActionRow.tsx';
import { RestrictedActionsNotice } from '../components/RestrictedActionsNotice.tsx';
import { useActionsAccess } from '../useActionsAccess.ts';

/**
 * Spec section 2's columns: the two signal chips and the buttons whole, people and companies cut with
 * an ellipsis if they must; below 1280 px the table scrolls, the ACTION column staying in view.
 */
const COLUMNS: readonly FitColumn[] = [
  { header: 'SIGNALS', width: 216 },
  { header: 'WARM LEAD', width: '17%' },
  { header: 'JOB TITLE' },
  { header: 'COMPANY', width: '13%' },
  { header: 'SIZE', width: 86 },
  { header: 'ALLY', width: '15%' },
  { header: 'ACTION', width: 142, sticky: true },
];

/** Today's recommended actions: admins' filters under 'Show', the table, paging, and the action panels. */
export function RecommendedActionsPage() {
  const { user, canLoad, isAdmin } = useActionsAccess();
  const [selection, setSelection] = useState<ActionFilterSelection>({});
  const [page, setPage] = useState<number>(PAGINATION.defaultPage);
  const [pageSize, setPageSize] = useState<number>(PAGINATION.defaultPageSize);
  const [panel, setPanel] = useState<TRecommendedAction | null>(null);
  const filterItems = useMemo(() => toActionFilterItems(selection), [selection]);

  const actions = useRecommendedActions(filterItems, page, pageSize, canLoad);
  const filters = useRecommendedActionFilters(canLoad && isAdmin);
  const preparing = usePreparingRecommendations(canLoad);
  const sync = useGoogleSyncStatus(preparing && (user?.isGoogleConnected ?? false));
  const skip = useSkipAction();
  const complete = useCompleteAction();

  if (!canLoad) return <RestrictedActionsNotice />;

  // Spec section 4: a changed filter goes back to page 1.
  const changeSelection = (next: ActionFilterSelection) => {
    setSelection(next);
    setPage(PAGINATION.defaultPage);
  };
  const changePageSize = (next: number) => {
    setPageSize(next);
    setPage(PAGINATION.defaultPage);
  };
  const busyId = skip.isPending ? skip.variables : complete.isPending ? complete.variables : null;
  // Spec section 4: the same toggle opens and closes an action's panel.
  const togglePanel = (action: TRecommendedAction) =>
    setPanel((open) => (open?.actionId === action.actionId ? null : action));

  return (
    <Stack gap="lg">
      {isAdmin ? (
        <ActionFilterBar
          names={RECOMMENDED_ACTION_FILTER_NAMES}
          filters={filters.data?.filters}
          loadError={filters.isError ? filters.error.message : null}
          onRetry={() => void filters.refetch()}
          selection={selection}
          onChange={changeSelection}
          remoteSearch
        />
      ) : null}
      <Group justify="flex-end">
        <SignalLegend />
      </Group>
      <ActionsTable
        label="Recommended actions"
        columns={COLUMNS}
        rowHeight={ACTION_ROW_HEIGHT + WHY_ROW_HEIGHT}
        rows={actions.data?.rows.map((action) => (
          <RecommendedActionRow
            key={action.actionId}
            action={action}
            userId={user?.id ?? ''}
            isMine={user !== null && isActionFor(action, user.id)}
            isBusy={busyId === action.actionId}
            onEngage={togglePanel}
            onSkip={(actionId) => skip.mutate(actionId)}
            onComplete={(actionId) => complete.mutate(actionId)}
          />
        ))}
        error={actions.isError ? actions.error.message : null}
        onRetry={() => void actions.refetch()}
        isRefreshing={actions.isPlaceholderData}
        emptyState={
          filterItems.length > 0 ? (
            <Stack align="center" gap="xs" py="xl">
              <Text fw={600}>No recommended actions match these filters.</Text>
              <Button variant="default" size="xs" onClick={() => changeSelection({})}>
                Clear filters
              </Button>
            </Stack>
          ) : (
            <RecommendationsEmptyState preparing={preparing} sync={sync.data ?? null} isAdmin={isAdmin} />
          )
        }
      />
      {actions.data ? (
        <TablePagination
          label="Recommended actions pages"
          pagination={actions.data.pagination}
          onPageChange={setPage}
          onPageSizeChange={changePageSize}
        />
      ) : null}
      <ActionPanelDrawer panel={panel && { kind: 'recommended', action: panel }} onClose={() => setPanel(null)} />
    </Stack>
  );
}
