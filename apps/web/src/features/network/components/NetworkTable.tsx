import { Table } from '@mantine/core';
import { SKELETON, type TNetworkRow } from '@warmpath/shared';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { type FitColumn, FitTable } from '../../../components/FitTable.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { NetworkRow } from './NetworkRow.tsx';

export type NetworkTableProps = {
  /**
   * The page's rows, undefined until the first page arrives. Given a render behind the answer (the
   * page's `useDeferredValue`): React draws them in a background render it cuts into slices of a few
   * milliseconds, so that no task holds the page for a page of rows.
   */
  rows: readonly TNetworkRow[] | undefined;
  /** Newer rows than these are being drawn. */
  drawing: boolean;
  error: string | null;
  onRetry: () => void;
  /** Another page or filter is loading; the rows shown are the previous ones. */
  isRefreshing: boolean;
  /** What an empty page shows. */
  emptyState: ReactNode;
  onAsk: (request: WarmIntroRequest) => void;
};

/**
 * Spec section 2's columns, each as wide as its content needs by priority: the proximity badge and the
 * first signal chip always whole, names and titles cut with an ellipsis (whole on hover and focus).
 */
const NETWORK_COLUMNS: readonly FitColumn[] = [
  { header: 'CONTACT', width: '16%' },
  { header: 'COMPANY', width: '12%' },
  { header: 'SIZE', width: 88 },
  { header: 'JOB TITLE' },
  { header: 'ENGAGEMENT', width: 100 },
  { header: 'ALLIES', width: 104 },
  { header: 'PROXIMITY', width: 112 },
  { header: 'SIGNALS', width: '21%' },
];
// Every row, placeholder or loaded, takes this height: nothing moves when the data arrives.
const ROW_HEIGHT = 64;

/** The network table: a row per prospect, skeleton rows while the first page loads. */
export function NetworkTable({ rows, drawing, error, onRetry, isRefreshing, emptyState, onAsk }: NetworkTableProps) {
  return (
    <FitTable
      label="Contacts"
      columns={NETWORK_COLUMNS}
      verticalSpacing="xs"
      // Busy until every row of the page is drawn.
      aria-busy={rows === undefined || drawing || isRefreshing}
      style={{ opacity: isRefreshing ? 0.6 : 1 }}
    >
      {error !== null ? (
        <FullWidthRow>
          <ErrorAlert message={error} onRetry={onRetry} />
        </FullWidthRow>
      ) : rows === undefined ? (
        <TableSkeletonRows rows={SKELETON.tableRows} columns={SKELETON.networkColumns} rowHeight={ROW_HEIGHT} />
      ) : rows.length === 0 ? (
        <FullWidthRow>{emptyState}</FullWidthRow>
      ) : (
        rows.map((row) => <NetworkRow key={row.id} row={row} height={ROW_HEIGHT} onAsk={onAsk} />)
      )}
    </FitTable>
  );
}

function FullWidthRow({ children }: { children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={SKELETON.networkColumns}>{children}</Table.Td>
    </Table.Tr>
  );
}
