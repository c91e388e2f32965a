import {
  EMPTY_STATE,
  ENGAGEMENT_DEFINITIONS,
  type NetworkFilterField,
  PROXIMITY_BANDS,
  SIGNAL_TYPES,
  signalMaskOf,
  type TFilterItem,
  type TPersona,
  type TTargetingScheme,
} from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { type RowsViewer, rowsSeenBy, rowsViewer } from '../../graph/graph.sql.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import { findPersonas, findTargetingScheme } from '../targeting/targeting.repo.ts';

// The network table's filters (spec section 4) as SQL over `network_rows r`. An empty list means all,
// EMPTY_STATE means none; values that cannot name an option (a malformed id, an unknown band) match
// nothing rather than failing the whole query.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuids = (values: string[]) => values.filter((value) => UUID.test(value));
const texts = (values: string[]) => sql.param(values);

/** Each field's condition on its chosen values. */
const FIELD_CONDITIONS: Record<NetworkFilterField, (values: string[]) => SQL> = {
  companyName: (values) => sql`r.company_id = any(${sql.param(uuids(values))}::uuid[])`,
  companySize: (values) => sql`r.company_size = any(${texts(values)}::text[])`,
  industry: (values) => sql`r.industry = any(${texts(values)}::text[])`,
  jobDepartment: (values) => sql`r.department = any(${texts(values)}::text[])`,
  personName: (values) => sql`r.prospect_id = any(${sql.param(uuids(values))}::uuid[])`,
  proximity: (values) => {
    const bands = PROXIMITY_BANDS.filter((band) => values.includes(band.name));
    if (bands.length === 0) return sql`false`;
    return sql.join(
      bands.map((band) => sql`r.proximity between ${band.min} and ${band.max}`),
      sql` or `,
    );
  },
  connector: (values) => sql`r.connector_ids && ${sql.param(uuids(values))}::uuid[]`,
  engagement: (values) => {
    const codes = ENGAGEMENT_DEFINITIONS.flatMap(({ engagement, code }) => (values.includes(engagement) ? [code] : []));
    return sql`r.engagement = any(${sql.param(codes)}::int[])`;
  },
  signal: (values) => {
    const mask = signalMaskOf(SIGNAL_TYPES.filter((type) => values.includes(type)));
    return sql`(r.signal_mask & ${mask}) <> 0`;
  },
};

export type NetworkQuery = {
  /** Chosen values per field; a field absent or with [] is not filtered. */
  fields: Partial<Record<NetworkFilterField, string[]>>;
  idealCustomerProfile: boolean;
  personas: boolean;
  myAccounts: boolean;
  externalOnly: boolean;
  assignedTo: string[];
};

export function parseFilters(items: TFilterItem[]): NetworkQuery {
  const query: NetworkQuery = {
    fields: {},
    idealCustomerProfile: false,
    personas: false,
    myAccounts: false,
    externalOnly: false,
    assignedTo: [],
  };
  for (const { name, values } of items) {
    if (name === 'idealCustomerProfile' || name === 'personas' || name === 'myAccounts' || name === 'externalOnly') {
      query[name] = values.includes('true');
    } else if (name === 'assignedTo') {
      query.assignedTo = uuids(values);
    } else if (values.length > 0) {
      query.fields[name] = values;
    }
  }
  return query;
}

const titleMatches = (titles: string[]) => {
  const patterns = titles.map(containsPattern).filter((pattern): pattern is string => pattern !== null);
  return patterns.length > 0 ? sql`r.job_title ilike any(${sql.param(patterns)}::text[])` : sql`false`;
};

/** The company and role facts a scheme can constrain, with their column in `network_rows r`. */
const PROFILE_FACTS = {
  countries: { label: 'country', column: sql`r.country` },
  companySize: { label: 'company size', column: sql`r.company_size` },
  companyType: { label: 'company type', column: sql`r.company_type` },
  industries: { label: 'industry', column: sql`r.industry` },
  jobDepartments: { label: 'department', column: sql`r.department` },
  seniorities: { label: 'seniority', column: sql`r.seniority` },
} as const;
type ProfileFact = keyof typeof PROFILE_FACTS;

/**
 * The ideal customer profile of a targeting scheme, as conditions on the row and its company. With
 * `unknownPasses`, a fact nobody knows yet (no size, country, industry or department: a mailbox gives
 * none) does not exclude the row; only a known fact outside the scheme does.
 */
function idealCustomerProfile(workspaceId: string, scheme: TTargetingScheme | null, unknownPasses = false): SQL {
  if (!scheme) return sql`false`;
  const fact = (key: ProfileFact) => {
    const { column } = PROFILE_FACTS[key];
    const values = scheme[key];
    if (values.length === 0) return sql`true`;
    const allowed = sql`${column} = any(${texts(values)}::text[])`;
    return unknownPasses ? sql`(${column} is null or ${allowed})` : allowed;
  };
  const conditions: SQL[] = [fact('countries'), fact('companySize'), fact('companyType'), fact('industries')];
  conditions.push(
    sql`((${fact('jobDepartments')} and ${fact('seniorities')}) or ${titleMatches(scheme.selectedCustomJobTitles)})`,
  );
  const companies = idealCompanies(workspaceId, scheme);
  if (companies) conditions.push(sql`r.company_id in (${companies})`);
  return sql.join(conditions, sql` and `);
}

/**
 * The recommendation pool's view of a user's profile: `known` holds when the row matches the ideal
 * customer profile or a persona on known facts; `possible` when it matches once unknown facts are
 * given the benefit of the doubt; `unknownFacts` lists (as a text[] expression) the facts the scheme
 * constrains that the row lacks, to say why such a prospect ranks below the known matches.
 */
export async function recommendationProfile(tx: Tx, caller: { workspaceId: string; userId: string }) {
  const scheme = await findTargetingScheme(tx, caller.workspaceId, caller.userId);
  const personas = personasMatch(await findPersonas(tx, caller.workspaceId, caller.userId));
  const constrained = (Object.keys(PROFILE_FACTS) as ProfileFact[])
    .filter((key) => scheme && scheme[key].length > 0)
    .map((key) => PROFILE_FACTS[key]);
  const unknownFacts =
    constrained.length > 0
      ? sql`array_remove(array[${sql.join(
          constrained.map((fact) => sql`case when ${fact.column} is null then ${fact.label} end`),
          sql`, `,
        )}]::text[], null)`
      : sql`'{}'::text[]`;
  return {
    known: sql`((${idealCustomerProfile(caller.workspaceId, scheme)}) or ${personas})`,
    possible: idealCustomerProfile(caller.workspaceId, scheme, true),
    unknownFacts,
  };
}

/**
 * The companies a scheme's technologies and excluded competitors allow (a query of their ids), or null
 * when it names neither and every company is allowed.
 */
export function idealCompanies(workspaceId: string, scheme: TTargetingScheme): SQL | null {
  const technologies = scheme.technologies.map((technology) => technology.value);
  const competitors = scheme.competitorDomainsToExclude;
  if (technologies.length === 0 && competitors.length === 0) return null;
  return sql`select c.id from companies c where c.workspace_id = ${workspaceId}
                and (${technologies.length === 0} or c.technologies && ${texts(technologies)}::text[])
                and c.domain <> all(${texts(competitors)}::text[])`;
}

/** A persona matches by custom titles, or by department and seniority together. */
function personasMatch(personas: TPersona[]): SQL {
  const matches = personas.map((persona) => {
    const byRole =
      persona.jobDepartments.length > 0 && persona.seniorities.length > 0
        ? sql`(r.department = any(${texts(persona.jobDepartments)}::text[])
               and r.seniority = any(${texts(persona.seniorities)}::text[]))`
        : sql`false`;
    return sql`(${byRole} or ${titleMatches(persona.customJobTitles)})`;
  });
  return matches.length > 0 ? sql`(${sql.join(matches, sql` or `)})` : sql`false`;
}

/** The companies of the accounts assigned to any of `userIds` (a query of their ids). */
export const accountCompanies = (workspaceId: string, userIds: string[]) => sql`
  select a.company_id from accounts a
    join account_assignees aa on aa.workspace_id = a.workspace_id and aa.account_id = a.id
   where a.workspace_id = ${workspaceId} and aa.user_id = any(${sql.param(userIds)}::uuid[])`;

const atAccountsAssignedTo = (workspaceId: string, userIds: string[]) =>
  sql`r.company_id in (${accountCompanies(workspaceId, userIds)})`;

/** The fields the network cube keeps (graph/recompute.ts rebuildNetworkSummaries). */
const CUBE_FIELDS: readonly NetworkFilterField[] = [
  'companySize',
  'industry',
  'jobDepartment',
  'proximity',
  'engagement',
  'signal',
];

export type CompiledFilters = {
  /** The rows the caller sees, aliased `r` (graph.sql.ts `rowsSeenBy`): where every read of them starts. */
  rows: SQL;
  viewer: RowsViewer;
  /** The conditions of every active filter but `except`'s own (a facet's counts ignore its own choice). */
  where: (except?: NetworkFilterField) => SQL;
  /**
   * Where to count the rows matching `where(except)`, aliased `r`: the cube (thousands of rows) when
   * every active condition is on its fields, else the network rows themselves.
   */
  counted: (except?: NetworkFilterField) => { from: SQL; count: SQL; weight: SQL };
  /**
   * Whether no condition applies besides `except`'s own, and the team's summaries count what the caller
   * sees (never for a Private member's own rows: the summaries are the team's).
   */
  unfiltered: (except?: NetworkFilterField) => boolean;
  /** Whether `where()` holds only the workspace and proximity, so network_rank (aliased `r`) can answer it. */
  rankable: () => boolean;
  query: NetworkQuery;
  workspaceId: string;
};

/** Compiles a request's filters for one caller, loading their targeting scheme and personas if asked for. */
export async function compileFilters(
  tx: Tx,
  caller: { workspaceId: string; userId: string },
  items: TFilterItem[],
): Promise<CompiledFilters> {
  const query = parseFilters(items);
  const { workspaceId, userId } = caller;
  const viewer = await rowsViewer(tx, caller);
  const rows = rowsSeenBy(viewer);
  const shared: SQL[] = [sql`r.workspace_id = ${workspaceId}`];
  if (query.idealCustomerProfile) {
    shared.push(idealCustomerProfile(workspaceId, await findTargetingScheme(tx, workspaceId, userId)));
  }
  if (query.personas) shared.push(personasMatch(await findPersonas(tx, workspaceId, userId)));
  if (query.myAccounts) shared.push(atAccountsAssignedTo(workspaceId, [userId]));
  if (query.assignedTo.length > 0) shared.push(atAccountsAssignedTo(workspaceId, query.assignedTo));
  if (query.externalOnly) shared.push(sql`r.has_external_connector`);

  const activeFields = (except?: NetworkFilterField) =>
    (Object.keys(query.fields) as NetworkFilterField[]).filter((field) => field !== except);
  const summarised = !viewer.ownRows;
  const onlyCubeConditions = summarised && (shared.length === 1 || (shared.length === 2 && query.externalOnly));
  return {
    query,
    workspaceId,
    rows,
    viewer,
    unfiltered: (except) => summarised && shared.length === 1 && activeFields(except).length === 0,
    rankable: () => summarised && shared.length === 1 && activeFields().every((field) => field === 'proximity'),
    counted: (except) =>
      onlyCubeConditions && activeFields(except).every((field) => CUBE_FIELDS.includes(field))
        ? { from: sql`network_cube r`, count: sql`coalesce(sum(r.rows), 0)::int`, weight: sql`r.rows` }
        : { from: rows, count: sql`count(*)::int`, weight: sql`1` },
    where: (except) => {
      const conditions = [...shared];
      for (const [field, values] of Object.entries(query.fields) as [NetworkFilterField, string[]][]) {
        if (field === except) continue;
        conditions.push(values.includes(EMPTY_STATE) ? sql`false` : sql`(${FIELD_CONDITIONS[field](values)})`);
      }
      return sql.join(conditions, sql` and `);
    },
  };
}
