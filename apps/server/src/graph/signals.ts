import {
  SIGNAL_DEFINITIONS,
  SIGNAL_TEMPERATURE,
  SIGNAL_TEMPERATURES,
  SIGNAL_TYPES,
  type SignalType,
  signalBit,
  signalsOfMask,
  type TSignal,
  temperatureMask,
} from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';

// Each signal's rule, written once, and what derives from the rules and the registry
// (packages/shared/src/signals.ts): the masks the roll-up stores, the signals the network page shows,
// the temperature rank recommendations order by. A new signal is a registry entry and a rule here.

/** A website visit counts for signals this long. */
export const WEBSITE_SIGNAL_DAYS = 30;

/**
 * Where a rule finds its facts, under the names the roll-up (recompute.ts) gives them:
 * - `edge`: one edge `s` of the prospect to a connector (`colleague`, `meetings`, `mails`,
 *   `shared_months`, `linkedin`). The prospect has the signal when one of its edges does; the closest
 *   such edge scores it and names the connector.
 * - `visits`: `v`, the prospect's identified website visits of the last WEBSITE_SIGNAL_DAYS days
 *   (`views`, `recent_views` within the workspace's many-pages window, its `many_pages` threshold,
 *   `pricing`: a path matched one of its pricing-page globs); the registry's score, with the page
 *   views and the last visit.
 * - `pastClient`: `pc`, the tracked client the prospect is, seen at another company (`prospect_id`);
 *   the registry's score, with the old and new companies.
 */
export type SignalSource = 'edge' | 'visits' | 'pastClient';
type SignalRule = { source: SignalSource; when: SQL };

export const SIGNAL_RULES: Record<SignalType, SignalRule> = {
  VISITED_MANY_PAGES: { source: 'visits', when: sql`v.recent_views >= v.many_pages` },
  VISITED_PRICING_PAGE: { source: 'visits', when: sql`v.pricing` },
  ALREADY_MET_COLLEAGUE: { source: 'edge', when: sql`s.colleague and s.meetings > 0` },
  VISITED_WEBSITE: { source: 'visits', when: sql`v.views > 0` },
  PAST_CLIENT: { source: 'pastClient', when: sql`pc.prospect_id is not null` },
  WORKED_WITH_COLLEAGUE: { source: 'edge', when: sql`s.colleague and s.shared_months > 0` },
  WORKED_WITH_CLIENT: { source: 'edge', when: sql`not s.colleague and s.shared_months > 0` },
  CONNECTED_WITH_COLLEAGUE: { source: 'edge', when: sql`s.colleague and s.linkedin` },
  CONNECTED_WITH_CLIENT: {
    source: 'edge',
    when: sql`not s.colleague and (s.linkedin or s.meetings > 0 or s.mails > 0)`,
  },
};

const bitSql = (type: SignalType) => sql.raw(String(signalBit(type)));

/** The mask of the signals of `source` whose rules hold on its facts, as an int4 expression. */
export function signalMaskSql(source: SignalSource): SQL {
  const terms = SIGNAL_TYPES.filter((type) => SIGNAL_RULES[type].source === source).map(
    (type) => sql`(case when ${SIGNAL_RULES[type].when} then ${bitSql(type)} else 0 end)`,
  );
  return terms.length === 0 ? sql`0` : sql`(${sql.join(terms, sql` | `)})`;
}

/** Every signal as a row `(type, bit)` (`bit` its value in a mask): join on `mask & bit <> 0` to list a mask's signals. */
export const signalBitsTable = (alias: string) =>
  sql`(values ${sql.join(
    SIGNAL_TYPES.map((type) => sql`(${sql.raw(`'${type}'`)}, ${bitSql(type)})`),
    sql`, `,
  )}) as ${sql.raw(alias)}(type, bit)`;

/** A stored mask's temperature rank (0 warm, 1 medium, 2 cold, 3 none), as `temperatureRank` ranks signals. */
export const temperatureRankSql = (mask: SQL) =>
  sql`(case ${sql.join(
    SIGNAL_TEMPERATURES.map(
      (temperature, rank) =>
        sql`when ${mask} & ${sql.raw(String(temperatureMask(temperature)))} <> 0 then ${sql.raw(String(rank))}`,
    ),
    sql` `,
  )} else ${sql.raw(String(SIGNAL_TEMPERATURES.length))} end)`;

/** One edge of the prospect, as the signals need it. */
export type SignalEdge = {
  connectorId: string;
  connectorName: string;
  colleague: boolean;
  /** The path's proximity (an ally's link already scaled by the trust in the ally). */
  proximity: number;
  /** The edge signals this edge qualifies for: `signalMaskSql('edge')` on it. */
  signalMask: number;
  tag: string | null;
};

export type SignalFacts = {
  prospectId: string;
  mask: number;
  edges: SignalEdge[];
  pageViews: number;
  /** The prospect's last identified visit, ISO 8601; null when none. */
  lastVisitAt: string | null;
  pastCompanyName: string | null;
  newCompanyName: string | null;
};

/**
 * The signals of one prospect, strongest first. The row's mask says which signals it has; the edges
 * say through whom and how strongly.
 */
export function buildSignals(facts: SignalFacts): TSignal[] {
  const signals = signalsOfMask(facts.mask).map((type): TSignal => {
    const id = `${facts.prospectId}:${type}`;
    const { source } = SIGNAL_RULES[type];
    if (source === 'edge') {
      const bit = signalBit(type);
      const best = facts.edges
        .filter((edge) => (edge.signalMask & bit) !== 0)
        .sort((a, b) => b.proximity - a.proximity)[0];
      return {
        id,
        type,
        proximityScore: best?.proximity ?? 0,
        metadata: {
          ...(best ? { connectorName: best.connectorName } : {}),
          ...(best && !best.colleague && best.tag ? { customTag: best.tag } : {}),
        },
      };
    }
    const proximityScore = SIGNAL_DEFINITIONS[type].score ?? 0;
    if (source === 'pastClient') {
      return {
        id,
        type,
        proximityScore,
        metadata: {
          ...(facts.pastCompanyName ? { pastCompanyName: facts.pastCompanyName } : {}),
          ...(facts.newCompanyName ? { newCompanyName: facts.newCompanyName } : {}),
        },
      };
    }
    return {
      id,
      type,
      proximityScore,
      metadata: { pageViews: facts.pageViews, ...(facts.lastVisitAt ? { lastVisitAt: facts.lastVisitAt } : {}) },
    };
  });
  return signals.sort((a, b) => b.proximityScore - a.proximityScore);
}

/**
 * Within a temperature, a former client at a new company comes first: former clients convert 3 times
 * more than cold outbound (spec section 1), and their first weeks somewhere new are when they choose.
 */
export const isPastClient = (signals: readonly TSignal[]) => signals.some((signal) => signal.type === 'PAST_CLIENT');
/** `isPastClient` of a stored mask, as a sort key: false (a past client) sorts first. */
export const notPastClientSql = (mask: SQL) => sql`(${mask} & ${bitSql('PAST_CLIENT')} = 0)`;

/** Spec section 4's temperature groups, warm first: how recommendations rank prospects. */
export const temperatureRank = (signals: readonly TSignal[]) =>
  Math.min(
    SIGNAL_TEMPERATURES.length,
    ...signals.map((signal) => SIGNAL_TEMPERATURES.indexOf(SIGNAL_TEMPERATURE[signal.type])),
  );
