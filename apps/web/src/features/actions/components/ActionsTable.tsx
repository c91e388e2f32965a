import { Table } from '@mantine/core';
import { SKELETON } from '@warmpath/shared';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { type FitColumn, FitTable } from '../../../components/FitTable.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';

export type ActionsTableProps = {
  /** The table's accessible name. */
  label: string;
  /** The spec's columns with their widths; a sticky last one (the rows' buttons) stays in view on the right. */
  columns: readonly FitColumn[];
  /** The page's rows, undefined until the first page arrives. */
  rows: readonly ReactNode[] | undefined;
  error: string | null;
  onRetry: () => void;
  /** Another page or filter is loading; the rows shown are the previous ones. */
  isRefreshing: boolean;
  emptyState: ReactNode;
  /** A loaded row's height, which the placeholders take too. */
  rowHeight?: number;
};

// Placeholder and loaded rows take the same height: nothing moves when the data arrives.
export const ACTION_ROW_HEIGHT = 64;

/** An actions list: its header, then skeleton rows (spec: 10 rows), the rows, an empty state or the error. */
export function ActionsTable({
  label,
  columns,
  rows,
  error,
  onRetry,
  isRefreshing,
  emptyState,
  rowHeight = ACTION_ROW_HEIGHT,
}: ActionsTableProps) {
  const fullWidth = (content: ReactNode) => (
    <Table.Tr>
      <Table.Td colSpan={columns.length}>{content}</Table.Td>
    </Table.Tr>
  );
  return (
    <FitTable
      label={label}
      columns={columns}
      verticalSpacing="xs"
      aria-busy={rows === undefined || isRefreshing}
      style={{ opacity: isRefreshing ? 0.6 : 1 }}
    >
      {error !== null ? (
        fullWidth(<ErrorAlert message={error} onRetry={onRetry} />)
      ) : rows === undefined ? (
        <TableSkeletonRows rows={SKELETON.actions.rows} columns={columns.length} rowHeight={rowHeight} />
      ) : rows.length === 0 ? (
        fullWidth(emptyState)
      ) : (
        rows
      )}
    </FitTable>
  );
}
