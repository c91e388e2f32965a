import { Skeleton, Table } from '@mantine/core';
import { memo } from 'react';

export type TableSkeletonRowsProps = {
  rows: number;
  columns: number;
  /** The loaded rows' height, so the table does not jump when they arrive. */
  rowHeight?: number;
};

const numbersBelow = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

/**
 * Placeholder rows while a table loads, so its headers stay in place. Memoized: a page re-renders as
 * each of its requests answers, and tens of skeletons drawn again each time held the page (issue 26).
 */
export const TableSkeletonRows = memo(function TableSkeletonRows({ rows, columns, rowHeight }: TableSkeletonRowsProps) {
  return numbersBelow(rows).map((row) => (
    <Table.Tr key={row} h={rowHeight}>
      {numbersBelow(columns).map((column) => (
        <Table.Td key={column}>
          <Skeleton height={16} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
});
