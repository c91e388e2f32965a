import {
  ENGAGEMENT_CODE_LIMIT,
  ENGAGEMENT_DEFINITIONS,
  NETWORK_FILTER_FIELDS,
  type NetworkFilterField,
  PROXIMITY_BANDS,
  SIGNAL_BIT_LIMIT,
  SIGNALS,
} from '@warmpath/shared';
import type { Condition } from './filters.ts';
import { type Dictionary, idAt, type NetworkSnapshot, type TextColumn } from './snapshot.ts';

/**
 * How many conditions each row fails, and which one when it fails exactly one (its index in
 * `conditions`): a row counts in the table when it fails none, and in a facet's options when it fails
 * none or only that facet's own.
 */
function failures(snapshot: NetworkSnapshot, conditions: Condition[]) {
  const size = snapshot.size;
  const failed = new Uint8Array(size);
  const which = new Uint8Array(size);
  conditions.forEach(({ mask }, index) => {
    for (let row = 0; row < size; row++) {
      if (mask[row] === 0) {
        failed[row] = (failed[row] ?? 0) + 1;
        which[row] = index;
      }
    }
  });
  return { failed, which };
}

/** The facets' counts over the copy: per option, the rows that pass every condition but the facet's own. */
export type FacetTallies = ReturnType<typeof countFacets>;
type FacetCount = { key: string; count: number };

/** A dictionary's values with their counts, those never counted (and null) left out, as a SQL group by. */
const counted = (dictionary: Dictionary, tally: Int32Array): FacetCount[] =>
  dictionary.values.flatMap((key, code) =>
    key !== null && (tally[code] ?? 0) > 0 ? [{ key, count: tally[code] ?? 0 }] : [],
  );

/** Counts row's code in a text facet's tally (a function, not a closure made per row: V8 inlines it). */
function countCode(tally: { codes: Int32Array; counts: Int32Array }, row: number) {
  const code = tally.codes[row] ?? 0;
  tally.counts[code] = (tally.counts[code] ?? 0) + 1;
}

/**
 * The tallies last counted on each copy, with the conditions they were counted under, the most
 * recently used last. A copy never changes (a new version is a new copy), and the team's copy is the
 * same for every member who reads it: the page most opened, the network unfiltered, is counted once
 * per version instead of once per visit (issue 24: the pass over a million rows was a third of an API
 * process's time in the scale bench). A few are kept, the conditions' masks with them (a byte a row).
 */
const TALLIES_KEPT_PER_COPY = 4;
const talliesKept = new WeakMap<NetworkSnapshot, { conditions: Condition[]; tallies: FacetTallies }[]>();

/** The same conditions: the same facets in the same order, passed by exactly the same rows. */
const sameConditions = (first: Condition[], second: Condition[]) =>
  first.length === second.length &&
  first.every(
    (condition, index) =>
      condition.field === second[index]?.field && Buffer.compare(condition.mask, second[index].mask) === 0,
  );

/** The facets' counts under `conditions`, counted again only when this copy has not counted them lately. */
export function facetTallies(snapshot: NetworkSnapshot, conditions: Condition[]): FacetTallies {
  const kept = talliesKept.get(snapshot) ?? [];
  const at = kept.findIndex((entry) => sameConditions(entry.conditions, conditions));
  const entry = at >= 0 ? kept.splice(at, 1)[0] : undefined;
  const tallies = entry?.tallies ?? countFacets(snapshot, conditions);
  kept.push({ conditions, tallies });
  talliesKept.set(snapshot, kept.slice(-TALLIES_KEPT_PER_COPY));
  return tallies;
}

/** One pass over the rows for every facet: a row failing nothing counts in each, failing one only in that one's. */
function countFacets(snapshot: NetworkSnapshot, conditions: Condition[]) {
  const { failed, which } = failures(snapshot, conditions);
  const facet = (field: NetworkFilterField) => NETWORK_FILTER_FIELDS.indexOf(field);
  const facetOf = Int8Array.from(conditions, ({ field }) => (field === null ? -1 : facet(field)));
  const { text, proximity, engagement, signalMask, connectorStart, connectorCodes } = snapshot;
  /** A facet counted per code of a text column. */
  const textTally = (field: NetworkFilterField, column: TextColumn) => ({
    facet: facet(field),
    codes: text[column].codes,
    dictionary: text[column].dictionary,
    counts: new Int32Array(text[column].dictionary.values.length),
  });
  const company = textTally('companyName', 'company_id');
  const size = textTally('companySize', 'company_size');
  const industry = textTally('industry', 'industry');
  const department = textTally('jobDepartment', 'department');
  const byProximity = new Int32Array(101);
  const byEngagement = new Int32Array(ENGAGEMENT_CODE_LIMIT);
  const bySignal = new Int32Array(SIGNAL_BIT_LIMIT);
  const byConnector = new Int32Array(snapshot.connectors.values.length);
  const people = new Uint8Array(snapshot.size);
  const [PERSON, PROXIMITY, CONNECTOR, ENGAGEMENT, SIGNAL] = (
    ['personName', 'proximity', 'connector', 'engagement', 'signal'] as const
  ).map(facet);
  const rows = snapshot.size;
  // Written out flat: a closure per row made this pass ten times slower.
  for (let row = 0; row < rows; row++) {
    const failedCount = failed[row] ?? 0;
    if (failedCount > 1) continue;
    // -1: counts in every facet; otherwise only in this one's.
    const only = failedCount === 0 ? -1 : (facetOf[which[row] ?? 0] ?? -1);
    if (failedCount === 1 && only < 0) continue;
    const inEveryFacet = only === -1;
    if (inEveryFacet || only === company.facet) countCode(company, row);
    if (inEveryFacet || only === size.facet) countCode(size, row);
    if (inEveryFacet || only === industry.facet) countCode(industry, row);
    if (inEveryFacet || only === department.facet) countCode(department, row);
    if (inEveryFacet || only === PERSON) people[row] = 1;
    if (inEveryFacet || only === PROXIMITY) {
      const value = proximity[row] ?? 0;
      byProximity[value] = (byProximity[value] ?? 0) + 1;
    }
    if (inEveryFacet || only === ENGAGEMENT) {
      const value = engagement[row] ?? 0;
      byEngagement[value] = (byEngagement[value] ?? 0) + 1;
    }
    if (inEveryFacet || only === SIGNAL) {
      const mask = signalMask[row] ?? 0;
      for (let bit = 0; mask !== 0 && bit < SIGNAL_BIT_LIMIT; bit++) {
        if (mask & (1 << bit)) bySignal[bit] = (bySignal[bit] ?? 0) + 1;
      }
    }
    if (inEveryFacet || only === CONNECTOR) {
      const end = connectorStart[row + 1] ?? 0;
      for (let at = connectorStart[row] ?? 0; at < end; at++) {
        const code = connectorCodes[at] ?? 0;
        byConnector[code] = (byConnector[code] ?? 0) + 1;
      }
    }
  }
  /** The companies counted, most rows first, ties in id order; sorted once, as the tallies are kept. */
  let companyOrder: Int32Array | null = null;
  const companiesInOrder = () => {
    if (companyOrder) return companyOrder;
    const { companyRank } = snapshot;
    const tally = company.counts;
    const present: number[] = [];
    for (let code = 1; code < tally.length; code++) if ((tally[code] ?? 0) > 0) present.push(code);
    companyOrder = Int32Array.from(present).sort(
      (a, b) => (tally[b] ?? 0) - (tally[a] ?? 0) || (companyRank[a] ?? 0) - (companyRank[b] ?? 0),
    );
    return companyOrder;
  };
  let connectorCounts: FacetCount[] | null = null;
  return {
    /** One page of companies, most rows first, ties in id order (the SQL side's `count desc, co.id`). */
    companies: (offset: number, limit: number): FacetCount[] => {
      const codes = companiesInOrder();
      const tally = company.counts;
      const values = company.dictionary.values;
      return Array.from(codes.subarray(offset, offset + limit), (code) => ({
        key: values[code] ?? '',
        count: tally[code] ?? 0,
      }));
    },
    values: (field: 'companySize' | 'industry' | 'jobDepartment') => {
      const tally = field === 'companySize' ? size : field === 'industry' ? industry : department;
      return counted(tally.dictionary, tally.counts);
    },
    proximityBands: () =>
      PROXIMITY_BANDS.map((band) => ({
        key: band.name,
        count: byProximity.subarray(band.min, band.max + 1).reduce((sum, count) => sum + count, 0),
      })),
    engagements: (): FacetCount[] =>
      ENGAGEMENT_DEFINITIONS.map(({ engagement, code }) => ({ key: engagement, count: byEngagement[code] ?? 0 })),
    signals: (): FacetCount[] => SIGNALS.map(({ type, bit }) => ({ key: type, count: bySignal[bit] ?? 0 })),
    connectors: () => {
      connectorCounts ??= counted(snapshot.connectors, byConnector);
      return connectorCounts;
    },
    /** One page of the prospects the name facet offers, in its order (full name, then id). */
    people: (offset: number, limit: number) => {
      const ids: string[] = [];
      let skipped = 0;
      for (let at = 0; at < snapshot.size && ids.length < limit; at++) {
        const row = snapshot.byName[at] ?? 0;
        if (!people[row]) continue;
        if (skipped++ >= offset) ids.push(idAt(snapshot, row));
      }
      return ids;
    },
  };
}
