import {
  type ActionType,
  SIGNAL_LABELS,
  SIGNAL_TEMPERATURE,
  SIGNAL_TEMPERATURES,
  type TNetworkRow,
  type TSignal,
  type WarmIntroSource,
} from '@warmpath/shared';
import { isPastClient, temperatureRank } from '../../graph/signals.ts';

// The rules of the daily recommendations (DESIGN.md section 7), free of the database: which
// candidates are kept, in which order, as which action, and why the others are dropped.

/** A skipped prospect is not recommended again to the same users for this long. */
export const SKIP_COOLDOWN_DAYS = 30;
/** A prospect somebody in the team contacted is not recommended again for this long. */
export const CONTACT_COOLDOWN_DAYS = 30;

const DAY_MS = 86_400_000;

/** A prospect the engine considers for one user, with what the exclusions need to know. */
export type Candidate = {
  /** The network row as the user sees it: signals, proximity, colleagues and allies who know them. */
  row: TNetworkRow;
  /** Admins and members assigned to the prospect's account; null when the company is not an account. */
  accountUserIds: string[] | null;
  crmClient: boolean;
  /** At a domain the user's targeting scheme excludes as a competitor. */
  competitor: boolean;
  /** The last time one of the action's users skipped this prospect. */
  lastSkippedAt: Date | null;
  /** The last time anybody in the team contacted this prospect (a sent or completed action). */
  lastContactedAt: Date | null;
  /**
   * The facts of the user's profile nobody knows for this prospect (company size, country, ...): the
   * prospect may match, so it is kept in the pool, ranked after the known matches, and says so.
   */
  unknownFacts: string[];
};

export type RunContext = {
  userId: string;
  now: Date;
  weeklyIntroCap: number;
  /** Members' own caps by person id (0: 'Don't ask me for intros'); the others follow `weeklyIntroCap`. */
  connectorCaps: ReadonlyMap<string, number>;
  /** Requests each connector received this week plus today's open recommendations through them. */
  connectorLoad: Map<string, number>;
  /** Allies nobody can e-mail: no address of their own and no contact owner to ask instead. */
  unreachableAllies: ReadonlySet<string>;
  /** Past clients now at another company, by person id, with that company's name: the why says so. */
  formerClients: ReadonlyMap<string, string>;
  /** How many more actions the user may get today. */
  slots: number;
};

export type KeptAction = {
  type: ActionType;
  connectorId: string | null;
  source: WarmIntroSource | null;
  recommendationUsers: string[];
  temperature: number;
  proximity: number;
};

export type Decision =
  | { candidate: Candidate; outcome: 'kept'; reason: string; action: KeptAction }
  | { candidate: Candidate; outcome: 'dropped'; reason: string };

/**
 * Known profile matches before prospects whose facts are unknown, then warm before medium before
 * cold (spec section 4), a past client first within a temperature (`isPastClient`), then the closest,
 * then a stable order. `candidatePage` orders the pool the same way.
 */
export function compareCandidates(a: Candidate, b: Candidate) {
  return (
    Number(a.unknownFacts.length > 0) - Number(b.unknownFacts.length > 0) ||
    temperatureRank(a.row.signals) - temperatureRank(b.row.signals) ||
    Number(!isPastClient(a.row.signals)) - Number(!isPastClient(b.row.signals)) ||
    b.row.proximity - a.row.proximity ||
    a.row.id.localeCompare(b.row.id)
  );
}

const within = (at: Date | null, days: number, now: Date) =>
  at !== null && now.getTime() - at.getTime() < days * DAY_MS;

/** The action a kept recommendation is, as its why names it. */
export type WhyAction =
  | { kind: 'direct'; because: string }
  | {
      kind: 'ask';
      connectorName: string;
      ownerName: string | null;
      proximity: number;
      /** The company a past client asked for the intro works at now (they know its people from inside). */
      formerClientAt?: string | null;
    };

/**
 * The one line of why a recommendation was made: its warmest signal, then the path (who to ask and
 * how close they are) or why a direct message. The run's log (`cli recommend --explain`) and the
 * action itself (the API's `why`) carry this same text.
 */
export function recommendationWhy(input: {
  signals: readonly TSignal[];
  unknownFacts: readonly string[];
  action: WhyAction;
}): string {
  const strongest = input.signals
    .slice()
    .sort(
      (a, b) =>
        SIGNAL_TEMPERATURES.indexOf(SIGNAL_TEMPERATURE[a.type]) -
          SIGNAL_TEMPERATURES.indexOf(SIGNAL_TEMPERATURE[b.type]) || b.proximityScore - a.proximityScore,
    )[0];
  const temperature = strongest
    ? `${SIGNAL_TEMPERATURE[strongest.type]} (${SIGNAL_LABELS[strongest.type]})`
    : 'no signal';
  const unknown = input.unknownFacts.length
    ? ` (may match your profile: ${input.unknownFacts.join(', ')} unknown)`
    : '';
  const { action } = input;
  if (action.kind === 'direct') return `${temperature}${unknown}: direct message, ${action.because}`;
  const former = action.formerClientAt ? `a former client now at ${action.formerClientAt}` : null;
  const whom = action.ownerName
    ? `${action.ownerName}, account owner of ${action.connectorName}${former ? ` (${former})` : ''},`
    : former
      ? `${action.connectorName}, ${former},`
      : action.connectorName;
  return `${temperature}${unknown}: ask ${whom} for an intro (proximity ${action.proximity})`;
}

/** Why the candidate cannot be recommended to this user at all, before choosing how to act. */
function exclusion(candidate: Candidate, context: RunContext): string | null {
  if (candidate.crmClient) return 'CRM client';
  if (candidate.competitor) return 'competitor excluded by the targeting scheme';
  const assignees = candidate.accountUserIds;
  if (assignees && assignees.length > 0 && !assignees.includes(context.userId)) {
    return 'account assigned to teammates';
  }
  if (candidate.row.signals.length === 0) return 'no signal to justify an action';
  if (within(candidate.lastSkippedAt, SKIP_COOLDOWN_DAYS, context.now)) {
    return `skipped in the last ${SKIP_COOLDOWN_DAYS} days`;
  }
  if (within(candidate.lastContactedAt, CONTACT_COOLDOWN_DAYS, context.now)) {
    return `contacted in the last ${CONTACT_COOLDOWN_DAYS} days`;
  }
  return null;
}

type Choice =
  | { kind: 'direct'; why: string }
  | {
      kind: 'ask';
      connectorId: string;
      name: string;
      /** A client ally's contact owner: the one the request goes to. */
      ownerName: string | null;
      proximity: number;
      source: WarmIntroSource;
      /** Where a past client asked works now. */
      formerClientAt: string | null;
    }
  | { kind: 'none'; why: string };

/**
 * A past client or somebody the user knows is messaged directly; anyone else through the closest
 * colleague or ally who can still be asked this week (never the user themself).
 */
function chooseAction(candidate: Candidate, context: RunContext): Choice {
  const { row } = candidate;
  if (row.signals.some((signal) => signal.type === 'PAST_CLIENT')) return { kind: 'direct', why: 'a past client' };
  if (row.connectors.some((connector) => connector.isCurrentUser)) return { kind: 'direct', why: 'you know them' };
  const connectors = [
    ...row.connectors.map((connector) => ({
      id: connector.id,
      name: connector.fullName,
      ownerName: null,
      proximity: connector.proximity,
      source: 'connector' as const,
      formerClientAt: null,
    })),
    ...row.clientsConnected
      .filter((ally) => !context.unreachableAllies.has(ally.id))
      .map((ally) => ({
        id: ally.id,
        name: ally.name,
        ownerName: ally.contactOwner?.fullName ?? null,
        proximity: ally.proximity,
        source: 'client' as const,
        formerClientAt: context.formerClients.get(ally.id) ?? null,
      })),
  ].sort((a, b) => b.proximity - a.proximity || a.id.localeCompare(b.id));
  if (connectors.length === 0) return { kind: 'none', why: 'nobody to ask for an intro' };
  const available = connectors.find(
    (connector) =>
      (context.connectorLoad.get(connector.id) ?? 0) <
      (context.connectorCaps.get(connector.id) ?? context.weeklyIntroCap),
  );
  if (!available) {
    return { kind: 'none', why: `every connector is at the weekly intro cap (${context.weeklyIntroCap})` };
  }
  return {
    kind: 'ask',
    connectorId: available.id,
    name: available.name,
    ownerName: available.ownerName,
    proximity: available.proximity,
    source: available.source,
    formerClientAt: available.formerClientAt,
  };
}

/**
 * Decides the candidates in rank order until the user's slots are filled; the ones after that are
 * not decided (the next run looks at them again). Kept asks count against their connector's load at
 * once, so one run never plans more requests to a person than the cap allows.
 */
export function decide(candidates: readonly Candidate[], context: RunContext): Decision[] {
  const decisions: Decision[] = [];
  for (const candidate of [...candidates].sort(compareCandidates)) {
    if (context.slots <= 0) break;
    const excluded = exclusion(candidate, context);
    if (excluded) {
      decisions.push({ candidate, outcome: 'dropped', reason: excluded });
      continue;
    }
    const choice = chooseAction(candidate, context);
    if (choice.kind === 'none') {
      decisions.push({ candidate, outcome: 'dropped', reason: choice.why });
      continue;
    }
    const assignees = candidate.accountUserIds?.length ? candidate.accountUserIds : [context.userId];
    const base = {
      recommendationUsers: [...new Set(assignees)].sort(),
      temperature: temperatureRank(candidate.row.signals),
      proximity: candidate.row.proximity,
    };
    const why = (action: WhyAction) =>
      recommendationWhy({ signals: candidate.row.signals, unknownFacts: candidate.unknownFacts, action });
    if (choice.kind === 'direct') {
      decisions.push({
        candidate,
        outcome: 'kept',
        reason: why({ kind: 'direct', because: choice.why }),
        action: { ...base, type: 'DIRECT_MESSAGE', connectorId: null, source: null },
      });
    } else {
      context.connectorLoad.set(choice.connectorId, (context.connectorLoad.get(choice.connectorId) ?? 0) + 1);
      decisions.push({
        candidate,
        outcome: 'kept',
        reason: why({
          kind: 'ask',
          connectorName: choice.name,
          ownerName: choice.ownerName,
          proximity: choice.proximity,
          formerClientAt: choice.formerClientAt,
        }),
        action: { ...base, type: 'ask-intro', connectorId: choice.connectorId, source: choice.source },
      });
    }
    context.slots -= 1;
  }
  return decisions;
}
