import { SIGNAL_TEMPERATURE, SIGNAL_TEMPERATURES, type SignalType, type TSignal } from '@warmpath/shared';
import { signalsOfMask } from './graph.sql.ts';

/**
 * Signals that do not come from a relationship have no edge to score them: these fixed scores rank
 * them among the others (top 2 by proximityScore are shown), strongest intent first.
 */
export const INTENT_SIGNAL_SCORES = {
  PAST_CLIENT: 90,
  VISITED_PRICING_PAGE: 80,
  VISITED_MANY_PAGES: 70,
  VISITED_WEBSITE: 50,
} as const satisfies Partial<Record<SignalType, number>>;

/** One edge of the prospect, as the signals need it. */
export type SignalEdge = {
  connectorId: string;
  connectorName: string;
  colleague: boolean;
  /** The path's proximity (an ally's link already scaled by the trust in the ally). */
  proximity: number;
  meetings: number;
  mails: number;
  sharedMonths: number;
  linkedin: boolean;
  tag: string | null;
};

export type SignalFacts = {
  prospectId: string;
  mask: number;
  edges: SignalEdge[];
  pageViews: number;
  pastCompanyName: string | null;
  newCompanyName: string | null;
};

const EDGE_SIGNALS: Partial<Record<SignalType, (edge: SignalEdge) => boolean>> = {
  ALREADY_MET_COLLEAGUE: (edge) => edge.colleague && edge.meetings > 0,
  WORKED_WITH_COLLEAGUE: (edge) => edge.colleague && edge.sharedMonths > 0,
  CONNECTED_WITH_COLLEAGUE: (edge) => edge.colleague && edge.linkedin,
  WORKED_WITH_CLIENT: (edge) => !edge.colleague && edge.sharedMonths > 0,
  CONNECTED_WITH_CLIENT: (edge) => !edge.colleague && (edge.linkedin || edge.meetings > 0 || edge.mails > 0),
};

/**
 * The signals of one prospect, strongest first. The row's mask says which signals it has (the same
 * rules as the roll-up); the edges say through whom and how strongly.
 */
export function buildSignals(facts: SignalFacts): TSignal[] {
  const signals = signalsOfMask(facts.mask).map((type): TSignal => {
    const id = `${facts.prospectId}:${type}`;
    const qualifies = EDGE_SIGNALS[type];
    if (qualifies) {
      const best = facts.edges.filter(qualifies).sort((a, b) => b.proximity - a.proximity)[0];
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
    if (type === 'PAST_CLIENT') {
      return {
        id,
        type,
        proximityScore: INTENT_SIGNAL_SCORES.PAST_CLIENT,
        metadata: {
          ...(facts.pastCompanyName ? { pastCompanyName: facts.pastCompanyName } : {}),
          ...(facts.newCompanyName ? { newCompanyName: facts.newCompanyName } : {}),
        },
      };
    }
    const score = INTENT_SIGNAL_SCORES[type as keyof typeof INTENT_SIGNAL_SCORES] ?? 0;
    return { id, type, proximityScore: score, metadata: { pageViews: facts.pageViews } };
  });
  return signals.sort((a, b) => b.proximityScore - a.proximityScore);
}

/** Spec section 4's temperature groups, warm first: how recommendations rank prospects. */
export const temperatureRank = (signals: readonly TSignal[]) =>
  Math.min(
    SIGNAL_TEMPERATURES.length,
    ...signals.map((signal) => SIGNAL_TEMPERATURES.indexOf(SIGNAL_TEMPERATURE[signal.type])),
  );
