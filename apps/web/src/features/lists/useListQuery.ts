import { useDebouncedValue } from '@mantine/hooks';
import { DEBOUNCE_MS } from '@warmpath/shared';
import { useState } from 'react';
import { FIRST_PAGE, type ListQuery } from './api.ts';

/**
 * A table's search box and paging: the search reaches the query 1000 ms after the last keystroke;
 * a new search or page size goes back to page 1 (spec section 9).
 */
export function useListQuery() {
  const [search, setSearchText] = useState('');
  const [searchTerm] = useDebouncedValue(search.trim(), DEBOUNCE_MS.search);
  const [paging, setPaging] = useState(FIRST_PAGE);
  const query: ListQuery = { ...paging, searchTerm };

  return {
    search,
    setSearch: (text: string) => {
      setSearchText(text);
      setPaging((current) => ({ ...current, page: FIRST_PAGE.page }));
    },
    query,
    setPage: (page: number) => setPaging((current) => ({ ...current, page })),
    setPageSize: (pageSize: number) => setPaging({ page: FIRST_PAGE.page, pageSize }),
  };
}
