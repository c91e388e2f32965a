import type { SignalType, TClientConnected, TConnector, TNetworkRow } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { type Candidate, compareCandidates, decide, type RunContext, recommendationWhy } from './recommend.ts';

const ME = '00000000-0000-4000-8000-00000000000a';
const TEAMMATE = '00000000-0000-4000-8000-00000000000b';
const NOW = new Date('2026-03-10T08:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

const colleague = (id: string, proximity: number, isCurrentUser = false): TConnector => ({
  id,
  fullName: `Colleague ${id}`,
  avatar: null,
  jobTitle: null,
  connectionSources: ['GOOGLE_MEETING'],
  proximity,
  isCurrentUser,
});
const ally = (id: string, proximity: number): TClientConnected => ({
  id,
  name: `Ally ${id}`,
  linkedinProfileImageUrl: null,
  companyName: null,
  companyLogo: null,
  jobTitle: null,
  tag: 'investor',
  contactOwner: null,
  connectionSources: ['GOOGLE_MEETING'],
  proximity,
});

function candidate(
  id: string,
  options: {
    signals?: SignalType[];
    proximity?: number;
    connectors?: TConnector[];
    allies?: TClientConnected[];
  } & Partial<Omit<Candidate, 'row'>> = {},
): Candidate {
  const {
    signals = ['ALREADY_MET_COLLEAGUE'],
    proximity = 50,
    connectors = [colleague('c1', 50)],
    allies = [],
  } = options;
  const row: TNetworkRow = {
    id,
    name: `Prospect ${id}`,
    avatar: null,
    linkedinUrl: null,
    email: null,
    companyName: null,
    companyLogo: null,
    companySize: null,
    jobTitle: null,
    engagement: 'NEVER_MET',
    connectors,
    clientsConnected: allies,
    proximity,
    signals: signals.map((type) => ({ id: `${id}:${type}`, type, proximityScore: proximity, metadata: {} })),
    introRequestedAt: null,
  };
  return {
    row,
    accountUserIds: options.accountUserIds ?? null,
    crmClient: options.crmClient ?? false,
    competitor: options.competitor ?? false,
    lastSkippedAt: options.lastSkippedAt ?? null,
    lastContactedAt: options.lastContactedAt ?? null,
    unknownFacts: options.unknownFacts ?? [],
  };
}

const context = (overrides: Partial<RunContext> = {}): RunContext => ({
  userId: ME,
  now: NOW,
  weeklyIntroCap: 3,
  connectorCaps: new Map(),
  connectorLoad: new Map(),
  unreachableAllies: new Set(),
  formerClients: new Map(),
  slots: 10,
  ...overrides,
});

const kept = (decisions: ReturnType<typeof decide>) =>
  decisions.flatMap((decision) => (decision.outcome === 'kept' ? [decision] : []));
const outcomes = (decisions: ReturnType<typeof decide>) =>
  Object.fromEntries(decisions.map((decision) => [decision.candidate.row.id, decision.reason]));

describe('ranking', () => {
  it('puts warm before medium before cold, then the closest first', () => {
    const cold = candidate('cold', { signals: ['CONNECTED_WITH_COLLEAGUE'], proximity: 95 });
    const medium = candidate('medium', { signals: ['WORKED_WITH_COLLEAGUE'], proximity: 90 });
    const warmFar = candidate('warm-far', { signals: ['VISITED_WEBSITE'], proximity: 10 });
    const warmNear = candidate('warm-near', { signals: ['PAST_CLIENT', 'CONNECTED_WITH_CLIENT'], proximity: 60 });
    const ranked = [cold, medium, warmFar, warmNear].sort(compareCandidates).map((c) => c.row.id);
    expect(ranked).toEqual(['warm-near', 'warm-far', 'medium', 'cold']);
  });

  it('puts a past client first within their temperature, however close the others are', () => {
    const metClose = candidate('met-close', { signals: ['ALREADY_MET_COLLEAGUE'], proximity: 95 });
    const pastClient = candidate('past-client', { signals: ['PAST_CLIENT'], proximity: 12 });
    const medium = candidate('medium', { signals: ['WORKED_WITH_COLLEAGUE'], proximity: 99 });
    const ranked = [medium, metClose, pastClient].sort(compareCandidates).map((c) => c.row.id);
    expect(ranked).toEqual(['past-client', 'met-close', 'medium']);
  });

  it('decides in rank order and stops once the day is full', () => {
    const decisions = decide(
      [
        candidate('cold', { signals: ['CONNECTED_WITH_COLLEAGUE'], proximity: 95 }),
        candidate('warm', { signals: ['ALREADY_MET_COLLEAGUE'], proximity: 20 }),
        candidate('medium', { signals: ['WORKED_WITH_COLLEAGUE'], proximity: 40 }),
      ],
      context({ slots: 2 }),
    );
    expect(decisions.map((decision) => decision.candidate.row.id)).toEqual(['warm', 'medium']);
    expect(kept(decisions).map((decision) => decision.action.temperature)).toEqual([0, 1]);
  });

  it('keeps a prospect whose company facts are unknown, after the known matches, and says why', () => {
    const decisions = decide(
      [
        candidate('unknown-warm', { signals: ['ALREADY_MET_COLLEAGUE'], unknownFacts: ['company size', 'country'] }),
        candidate('known-cold', { signals: ['CONNECTED_WITH_COLLEAGUE'] }),
      ],
      context(),
    );
    expect(kept(decisions).map((decision) => decision.candidate.row.id)).toEqual(['known-cold', 'unknown-warm']);
    expect(outcomes(decisions)['unknown-warm']).toContain('may match your profile: company size, country unknown');
  });
});

describe('exclusions and cooldowns', () => {
  it('drops CRM clients, competitors, teammates’ accounts and prospects without a signal', () => {
    const decisions = decide(
      [
        candidate('crm', { crmClient: true }),
        candidate('competitor', { competitor: true }),
        candidate('theirs', { accountUserIds: [TEAMMATE] }),
        candidate('silent', { signals: [] }),
      ],
      context(),
    );
    expect(outcomes(decisions)).toEqual({
      crm: 'CRM client',
      competitor: 'competitor excluded by the targeting scheme',
      theirs: 'account assigned to teammates',
      silent: 'no signal to justify an action',
    });
  });

  it('keeps a skipped prospect out for 30 days, and a contacted one for 30 days', () => {
    const decisions = decide(
      [
        candidate('skipped-29', { lastSkippedAt: daysAgo(29.9) }),
        candidate('skipped-30', { lastSkippedAt: daysAgo(30) }),
        candidate('contacted-29', { lastContactedAt: daysAgo(29.9) }),
        candidate('contacted-30', { lastContactedAt: daysAgo(30) }),
      ],
      context(),
    );
    expect(outcomes(decisions)).toMatchObject({
      'skipped-29': 'skipped in the last 30 days',
      'contacted-29': 'contacted in the last 30 days',
    });
    expect(kept(decisions).map((decision) => decision.candidate.row.id)).toEqual(['contacted-30', 'skipped-30']);
  });
});

describe('the action', () => {
  it('messages a past client, or somebody the user knows, directly', () => {
    const decisions = decide(
      [
        candidate('moved', { signals: ['PAST_CLIENT'], connectors: [] }),
        candidate('known', { connectors: [colleague('me', 80, true), colleague('c1', 90)] }),
      ],
      context(),
    );
    expect(kept(decisions).map((decision) => [decision.candidate.row.id, decision.action.type])).toEqual([
      ['moved', 'DIRECT_MESSAGE'],
      ['known', 'DIRECT_MESSAGE'],
    ]);
    expect(outcomes(decisions).moved).toBe('warm (Past client): direct message, a past client');
  });

  it('asks the closest colleague or ally who can be e-mailed', () => {
    const decisions = decide(
      [
        candidate('via-ally', { proximity: 70, connectors: [colleague('c1', 30)], allies: [ally('a1', 70)] }),
        candidate('unreachable', { proximity: 60, connectors: [colleague('c2', 20)], allies: [ally('a2', 90)] }),
      ],
      context({ unreachableAllies: new Set(['a2']) }),
    );
    expect(
      kept(decisions).map((decision) => [
        decision.candidate.row.id,
        decision.action.connectorId,
        decision.action.source,
      ]),
    ).toEqual([
      ['via-ally', 'a1', 'client'],
      ['unreachable', 'c2', 'connector'],
    ]);
  });

  it('says why in one line: the warmest signal and the path, through an ally’s account owner too', () => {
    const owned: TClientConnected = {
      ...ally('a1', 60),
      contactOwner: { id: '00000000-0000-4000-8000-0000000000c1', fullName: 'Owner Olga', avatar: null },
    };
    const decisions = decide(
      [
        candidate('through-owner', {
          signals: ['CONNECTED_WITH_CLIENT', 'VISITED_PRICING_PAGE'],
          proximity: 60,
          connectors: [],
          allies: [owned],
          unknownFacts: ['company size'],
        }),
      ],
      context(),
    );
    expect(outcomes(decisions)['through-owner']).toBe(
      'warm (Visited pricing page) (may match your profile: company size unknown): ask Owner Olga, account owner of Ally a1, for an intro (proximity 60)',
    );
    expect(
      recommendationWhy({
        signals: [],
        unknownFacts: [],
        action: { kind: 'ask', connectorName: 'Colleague c1', ownerName: null, proximity: 42 },
      }),
    ).toBe('no signal: ask Colleague c1 for an intro (proximity 42)');
  });

  it('says when the ally asked is a former client now at the prospect’s company', () => {
    const decisions = decide(
      [
        candidate('new-colleague', {
          signals: ['WORKED_WITH_CLIENT'],
          proximity: 10,
          connectors: [],
          allies: [ally('a1', 10)],
        }),
      ],
      context({ formerClients: new Map([['a1', 'Newco']]) }),
    );
    expect(kept(decisions).map((decision) => [decision.action.type, decision.action.connectorId])).toEqual([
      ['ask-intro', 'a1'],
    ]);
    expect(outcomes(decisions)['new-colleague']).toBe(
      'medium (Worked with a client): ask Ally a1, a former client now at Newco, for an intro (proximity 10)',
    );
    expect(
      recommendationWhy({
        signals: [],
        unknownFacts: [],
        action: {
          kind: 'ask',
          connectorName: 'Tina',
          ownerName: 'Owner Olga',
          proximity: 5,
          formerClientAt: 'Newco',
        },
      }),
    ).toBe(
      'no signal: ask Owner Olga, account owner of Tina (a former client now at Newco), for an intro (proximity 5)',
    );
  });

  it('is for the assignees of the prospect’s account, else for the user it was made for', () => {
    const decisions = decide(
      [candidate('shared', { accountUserIds: [TEAMMATE, ME] }), candidate('mine', { proximity: 10 })],
      context(),
    );
    expect(kept(decisions).map((decision) => decision.action.recommendationUsers)).toEqual([
      [ME, TEAMMATE].sort(),
      [ME],
    ]);
  });
});

describe('the weekly intro cap', () => {
  it('passes over a connector at the cap, and counts the asks it plans', () => {
    const load = new Map([['c1', 1]]);
    const decisions = decide(
      [
        candidate('p1', { proximity: 90, connectors: [colleague('c1', 90), colleague('c2', 10)] }),
        candidate('p2', { proximity: 80, connectors: [colleague('c1', 80), colleague('c2', 10)] }),
        candidate('p3', { proximity: 70, connectors: [colleague('c1', 70)] }),
      ],
      context({ weeklyIntroCap: 2, connectorLoad: load }),
    );
    expect(decisions.map((decision) => [decision.candidate.row.id, decision.reason])).toEqual([
      ['p1', 'warm (Already met a colleague): ask Colleague c1 for an intro (proximity 90)'],
      ['p2', 'warm (Already met a colleague): ask Colleague c2 for an intro (proximity 10)'],
      ['p3', 'every connector is at the weekly intro cap (2)'],
    ]);
    expect(Object.fromEntries(load)).toEqual({ c1: 2, c2: 1 });
  });

  it("never asks a member who said 'Don't ask me for intros', and follows a member's own cap", () => {
    const decisions = decide(
      [
        candidate('p1', { proximity: 90, connectors: [colleague('c1', 90), colleague('c2', 10)] }),
        candidate('p2', { proximity: 80, connectors: [colleague('c2', 80)] }),
      ],
      context({
        connectorCaps: new Map([
          ['c1', 0],
          ['c2', 1],
        ]),
      }),
    );
    expect(decisions.map((decision) => [decision.candidate.row.id, decision.reason])).toEqual([
      ['p1', 'warm (Already met a colleague): ask Colleague c2 for an intro (proximity 10)'],
      ['p2', 'every connector is at the weekly intro cap (3)'],
    ]);
  });
});
