import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { PAGINATION, type TPagination } from '@warmpath/shared';
import { plural } from '../lib/format.ts';
import { pageWindow } from './pageWindow.ts';

export type TablePaginationProps = {
  pagination: TPagination;
  onPageChange: (page: number) => void;
  /** Choosing a page size goes back to page 1 (spec section 9): the caller resets the page. */
  onPageSizeChange: (pageSize: number) => void;
  /** What the table lists, naming the navigation landmark ('Contacts pages'). */
  label: string;
  pageSizeChoices?: readonly number[];
};

/** Spec section 9's pagination: 'N results', the page size, Previous, a window of page numbers, Next. */
export function TablePagination({
  pagination,
  onPageChange,
  onPageSizeChange,
  label,
  pageSizeChoices = PAGINATION.pageSizeChoices,
}: TablePaginationProps) {
  // The spec: totalPages falls back to 1.
  const totalPages = Math.max(1, pagination.totalPages);
  const page = Math.min(Math.max(1, pagination.page), totalPages);
  const pages = pageWindow(page, totalPages, PAGINATION.pageWindow);

  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="md">
        <Text size="sm" role="status">
          {plural(pagination.totalCount, 'result', 'results')}
        </Text>
        <NativeSelect
          size="xs"
          label="Rows per page"
          styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
          data={pageSizeChoices.map(String)}
          value={String(pagination.pageSize)}
          onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
        />
      </Group>
      <Group component="nav" aria-label={label} gap={4}>
        <Button size="xs" variant="default" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
          Previous
        </Button>
        {pages.map((number) => (
          <Button
            key={number}
            size="xs"
            variant={number === page ? 'filled' : 'default'}
            aria-current={number === page ? 'page' : undefined}
            aria-label={`Page ${number}`}
            onClick={() => onPageChange(number)}
          >
            {number}
          </Button>
        ))}
        <Button size="xs" variant="default" onClick={() => onPageChange(page + 1)} disabled={page >= totalPages}>
          Next
        </Button>
      </Group>
    </Group>
  );
}
