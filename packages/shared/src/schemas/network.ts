import { z } from 'zod';
import { PAGINATION } from '../constants.ts';
import { CONNECTION_SOURCES, ENGAGEMENTS } from '../enums.ts';
import {
  ACCOUNT_COVERAGE_SORTS,
  ASSIGNED_TO_FILTER,
  NETWORK_FILTER_FIELDS,
  NETWORK_TOGGLE_FILTERS,
  REPORT_CARD_TREND_POINTS,
  WARM_INTRO_SOURCES,
} from '../network.ts';
import { SIGNAL_TYPES } from '../signals.ts';

// The network API of spec sections 3 and 7 (Contacts calls): the table, its filters, report cards,
// the CSV export and the warm-intro panels.

export const ZFilterItem = z.object({
  name: z.enum([...NETWORK_FILTER_FIELDS, ...NETWORK_TOGGLE_FILTERS, ASSIGNED_TO_FILTER]),
  values: z.array(z.string().max(300)).max(5000),
});
export type TFilterItem = z.infer<typeof ZFilterItem>;
export const ZFiltersBody = z.object({ filters: z.array(ZFilterItem).max(20).default([]) });
export type TFiltersBody = z.input<typeof ZFiltersBody>;

export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(PAGINATION.defaultPage),
  pageSize: z.coerce.number().int().min(1).max(100).default(PAGINATION.defaultPageSize),
});
export const ZPagination = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
  totalCount: z.number().int(),
});
export type TPagination = z.infer<typeof ZPagination>;

const ZConnectionSources = z.array(z.enum(CONNECTION_SOURCES));

export const ZConnector = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatar: z.string().nullable(),
  jobTitle: z.string().nullable(),
  connectionSources: ZConnectionSources,
  /** The edge's proximity to the prospect, 0-100. */
  proximity: z.number().int(),
  /** The caller themself: shown, never asked. */
  isCurrentUser: z.boolean(),
});
export type TConnector = z.infer<typeof ZConnector>;

export const ZContactOwner = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatar: z.string().nullable(),
});

export const ZClientConnected = z.object({
  id: z.uuid(),
  name: z.string(),
  linkedinProfileImageUrl: z.string().nullable(),
  companyName: z.string().nullable(),
  companyLogo: z.string().nullable(),
  jobTitle: z.string().nullable(),
  tag: z.string().nullable(),
  contactOwner: ZContactOwner.nullable(),
  connectionSources: ZConnectionSources,
  proximity: z.number().int(),
});
export type TClientConnected = z.infer<typeof ZClientConnected>;

export const ZSignal = z.object({
  id: z.string(),
  type: z.enum(SIGNAL_TYPES),
  proximityScore: z.number().int(),
  metadata: z.object({
    customTag: z.string().optional(),
    pastCompanyName: z.string().optional(),
    newCompanyName: z.string().optional(),
    connectorName: z.string().optional(),
    pageViews: z.number().int().optional(),
    /** Ours: the last identified visit of the website, ISO 8601. */
    lastVisitAt: z.string().optional(),
  }),
});
export type TSignal = z.infer<typeof ZSignal>;

/** Spec section 3, Network row (prospect). */
export const ZNetworkRow = z.object({
  id: z.uuid(),
  name: z.string(),
  avatar: z.string().nullable(),
  linkedinUrl: z.string().nullable(),
  email: z.string().nullable(),
  companyName: z.string().nullable(),
  companyLogo: z.string().nullable(),
  companySize: z.string().nullable(),
  jobTitle: z.string().nullable(),
  engagement: z.enum(ENGAGEMENTS),
  connectors: z.array(ZConnector),
  clientsConnected: z.array(ZClientConnected),
  proximity: z.number().int(),
  signals: z.array(ZSignal),
  /** When the user last asked for an intro to this prospect (null when never). */
  introRequestedAt: z.string().nullable(),
});
export type TNetworkRow = z.infer<typeof ZNetworkRow>;

export const ZContactsPage = z.object({ rows: z.array(ZNetworkRow), pagination: ZPagination });
export type TContactsPage = z.infer<typeof ZContactsPage>;

export const ZFilterOption = z.object({
  key: z.string(),
  name: z.string(),
  count: z.number().int(),
  companyLogo: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  companyName: z.string().nullable().optional(),
  tag: z.string().nullable().optional(),
});
export type TFilterOption = z.infer<typeof ZFilterOption>;

/** Spec section 3, Network filter. Companies and names come in pages (`hasMore`). */
export const ZNetworkFilter = z.object({
  filterField: z.enum(NETWORK_FILTER_FIELDS),
  prettyName: z.string(),
  options: z.array(ZFilterOption),
  hasMore: z.boolean(),
});
export type TNetworkFilter = z.infer<typeof ZNetworkFilter>;
export const ZNetworkFilters = z.object({ filters: z.array(ZNetworkFilter) });
export type TNetworkFilters = z.infer<typeof ZNetworkFilters>;

export const ZFilterPagesQuery = z.object({
  companyNamePage: z.coerce.number().int().min(1).default(1),
  personNamePage: z.coerce.number().int().min(1).default(1),
});
export const ZFilterSearchQuery = z.object({
  filterField: z.enum(NETWORK_FILTER_FIELDS),
  searchTerm: z.string().trim().max(100).default(''),
});
export const ZFilterSearchResult = z.object({ options: z.array(ZFilterOption) });
export type TFilterSearchResult = z.infer<typeof ZFilterSearchResult>;
const ZReportCard = z.object({
  amount: z.number().int(),
  /**
   * The growth over the last 30 days, first to last point of `trend`, in percent. 0 when the first
   * point is 0 (a workspace younger than 30 days, or nothing 30 days ago): there is no base to grow
   * from, and '+100%' would only say that everything is new (the web says 'New this month').
   */
  percentage: z.number(),
  /** Ours: the amount on each of the last 30 days and today, oldest first. */
  trend: z.array(z.number().int()).length(REPORT_CARD_TREND_POINTS),
});
export const ZReportCards = z.object({
  networkRelationships: ZReportCard,
  networkConnections: ZReportCard,
  networkCompanies: ZReportCard,
  /** Ours: new evidence (a sync, an upload) is still being rolled into the network; the page refreshes until it is. */
  updating: z.boolean(),
});
export type TReportCards = z.infer<typeof ZReportCards>;

/**
 * Why an edge has its proximity. Channels combine as 1 - prod(1 - part) (DESIGN.md section 7): each
 * closes its own fraction of what the stronger ones left. They are listed strongest first.
 */
export const ZProximityChannel = z.object({
  source: z.enum(CONNECTION_SOURCES),
  /** Points this channel would give on its own (0-100). */
  alone: z.number().int(),
  /** Points it adds to the channels listed before it: a path's channels add up to its `link`. */
  added: z.number().int(),
  detail: z.string(),
});
export type TProximityChannel = z.infer<typeof ZProximityChannel>;
export const ZProximityExplanation = z.object({
  prospectId: z.uuid(),
  /** The prospect's proximity: its closest path's. */
  proximity: z.number().int(),
  /** Closest first. */
  paths: z.array(
    z.object({
      connectorId: z.uuid(),
      connectorName: z.string(),
      kind: z.enum(['colleague', 'ally']),
      /** Ours: the viewer's own path (they know the prospect themself). */
      isCurrentUser: z.boolean(),
      /** Via the ally's contact owner, when there is one. */
      viaName: z.string().nullable(),
      /** The connector's own link to the prospect, 0-100: the sum of its channels' `added`. */
      link: z.number().int(),
      /**
       * For an ally: how far the team trusts them (0-1), their closest link to a colleague, never below
       * the workspace's floor. Null for a colleague.
       */
      trust: z.number().nullable(),
      /** The path's proximity: the link, times the trust for an ally, rounded. */
      proximity: z.number().int(),
      channels: z.array(ZProximityChannel),
    }),
  ),
});
export type TProximityExplanation = z.infer<typeof ZProximityExplanation>;
export const ZProspectIdQuery = z.object({ prospectId: z.uuid() });

export const ZWarmIntroModalQuery = z.object({
  source: z.enum(WARM_INTRO_SOURCES),
  targetId: z.uuid(),
  connectorId: z.uuid(),
});
const ZPersonCard = z.object({
  id: z.uuid(),
  fullName: z.string(),
  firstName: z.string(),
  avatar: z.string().nullable(),
  jobTitle: z.string().nullable(),
  companyName: z.string().nullable(),
});
export const ZWarmIntroModalData = z.object({
  source: z.enum(WARM_INTRO_SOURCES),
  connector: ZPersonCard.extend({ connectionSources: ZConnectionSources, proximity: z.number().int() }),
  target: ZPersonCard,
  /** For a client ally with a contact owner: the request goes to the owner, who knows the ally. */
  contactOwner: ZPersonCard.nullable(),
  signals: z.array(ZSignal),
  templates: z.object({ connectorMessage: z.string(), introTargetMessage: z.string() }),
  /** Connector fairness: requests the person asked received in the last 7 days, and the weekly cap. */
  introRequestsLast7Days: z.number().int(),
  weeklyCap: z.number().int(),
});
export type TWarmIntroModalData = z.infer<typeof ZWarmIntroModalData>;

/** Spec section 3, Warm intro request item. The body of send-warm-intro-email is a list of them. */
export const ZWarmIntroItem = z.object({
  connectorId: z.uuid(),
  prospectContactId: z.uuid(),
  connectorMessage: z.string().trim().min(1).max(10_000),
  introTargetMessage: z.string().trim().max(10_000),
  source: z.enum(WARM_INTRO_SOURCES),
  /** Ours: the sender confirmed asking again what they asked this connector within 30 days. */
  confirmRepeat: z.boolean().optional(),
});
export type TWarmIntroItem = z.infer<typeof ZWarmIntroItem>;
export const ZWarmIntroItems = z.array(ZWarmIntroItem).min(1).max(20);
export const ZWarmIntroSent = z.object({ sent: z.number().int() });

export const ZAccountCoverageQuery = ZPageQuery.extend({
  sort: z.enum(ACCOUNT_COVERAGE_SORTS).default('prospects'),
  /** 'true': only the accounts no connector or ally reaches. */
  noPath: z.enum(['true', 'false']).optional(),
});
export type TAccountCoverageQuery = z.input<typeof ZAccountCoverageQuery>;

export const ZAccountCoverageRow = z.object({
  companyId: z.uuid(),
  companyName: z.string(),
  companyLogo: z.string().nullable(),
  /** The network table's rows at this company, as the caller sees them. */
  prospects: z.number().int(),
  /** Of those, the ones in a warm band (WARM_PROXIMITY_BANDS): the table under that proximity filter. */
  warm: z.number().int(),
  /** Whether any prospect there has a colleague or ally path. */
  hasPath: z.boolean(),
  /** The first connector of the account's closest reachable prospect; null when no path. */
  bestConnector: z
    .object({
      id: z.uuid(),
      name: z.string(),
      /** The path's proximity: the prospect's, whose closest path this is. */
      proximity: z.number().int(),
      kind: z.enum(['colleague', 'ally']),
      prospectName: z.string(),
    })
    .nullable(),
});
export type TAccountCoverageRow = z.infer<typeof ZAccountCoverageRow>;
export const ZAccountCoveragePage = z.object({ rows: z.array(ZAccountCoverageRow), pagination: ZPagination });
export type TAccountCoveragePage = z.infer<typeof ZAccountCoveragePage>;
