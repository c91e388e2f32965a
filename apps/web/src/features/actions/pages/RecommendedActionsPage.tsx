import { Button, Stack, Text } from '@mantine/core';
import { PAGINATION, RECOMMENDED_ACTION_FILTER_NAMES, type TRecommendedAction } from '@warmpath/shared';
import { useMemo, useState } from 'react';
import { TablePagination } from '../../../components/TablePagination.tsx';
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
import { ActionsTable } from '../components/ActionsTable.tsx';
import { RecommendationsEmptyState } from '../components/RecommendationsEmptyState.tsx';
import { RecommendedActionRow } from '../components/RecommendedActionRow.tsx';
import { RestrictedActionsNotice } from '../components/RestrictedActionsNotice.tsx';
import { useActionsAccess } from '../useActionsAccess.ts';

const COLUMNS = ['SIGNALS', 'WARM LEAD', 'JOB TITLE', 'COMPANY', 'SIZE', 'ALLY', 'ACTION'] as const;
// Two signal chips read whole; narrower screens scroll the table, the ACTION column staying in view.
const COLUMN_MIN_WIDTHS = { SIGNALS: 220 };
const TABLE_MIN_WIDTH = 1100;

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
      <ActionsTable
        label="Recommended actions"
        columns={COLUMNS}
        minWidth={TABLE_MIN_WIDTH}
        columnMinWidths={COLUMN_MIN_WIDTHS}
        stickyLastColumn
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
