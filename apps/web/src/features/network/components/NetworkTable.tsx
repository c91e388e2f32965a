import { Table } from '@mantine/core';
import { SKELETON, type TNetworkRow } from '@warmpath/shared';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
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

const NETWORK_COLUMNS = [
  'CONTACT',
  'COMPANY',
  'SIZE',
  'JOB TITLE',
  'ENGAGEMENT',
  'ALLIES',
  'PROXIMITY',
  'SIGNALS',
] as const;
// Every row, placeholder or loaded, takes this height: nothing moves when the data arrives.
const ROW_HEIGHT = 64;
const TABLE_MIN_WIDTH = 1180;

/** The network table: a row per prospect, skeleton rows while the first page loads. */
export function NetworkTable({ rows, error, onRetry, isRefreshing, emptyState, onAsk }: NetworkTableProps) {
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
      <Table
        verticalSpacing="xs"
        aria-label="Contacts"
        aria-busy={rows === undefined || isRefreshing}
        style={{ opacity: isRefreshing ? 0.6 : 1 }}
      >
        <Table.Thead>
          <Table.Tr>
            {NETWORK_COLUMNS.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
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
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function FullWidthRow({ children }: { children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={SKELETON.networkColumns}>{children}</Table.Td>
    </Table.Tr>
  );
}
