import {
  type AccountCoverageSort,
  COMPANY_SIZES,
  type ConnectionSource,
  ENGAGEMENT_LABELS,
  ENGAGEMENTS,
  FILTER_OPTION_PAGE_SIZE,
  JOB_DEPARTMENTS,
  NETWORK_FILTER_LABELS,
  type NetworkFilterField,
  PROXIMITY_BANDS,
  SIGNAL_LABELS,
  SIGNAL_TYPES,
  type TAccountCoveragePage,
  type TContactsPage,
  type TFilterItem,
  type TFilterOption,
  type TNetworkFilter,
  type TProximityExplanation,
  WARM_PROXIMITY_BANDS,
} from '@warmpath/shared';
import type { Database, Tx } from '../../db/client.ts';
import { rowsViewer } from '../../graph/graph.sql.ts';
import { allyPathProximity, type Channel, edgeEvidenceOf, scoreEdge } from '../../graph/proximity.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { AppError } from '../../lib/app-error.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import type { Member } from '../../plugins/auth.ts';
import {
  accountCoverage,
  type ConnectorEdge,
  companiesNamed,
  companyOptions,
  connectorEdges,
  connectorOptions,
  countBy,
  countByEngagement,
  countByProximityBand,
  countBySignal,
  countRows,
  edgesOf,
  type FacetCount,
  networkRows,
  pageIds,
  peopleNamed,
  personOptions,
  prospectProximity,
  reportCards,
} from './network.repo.ts';
import { type CompiledFilters, compileFilters, parseFilters } from './network-filters.ts';
import {
  conditionsOf,
  type FacetTallies,
  facetTallies,
  type NetworkIndex,
  type NetworkSnapshot,
  tablePage,
} from './network-index/index.ts';

export type ContactsDeps = {
  database: Database;
  /** The in-memory copy of large workspaces' network rows; without it, PostgreSQL answers everything. */
  networkIndex?: NetworkIndex;
};

export async function queryContacts(
  deps: ContactsDeps,
  member: Member,
  filters: TFilterItem[],
  page: number,
  pageSize: number,
): Promise<TContactsPage> {
  return readNetwork(deps, member, async (tx, snapshot) => {
    const { totalCount, ids } = snapshot
      ? tablePage(snapshot, await conditionsOf(tx, member, snapshot, parseFilters(filters)), page, pageSize)
      : await pageFromDatabase(tx, member, filters, page, pageSize);
    const { model } = await loadGraphSettings(tx, member.workspaceId);
    return {
      rows: await networkRows(tx, member, ids, model),
      pagination: { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) },
    };
  });
}

/**
 * Reads the network in a transaction of the member's workspace, with the in-memory copy of the team's
 * rows when the workspace has a current one and the member reads the team's rows (a Private member's
 * pages are answered by PostgreSQL, over their own rows and the team's). A patch of the copy under way
 * is waited for first, a moment at most, before the transaction takes a connection (`patched`).
 */
async function readNetwork<T>(
  deps: ContactsDeps,
  member: Member,
  read: (tx: Tx, snapshot: NetworkSnapshot | null | undefined) => Promise<T>,
) {
  const { networkIndex } = deps;
  await networkIndex?.patched(member.workspaceId);
  return deps.database.readInWorkspace(member.workspaceId, async (tx) => {
    const teamReader = networkIndex && !(await rowsViewer(tx, member)).ownRows;
    return read(tx, teamReader ? await networkIndex.current(tx, member.workspaceId) : undefined);
  });
}

async function pageFromDatabase(tx: Tx, member: Member, filters: TFilterItem[], page: number, pageSize: number) {
  const compiled = await compileFilters(tx, member, filters);
  const totalCount = await countRows(tx, member.workspaceId, compiled);
  return { totalCount, ids: await pageIds(tx, compiled, totalCount, page, pageSize) };
}

const withCounts = (
  keys: readonly string[],
  counts: { key: string; count: number }[],
  label = (key: string) => key,
) => {
  const byKey = new Map(counts.map((entry) => [entry.key, entry.count]));
  const extra = counts.map((entry) => entry.key).filter((key) => !keys.includes(key));
  return [...keys, ...extra].map((key) => ({ key, name: label(key), count: byKey.get(key) ?? 0 }));
};

/** Where the facets' counts come from: PostgreSQL (any workspace, and every search), or the in-memory copy. */
type FacetCounter = {
  /** One page of companies and a row more (to tell whether there are more), most prospects first. */
  companies: (page: number) => Promise<{ key: string; name: string; logo: string | null; count: number }[]>;
  values: (field: 'companySize' | 'industry' | 'jobDepartment') => Promise<FacetCount[]>;
  /** One page of prospects and a row more, by name. */
  people: (
    page: number,
  ) => Promise<{ key: string; name: string; avatar: string | null; company_name: string | null }[]>;
  proximityBands: () => Promise<FacetCount[]>;
  connectors: () => ReturnType<typeof connectorOptions>;
  engagements: () => Promise<FacetCount[]>;
  signals: () => Promise<FacetCount[]>;
};

const VALUE_COLUMNS = { companySize: 'r.company_size', industry: 'r.industry', jobDepartment: 'r.department' };

function databaseCounter(tx: Tx, compiled: CompiledFilters, search: string | null): FacetCounter {
  const pattern = containsPattern(search ?? undefined);
  const ws = compiled.workspaceId;
  return {
    companies: (page) => companyOptions(tx, ws, compiled, page, pattern),
    values: (field) => countBy(tx, compiled, field, VALUE_COLUMNS[field]),
    people: (page) => personOptions(tx, compiled, page, pattern),
    proximityBands: () => countByProximityBand(tx, compiled),
    connectors: () => connectorOptions(tx, ws, compiled, pattern),
    engagements: () => countByEngagement(tx, compiled),
    signals: () => countBySignal(tx, compiled),
  };
}

function memoryCounter(tx: Tx, workspaceId: string, tallies: FacetTallies): FacetCounter {
  const offset = (page: number) => (page - 1) * FILTER_OPTION_PAGE_SIZE;
  return {
    companies: (page) => companiesNamed(tx, workspaceId, tallies.companies(offset(page), FILTER_OPTION_PAGE_SIZE + 1)),
    values: async (field) => tallies.values(field),
    people: (page) => peopleNamed(tx, workspaceId, tallies.people(offset(page), FILTER_OPTION_PAGE_SIZE + 1)),
    proximityBands: async () => tallies.proximityBands(),
    connectors: () => mostCountedConnectors(tx, workspaceId, tallies.connectors()),
    engagements: async () => tallies.engagements(),
    signals: async () => tallies.signals(),
  };
}

/** How many of the most counted connectors are looked up first for the connector facet's page. */
const CONNECTOR_LOOKUPS_FIRST = 4 * FILTER_OPTION_PAGE_SIZE;

/**
 * The connector facet's page from the copy's counts, looking up only the most counted: the copy counts
 * every connector who reaches a row (a thousand in the scale bench's workspace), and each lookup (their
 * person, whether they are still a colleague or a mapped ally) was most of the filters' statement. The
 * page is the same as from every count: past those with the last looked-up count, all count less. Those
 * found no longer connectors (a client unmapped since the roll-up) make the lookups go further.
 */
export async function mostCountedConnectors(
  tx: Tx,
  workspaceId: string,
  counts: FacetCount[],
  firstLookups = CONNECTOR_LOOKUPS_FIRST,
) {
  const byCount = [...counts].sort((a, b) => b.count - a.count);
  for (let lookups = firstLookups; ; lookups *= 4) {
    const lowest = byCount[lookups - 1]?.count ?? 0;
    const looked = lookups >= byCount.length ? byCount : byCount.filter((entry) => entry.count >= lowest);
    const options = await connectorOptions(tx, workspaceId, looked, null);
    // Those counted 0 come after every connector counted, and only when these are not a page.
    const reaching = options.filter((option) => option.count > 0).length;
    if (looked.length === byCount.length || reaching > FILTER_OPTION_PAGE_SIZE) return options;
  }
}

type OptionSource = (counter: FacetCounter) => Promise<{ options: TFilterOption[]; hasMore: boolean }>;
const all = (options: TFilterOption[]) => ({ options, hasMore: false });

/** The options of each field with their counts; companies and names come in pages. */
function optionSources(pages: { companyNamePage: number; personNamePage: number }, search: string | null) {
  const matches = (option: TFilterOption) =>
    search === null || option.name.toLowerCase().includes(search.toLowerCase());
  const page = <T>(rows: T[]) => ({
    rows: rows.slice(0, FILTER_OPTION_PAGE_SIZE),
    hasMore: rows.length > FILTER_OPTION_PAGE_SIZE,
  });
  const sources: Record<NetworkFilterField, OptionSource> = {
    companyName: async (counter) => {
      const { rows, hasMore } = page(await counter.companies(pages.companyNamePage));
      return {
        options: rows.map((row) => ({ key: row.key, name: row.name, count: row.count, companyLogo: row.logo })),
        hasMore,
      };
    },
    companySize: async (counter) => all(withCounts(COMPANY_SIZES, await counter.values('companySize')).filter(matches)),
    industry: async (counter) =>
      all(
        withCounts([], await counter.values('industry'))
          .filter(matches)
          // Ties by name: the same order on every call, whichever side counted.
          .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
      ),
    jobDepartment: async (counter) =>
      all(withCounts(JOB_DEPARTMENTS, await counter.values('jobDepartment')).filter(matches)),
    personName: async (counter) => {
      const { rows, hasMore } = page(await counter.people(pages.personNamePage));
      return {
        options: rows.map((row) => ({
          key: row.key,
          name: row.name,
          count: 1,
          avatar: row.avatar,
          companyName: row.company_name,
        })),
        hasMore,
      };
    },
    proximity: async (counter) =>
      all(
        withCounts(
          PROXIMITY_BANDS.map((band) => band.name),
          await counter.proximityBands(),
        ).filter(matches),
      ),
    // The allies with the most prospects first, one page of them: a team that maps its CRM's clients as
    // allies has tens of thousands (8 MB of options at 50,000, which the page parsed before it drew);
    // the field's search finds the others.
    connector: async (counter) => {
      const { rows, hasMore } = page(await counter.connectors());
      return {
        options: rows.map((row) => ({
          key: row.key,
          name: row.name,
          count: row.count,
          avatar: row.avatar,
          companyName: row.company_name,
          tag: row.tag,
        })),
        hasMore,
      };
    },
    engagement: async (counter) =>
      all(
        withCounts(
          ENGAGEMENTS,
          await counter.engagements(),
          (key) => ENGAGEMENT_LABELS[key as keyof typeof ENGAGEMENT_LABELS] ?? key,
        ).filter(matches),
      ),
    signal: async (counter) => {
      const counts = new Map((await counter.signals()).map((entry) => [entry.key, entry.count]));
      return all(
        SIGNAL_TYPES.map((type) => ({ key: type, name: SIGNAL_LABELS[type], count: counts.get(type) ?? 0 })).filter(
          matches,
        ),
      );
    },
  };
  return sources;
}

export async function queryFilters(
  deps: ContactsDeps,
  member: Member,
  filters: TFilterItem[],
  pages: { companyNamePage: number; personNamePage: number },
): Promise<{ filters: TNetworkFilter[] }> {
  const sources = optionSources(pages, null);
  return readNetwork(deps, member, async (tx, snapshot) => {
    const counter = snapshot
      ? memoryCounter(
          tx,
          member.workspaceId,
          facetTallies(snapshot, await conditionsOf(tx, member, snapshot, parseFilters(filters))),
        )
      : databaseCounter(tx, await compileFilters(tx, member, filters), null);
    const result: TNetworkFilter[] = [];
    for (const field of Object.keys(NETWORK_FILTER_LABELS) as NetworkFilterField[]) {
      const { options, hasMore } = await sources[field](counter);
      result.push({ filterField: field, prettyName: NETWORK_FILTER_LABELS[field], options, hasMore });
    }
    return { filters: result };
  });
}

export async function searchFilterOptions(
  deps: ContactsDeps,
  member: Member,
  filters: TFilterItem[],
  field: NetworkFilterField,
  searchTerm: string,
) {
  const search = searchTerm || null;
  const sources = optionSources({ companyNamePage: 1, personNamePage: 1 }, search);
  return deps.database.readInWorkspace(member.workspaceId, async (tx) => {
    const counter = databaseCounter(tx, await compileFilters(tx, member, filters), search);
    return { options: (await sources[field](counter)).options };
  });
}

export async function networkReportCards(deps: ContactsDeps, member: Member) {
  return deps.database.inWorkspace(member.workspaceId, (tx) => reportCards(tx, member.workspaceId));
}

/**
 * Issue 26's account coverage: per target account, the network table's rows there as the caller sees
 * them, those in a warm band, and its best path. Compiled by the table's own filters (no filter, then
 * the warm proximity filter), so each number is what the table counts for the same company.
 */
export async function getAccountCoverage(
  deps: ContactsDeps,
  member: Member,
  options: { sort: AccountCoverageSort; noPath: boolean; page: number; pageSize: number },
): Promise<TAccountCoveragePage> {
  return deps.database.readInWorkspace(member.workspaceId, async (tx) => {
    const rows = await compileFilters(tx, member, []);
    const warm = await compileFilters(tx, member, [{ name: 'proximity', values: [...WARM_PROXIMITY_BANDS] }]);
    const { total, rows: accounts } = await accountCoverage(tx, rows, warm, options);
    return {
      rows: accounts.map((account) => ({
        companyId: account.company_id,
        companyName: account.company_name,
        companyLogo: account.company_logo,
        prospects: account.prospects,
        warm: account.warm,
        hasPath: account.has_path,
        bestConnector:
          account.best_connector_id !== null && account.best_proximity !== null
            ? {
                id: account.best_connector_id,
                name: account.best_connector_name ?? '',
                proximity: account.best_proximity,
                kind: account.best_colleague ? 'colleague' : 'ally',
                prospectName: account.best_prospect_name ?? '',
              }
            : null,
      })),
      pagination: {
        page: options.page,
        pageSize: options.pageSize,
        totalCount: total,
        totalPages: Math.max(1, Math.ceil(total / options.pageSize)),
      },
    };
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const CHANNEL_SOURCES: Record<Channel, ConnectionSource> = {
  meeting: 'GOOGLE_MEETING',
  mail: 'GOOGLE_MAIL',
  sharedExperience: 'SHARED_EXPERIENCE',
  linkedin: 'LINKEDIN_CONNECTION',
};

/** The evidence behind a channel of the edge, in words; null when the edge has none of it. */
function channelDetail(channel: Channel, edge: ConnectorEdge): string | null {
  switch (channel) {
    case 'meeting':
      return edge.meetings > 0 ? `${plural(edge.meetings, 'meeting')} together` : null;
    case 'mail':
      if (edge.mails_sent + edge.mails_received === 0) return null;
      return edge.mails_sent > 0 && edge.mails_received > 0
        ? `${plural(edge.mails_sent, 'e-mail')} sent, ${edge.mails_received} received`
        : `${plural(edge.mails_sent + edge.mails_received, 'e-mail')}, one way only`;
    case 'sharedExperience':
      return edge.shared_months > 0
        ? `${plural(edge.shared_months, 'month')} together${edge.shared_company ? ` at ${edge.shared_company}` : ''}${edge.shared_same_department ? ', same department' : ''}`
        : null;
    case 'linkedin':
      return edge.linkedin ? 'Connected on LinkedIn' : null;
  }
}

/**
 * Why a prospect has its proximity: each path, the channels of its link strongest first with what
 * each adds to the ones before (they add up to the link), and for an ally the trust that scales it.
 */
export async function explainProximity(
  deps: ContactsDeps,
  member: Member,
  prospectId: string,
): Promise<TProximityExplanation> {
  const ws = member.workspaceId;
  return deps.database.inWorkspace(ws, async (tx) => {
    const { model } = await loadGraphSettings(tx, ws);
    const proximity = await prospectProximity(tx, await rowsViewer(tx, member), prospectId);
    if (proximity === null) throw new AppError('NOT_FOUND', 'Prospect not found');
    const edges = await connectorEdges(tx, ws, prospectId, member.userId);
    const trustOf = new Map(
      (await edgesOf(tx, ws, [prospectId], model, member.userId)).map((edge) => [edge.connector_id, edge.trust]),
    );
    const paths = edges.map((edge) => {
      const { proximity: link, parts } = scoreEdge(edgeEvidenceOf(edge), model, new Date(edge.now));
      // A strength-only teammate's path says how strong, never through what.
      const channels = (edge.detail_shown ? parts : []).flatMap((part) => {
        const detail = channelDetail(part.channel, edge);
        return detail === null
          ? []
          : [{ source: CHANNEL_SOURCES[part.channel], alone: part.alone, added: part.added, detail }];
      });
      // An ally's path is its link scaled by the team's trust in the ally.
      const trust = edge.colleague ? null : (trustOf.get(edge.connector_id) ?? model.allyTrustFloor);
      return {
        connectorId: edge.connector_id,
        // A user without a last name is 'Nina ', as the names are joined in SQL.
        connectorName: edge.name.trim(),
        kind: edge.colleague ? ('colleague' as const) : ('ally' as const),
        isCurrentUser: edge.is_viewer,
        viaName: edge.colleague ? null : edge.owner_name,
        link,
        trust,
        proximity: trust === null ? link : allyPathProximity(link, trust),
        channels,
      };
    });
    return {
      prospectId,
      proximity,
      paths: paths.sort((a, b) => b.proximity - a.proximity),
    };
  });
}
