import { Table } from '@mantine/core';
import { SKELETON } from '@warmpath/shared';
import type { CSSProperties, ReactNode } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';

export type ActionsTableProps = {
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  /** Columns that must not shrink below a width (px), by header. */
  columnMinWidths?: Readonly<Partial<Record<string, number>>>;
  /** The last column (the rows' buttons) stays in view on the right; its cells take STICKY_RIGHT. */
  stickyLastColumn?: boolean;
  /** The page's rows, undefined until the first page arrives. */
  rows: readonly ReactNode[] | undefined;
  error: string | null;
  onRetry: () => void;
  /** Another page or filter is loading; the rows shown are the previous ones. */
  isRefreshing: boolean;
  emptyState: ReactNode;
};

// Placeholder and loaded rows take the same height: nothing moves when the data arrives.
export const ACTION_ROW_HEIGHT = 64;

/**
 * For the ACTION column: it stays in view on the right while a narrow screen scrolls the table
 * sideways; the rows' cells use it too.
 */
export const STICKY_RIGHT: CSSProperties = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--mantine-color-gray-3)',
};

/** An actions list: its header, then skeleton rows (spec: 10 rows), the rows, an empty state or the error. */
export function ActionsTable({
  label,
  columns,
  minWidth,
  columnMinWidths = {},
  stickyLastColumn = false,
  rows,
  error,
  onRetry,
  isRefreshing,
  emptyState,
}: ActionsTableProps) {
  const fullWidth = (content: ReactNode) => (
    <Table.Tr>
      <Table.Td colSpan={columns.length}>{content}</Table.Td>
    </Table.Tr>
  );
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        verticalSpacing="xs"
        aria-label={label}
        aria-busy={rows === undefined || isRefreshing}
        style={{ opacity: isRefreshing ? 0.6 : 1 }}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th
                key={column}
                style={{
                  minWidth: columnMinWidths[column],
                  ...(stickyLastColumn && index === columns.length - 1 ? STICKY_RIGHT : {}),
                }}
              >
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {error !== null ? (
            fullWidth(<ErrorAlert message={error} onRetry={onRetry} />)
          ) : rows === undefined ? (
            <TableSkeletonRows rows={SKELETON.actions.rows} columns={columns.length} rowHeight={ACTION_ROW_HEIGHT} />
          ) : rows.length === 0 ? (
            fullWidth(emptyState)
          ) : (
            rows
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
