import { Table, type TableProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import classes from './FitTable.module.css';

/**
 * A column of a table that fits the window: a fixed width (px) for content of a known size (a badge,
 * a size bucket, buttons), a share of the table ('15%') for text that can be cut with an ellipsis, and
 * no width for the one column that takes what is left. Widths include the cell's padding.
 */
export type FitColumn = {
  header: string;
  width?: number | `${number}%`;
  /** Stays in view on the right while a narrow window scrolls the table sideways. */
  sticky?: boolean;
};

/**
 * The width the tables are laid out for: what a 1280 px window leaves beside the sidebar and the
 * page's padding (AppLayout), less a 17 px page scrollbar. Narrower, they scroll sideways, with the
 * browser's scrollbar.
 */
export const FIT_TABLE_WIDTH = 1000;

/** The scroll container's classes: its scrollbar always shown (FitTable.module.css). */
export const FIT_TABLE_SCROLL = { scrollContainer: classes.scroll };

/** For the sticky last column (the rows' buttons): it stays in view on the right. */
export const STICKY_RIGHT: CSSProperties = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--mantine-color-gray-3)',
};

export type FitTableProps = Omit<TableProps, 'children' | 'layout' | 'aria-label'> & {
  /** The table's accessible name. */
  label: string;
  columns: readonly FitColumn[];
  /** Above this height the body scrolls (spec section 9's layout limits). */
  maxHeight?: CSSProperties['maxHeight'];
  /** The body's rows. */
  children: ReactNode;
};

/**
 * A table laid out to fit (spec section 9): fixed layout, each column its width by the priority of
 * its content, long text cut in its cell (`TruncatedText`) rather than pushing the table wider.
 */
export function FitTable({ label, columns, maxHeight, children, ...tableProps }: FitTableProps) {
  return (
    // The browser's own scrolling: Mantine's ScrollArea measured itself as each batch of rows came in,
    // forcing layouts in the page's first long tasks (a CPU profile of /network at 1M, issue 26).
    <Table.ScrollContainer type="native" minWidth={FIT_TABLE_WIDTH} maxHeight={maxHeight} classNames={FIT_TABLE_SCROLL}>
      <Table layout="fixed" horizontalSpacing={8} aria-label={label} {...tableProps}>
        <colgroup>
          {columns.map((column) => (
            <col key={column.header} style={{ width: column.width }} />
          ))}
        </colgroup>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th
                key={column.header}
                fz="xs"
                style={{ whiteSpace: 'nowrap', ...(column.sticky ? STICKY_RIGHT : {}) }}
              >
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody className={classes.body}>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
