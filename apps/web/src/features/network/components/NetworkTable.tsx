import { Table } from '@mantine/core';
import { SKELETON, type TNetworkRow } from '@warmpath/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { type FitColumn, FitTable } from '../../../components/FitTable.tsx';
import { TableSkeletonRows } from '../../../components/TableSkeletonRows.tsx';
import type { WarmIntroRequest } from '../../intros/api.ts';
import { NetworkRow } from './NetworkRow.tsx';

export type NetworkTableProps = {
  /** The page's rows, undefined until the first page arrives. */
  rows: readonly TNetworkRow[] | undefined;
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

/** The first page's rows drawn at once: as many as the skeleton's, which they replace without a jump. */
const FIRST_BATCH = SKELETON.tableRows;
/** Then this many more at a time, each batch drawn in a task of its own. */
const NEXT_BATCH = 5;

/**
 * The rows to draw: the first page comes in batches, so that no task holds the page for the whole
 * page of rows (a few hundred milliseconds on a mid-range phone, issue 26: the main cause of the
 * blocking time), the top rows first. Later pages (as many rows or fewer) are drawn at once, as the
 * limit only grows. `complete` is false while rows are still to come.
 */
function useRowsInBatches(rows: readonly TNetworkRow[] | undefined) {
  const [limit, setLimit] = useState<number>(FIRST_BATCH);
  const complete = rows === undefined || rows.length <= limit;
  useEffect(() => {
    if (complete) return;
    // A timer rather than the next render: the browser paints and answers input in between.
    const timer = setTimeout(() => setLimit(limit + NEXT_BATCH), 0);
    return () => clearTimeout(timer);
  }, [complete, limit]);
  return { shown: rows === undefined || complete ? rows : rows.slice(0, limit), complete };
}

/** The network table: a row per prospect, skeleton rows while the first page loads. */
export function NetworkTable({ rows: allRows, error, onRetry, isRefreshing, emptyState, onAsk }: NetworkTableProps) {
  const { shown: rows, complete } = useRowsInBatches(allRows);
  return (
    <FitTable
      label="Contacts"
      columns={NETWORK_COLUMNS}
      verticalSpacing="xs"
      // Busy until every row of the page is drawn.
      aria-busy={rows === undefined || !complete || isRefreshing}
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
