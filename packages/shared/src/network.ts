// The network's fields and values (spec sections 2 to 4), apart from its schemas (schemas/network.ts):
// the network page needs these first, and a module of schemas builds them all with zod when loaded.

/** Spec section 4: an empty filter list means all, this value means none. */
export const EMPTY_STATE = 'EMPTY_STATE';

export const PROXIMITY_BAND_NAMES = ['Low', 'Medium', 'High'] as const;
export type ProximityBandName = (typeof PROXIMITY_BAND_NAMES)[number];

/** The filter fields of the network table, in the order of the filter bar (spec section 2). */
export const NETWORK_FILTER_FIELDS = [
  'companyName',
  'companySize',
  'industry',
  'jobDepartment',
  'personName',
  'proximity',
  'connector',
  'engagement',
  'signal',
] as const;
export type NetworkFilterField = (typeof NETWORK_FILTER_FIELDS)[number];
export const NETWORK_FILTER_LABELS: Record<NetworkFilterField, string> = {
  companyName: 'Companies',
  companySize: 'Sizes',
  industry: 'Industries',
  jobDepartment: 'Departments',
  personName: 'Names',
  proximity: 'Proximities',
  connector: 'Allies',
  engagement: 'Engagements',
  signal: 'Signals',
};
/** Filters that are not option lists: each takes the single value 'true'. */
export const NETWORK_TOGGLE_FILTERS = ['idealCustomerProfile', 'personas', 'myAccounts', 'externalOnly'] as const;
export type NetworkToggleFilter = (typeof NETWORK_TOGGLE_FILTERS)[number];
/** Prospects at accounts assigned to the listed users (user ids). */
export const ASSIGNED_TO_FILTER = 'assignedTo';

/** Options per page of the companies and names filters. */
export const FILTER_OPTION_PAGE_SIZE = 50;

/** A report card's trend: one amount a day, oldest first, the last being today's (the card's amount). */
export const REPORT_CARD_TREND_POINTS = 31;

/** Warm intros: ask a colleague (connector) or a client ally (client). */
export const WARM_INTRO_SOURCES = ['connector', 'client'] as const;
export type WarmIntroSource = (typeof WARM_INTRO_SOURCES)[number];

/** Issue 26: how the account coverage view orders its accounts (counts most first, names A to Z). */
export const ACCOUNT_COVERAGE_SORTS = ['prospects', 'warm', 'name'] as const;
export type AccountCoverageSort = (typeof ACCOUNT_COVERAGE_SORTS)[number];
/** The proximity bands a coverage view calls warm: the network filter's values for them. */
export const WARM_PROXIMITY_BANDS: readonly ProximityBandName[] = ['High', 'Medium'];
