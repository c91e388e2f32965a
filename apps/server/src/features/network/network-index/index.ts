// The network rows of a large workspace as columns in this process's memory, in the table's order.
// PostgreSQL counts a million filtered rows in 100 ms at best and walks half an index for a deep
// page of a filtered table; here one pass over typed arrays answers the count, any page and every
// facet's counts in milliseconds. Each statement that writes network rows moves the workspace's
// version and logs the rows it wrote (a trigger, migrations 0038 and 0070), and a stale copy is
// patched with those rows (or rebuilt) in the background. Meanwhile a request waits for the patch (a
// second at most) or PostgreSQL answers, as it does for small workspaces; a copy behind only by the
// graph job's batches answers at once (docs/decisions/0035). So the rules of the filters live twice, in SQL
// (../network-filters.ts) and here (filters.ts, facets.ts), and a test holds the two equal.
//
// snapshot.ts reads a copy whole, patch.ts catches one up from the logged changes, cache.ts keeps the
// copies and decides when each is refreshed; filters.ts and facets.ts answer a request from one.

export { COPY_TURN_LOCK, createNetworkIndex, type NetworkIndex, type NetworkIndexRefresh } from './cache.ts';
export { type FacetTallies, facetTallies } from './facets.ts';
export { conditionsOf, tablePage } from './filters.ts';
export type { NetworkSnapshot } from './snapshot.ts';
