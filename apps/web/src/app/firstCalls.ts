import { networkApi, PAGINATION, usersApi } from '@warmpath/shared';
import { startEarly } from '../lib/api.ts';
import { isExpired, readOnlyStoredUser } from '../lib/auth.ts';

/** A token this close to its end is renewed by the sign-in first: no early call is made with it. */
const TOKEN_MARGIN_SECONDS = 60;

/**
 * The calls a first page makes, started from the app's first script with the stored sign-in (issue 26).
 * On /network opened as it is (no filter in its address): the user, the report cards, the table's first
 * page and the filters. The page's own calls then take these answers (lib/api.ts, startEarly) instead of
 * waiting, one after the other, for the app's script, the sign-in's set-up, the user and React's draw.
 * Each must be the very call the page makes: NetworkPage.test.tsx checks that none is made twice.
 */
export function startFirstCalls(location: Pick<Location, 'pathname' | 'search'>): void {
  const user = readOnlyStoredUser();
  if (user === null || isExpired(user, TOKEN_MARGIN_SECONDS)) return;
  if (location.pathname !== '/network' || location.search !== '') return;
  const token = user.access_token;
  const unfiltered = { filters: [] };
  const me = startEarly(usersApi.getMe, {}, token);
  startEarly(networkApi.getNetworkReportCards, {}, token);
  startEarly(
    networkApi.queryContacts,
    { query: { page: PAGINATION.defaultPage, pageSize: PAGINATION.defaultPageSize }, body: unfiltered },
    token,
  );
  // The filters, the longest to count, once the user is in: asked with the rest, they held the server
  // while it answered the user, whom the page waits for before it draws anything (222 ms at 1M, not 10).
  void me.then(() =>
    startEarly(
      networkApi.queryNetworkFilters,
      { query: { companyNamePage: 1, personNamePage: 1 }, body: unfiltered },
      token,
    ),
  );
}
