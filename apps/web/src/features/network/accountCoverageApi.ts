import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AccountCoverageSort, networkApi, type TAccountCoveragePage } from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { networkKeys } from './api.ts';

// The account coverage view's call, apart from api.ts: only the lazily loaded view imports it, so the
// network page's first script does not carry it. Its keys sit under the network's, so a finished
// update of the network refreshes it too.

export type AccountCoverageRequest = { sort: AccountCoverageSort; noPath: boolean; page: number; pageSize: number };

export const accountCoverageKeys = {
  all: () => [...networkKeys.all, 'account-coverage'] as const,
  page: (request: AccountCoverageRequest) => [...accountCoverageKeys.all(), request] as const,
};

export function fetchAccountCoverage(
  request: AccountCoverageRequest,
  signal?: AbortSignal,
): Promise<TAccountCoveragePage> {
  return callApi(networkApi.getAccountCoverage, {
    query: {
      sort: request.sort,
      page: request.page,
      pageSize: request.pageSize,
      ...(request.noPath ? { noPath: 'true' as const } : {}),
    },
    signal,
  });
}

/** One page of the coverage view; a new sort or page keeps the rows on screen until it arrives. */
export function useAccountCoverage(request: AccountCoverageRequest) {
  return useQuery({
    queryKey: accountCoverageKeys.page(request),
    queryFn: ({ signal }) => fetchAccountCoverage(request, signal),
    placeholderData: keepPreviousData,
  });
}
