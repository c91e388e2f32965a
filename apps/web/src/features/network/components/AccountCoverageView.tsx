import { Anchor, Box, Button, Checkbox, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import {
  ACCOUNT_COVERAGE_SORTS,
  type AccountCoverageSort,
  PAGINATION,
  type TAccountCoverageRow,
} from '@warmpath/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FIT_TABLE_SCROLL, FIT_TABLE_WIDTH } from '../../../components/FitTable.tsx';
import { TablePagination } from '../../../components/TablePagination.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import { formatCount } from '../../../lib/format.ts';
import { PATHS } from '../../../lib/paths.ts';
import { useAccountCoverage } from '../accountCoverageApi.ts';
import { companyLink } from '../networkView.ts';

/** The URL's search params of the view's choices (the page's `view` param says which view is shown). */
const SORT_PARAM = 'sort';
const NO_PATH_PARAM = 'noPath';

const isSort = (value: string | null): value is AccountCoverageSort =>
  ACCOUNT_COVERAGE_SORTS.some((sort) => sort === value);

type Column = { header: string; width?: string; sort?: AccountCoverageSort };
const COLUMNS: readonly Column[] = [
  { header: 'Account', sort: 'name' },
  { header: 'Prospects', width: '14%', sort: 'prospects' },
  { header: 'Warm paths', width: '24%', sort: 'warm' },
  { header: 'Best connector', width: '30%' },
];

/** Names sort A to Z, counts most first: how each header's order reads to a screen reader. */
const directionOf = (sort: AccountCoverageSort) => (sort === 'name' ? 'ascending' : 'descending');

export type AccountCoverageViewProps = {
  /** Admins import accounts; others are told who does. */
  isAdmin: boolean;
};

/**
 * Issue 26's account coverage: per target account, its prospects, those reachable warm (a bar of
 * the share), the best connector, sortable and narrowed to the accounts no path reaches. Each account
 * opens the people view on its company.
 */
export function AccountCoverageView({ isAdmin }: AccountCoverageViewProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedSort = searchParams.get(SORT_PARAM);
  const sort: AccountCoverageSort = isSort(requestedSort) ? requestedSort : 'prospects';
  const noPath = searchParams.get(NO_PATH_PARAM) === 'true';
  const [page, setPage] = useState<number>(PAGINATION.defaultPage);
  const [pageSize, setPageSize] = useState<number>(PAGINATION.defaultPageSize);
  const coverage = useAccountCoverage({ sort, noPath, page, pageSize });

  const changeParam = (name: string, value: string | null) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
    setPage(PAGINATION.defaultPage);
  };

  const rows = coverage.data?.rows;
  const body = coverage.isError ? null : rows === undefined ? (
    <TableSkeletonRows rows={8} columns={COLUMNS.length} rowHeight={48} />
  ) : (
    rows.map((row) => <CoverageRow key={row.companyId} row={row} />)
  );

  return (
    <Stack gap="md">
      <Checkbox
        label="Only accounts with no path"
        checked={noPath}
        onChange={(event) => changeParam(NO_PATH_PARAM, event.currentTarget.checked ? 'true' : null)}
      />
      {coverage.isError ? (
        <ErrorAlert message={coverage.error.message} onRetry={() => void coverage.refetch()} />
      ) : null}
      <Table.ScrollContainer type="native" minWidth={FIT_TABLE_WIDTH} classNames={FIT_TABLE_SCROLL}>
        <Table
          layout="fixed"
          horizontalSpacing={8}
          aria-label="Account coverage"
          aria-busy={coverage.isPlaceholderData || undefined}
          style={{ opacity: coverage.isPlaceholderData ? 0.6 : 1 }}
        >
          <colgroup>
            {COLUMNS.map((column) => (
              <col key={column.header} style={{ width: column.width }} />
            ))}
          </colgroup>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th
                  key={column.header}
                  fz="xs"
                  style={{ whiteSpace: 'nowrap' }}
                  aria-sort={column.sort === undefined ? undefined : column.sort === sort ? directionOf(sort) : 'none'}
                >
                  {column.sort === undefined ? (
                    column.header
                  ) : (
                    <SortButton
                      header={column.header}
                      active={column.sort === sort}
                      onSort={() => column.sort && changeParam(SORT_PARAM, column.sort)}
                    />
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows !== undefined && rows.length === 0 && !coverage.isError ? (
        <CoverageEmptyState filtered={noPath} isAdmin={isAdmin} onShowAll={() => changeParam(NO_PATH_PARAM, null)} />
      ) : null}
      {coverage.data && coverage.data.rows.length > 0 ? (
        <TablePagination
          label="Accounts pages"
          pagination={coverage.data.pagination}
          onPageChange={setPage}
          onPageSizeChange={(next) => {
            setPageSize(next);
            setPage(PAGINATION.defaultPage);
          }}
        />
      ) : null}
    </Stack>
  );
}

function SortButton({ header, active, onSort }: { header: string; active: boolean; onSort: () => void }) {
  return (
    <UnstyledButton onClick={onSort} fz="xs" fw={active ? 700 : 600} style={{ textTransform: 'inherit' }}>
      {header}
      {/* The arrow is decoration: the header's aria-sort says the order. */}
      <span aria-hidden="true">{active ? ' ↓' : ''}</span>
    </UnstyledButton>
  );
}

function CoverageRow({ row }: { row: TAccountCoverageRow }) {
  return (
    <Table.Tr h={48}>
      <Table.Td>
        <Anchor component={Link} to={companyLink(row.companyId)} size="sm" fw={600} truncate="end" display="block">
          {row.companyName}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatCount(row.prospects)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" w={48}>
            {formatCount(row.warm)}
          </Text>
          <WarmMeter warm={row.warm} prospects={row.prospects} />
        </Group>
      </Table.Td>
      <Table.Td>
        {row.bestConnector ? (
          <Stack gap={0}>
            <Text size="sm" truncate="end">
              {row.bestConnector.name}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {row.bestConnector.kind === 'colleague' ? 'Colleague' : 'Ally'} · proximity {row.bestConnector.proximity}{' '}
              · to {row.bestConnector.prospectName}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No path
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The share of the account's prospects reachable warm, as a bar. */
function WarmMeter({ warm, prospects }: { warm: number; prospects: number }) {
  const share = prospects === 0 ? 0 : Math.round((warm / prospects) * 100);
  return (
    <Box
      role="meter"
      aria-label={`${formatCount(warm)} of ${formatCount(prospects)} prospects reachable warm`}
      aria-valuemin={0}
      aria-valuemax={prospects}
      aria-valuenow={warm}
      flex={1}
      h={8}
      bg="gray.2"
      style={{ borderRadius: 4, overflow: 'hidden', minWidth: 48 }}
    >
      <Box h="100%" w={`${share}%`} bg="orange.6" />
    </Box>
  );
}

function CoverageEmptyState({
  filtered,
  isAdmin,
  onShowAll,
}: {
  filtered: boolean;
  isAdmin: boolean;
  onShowAll: () => void;
}) {
  if (filtered) {
    return (
      <Stack align="center" gap="xs" py="xl">
        <Text fw={600}>Every account has a path.</Text>
        <Button variant="default" size="xs" onClick={onShowAll}>
          Show all accounts
        </Button>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="xs" py="xl">
      <Text fw={600}>No target accounts yet: import your accounts.</Text>
      {isAdmin ? (
        <Button size="xs" component={Link} to={PATHS.admin.accounts}>
          Import accounts
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          An admin imports them in Admin, Accounts.
        </Text>
      )}
    </Stack>
  );
}
