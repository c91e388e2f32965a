import { Skeleton, Table } from '@mantine/core';

export type TableSkeletonRowsProps = {
  rows: number;
  columns: number;
  /** The loaded rows' height, so the table does not jump when they arrive. */
  rowHeight?: number;
};

const numbersBelow = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

/** Placeholder rows while a table loads, so its headers stay in place. */
export function TableSkeletonRows({ rows, columns, rowHeight }: TableSkeletonRowsProps) {
  return numbersBelow(rows).map((row) => (
    <Table.Tr key={row} h={rowHeight}>
      {numbersBelow(columns).map((column) => (
        <Table.Td key={column}>
          <Skeleton height={16} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}
