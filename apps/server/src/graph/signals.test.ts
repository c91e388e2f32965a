import { SIGNAL_DEFINITIONS, SIGNAL_TYPES, signalBit, signalMaskOf } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { buildSignals, SIGNAL_RULES, type SignalEdge, temperatureRank } from './signals.ts';

const edge = (overrides: Partial<SignalEdge>): SignalEdge => ({
  connectorId: 'c',
  connectorName: 'Jane Doe',
  colleague: true,
  proximity: 50,
  signalMask: 0,
  tag: null,
  ...overrides,
});
const facts = (mask: number, edges: SignalEdge[] = []) => ({
  prospectId: 'p',
  mask,
  edges,
  pageViews: 7,
  lastVisitAt: '2026-11-24T09:30:00.000Z',
  pastCompanyName: 'Oldco',
  newCompanyName: 'Newco',
});

describe('signals', () => {
  it('gives every signal no relationship scores a fixed score in the registry', () => {
    for (const type of SIGNAL_TYPES) {
      if (SIGNAL_RULES[type].source !== 'edge') expect(SIGNAL_DEFINITIONS[type].score, type).toBeGreaterThan(0);
    }
  });

  it('scores a relationship signal by its best qualifying edge, and names a client ally’s tag', () => {
    const mask = signalMaskOf(['ALREADY_MET_COLLEAGUE', 'CONNECTED_WITH_CLIENT']);
    const signals = buildSignals(
      facts(mask, [
        edge({ signalMask: signalBit('ALREADY_MET_COLLEAGUE'), proximity: 60 }),
        edge({ signalMask: signalBit('ALREADY_MET_COLLEAGUE'), proximity: 80, connectorName: 'Bob Stone' }),
        // Closer, but it qualifies for another signal only.
        edge({ signalMask: signalBit('WORKED_WITH_COLLEAGUE'), proximity: 95, connectorName: 'Cy Other' }),
        edge({
          colleague: false,
          signalMask: signalBit('CONNECTED_WITH_CLIENT'),
          proximity: 15,
          tag: 'investor',
          connectorName: 'Ivy Investor',
        }),
      ]),
    );
    expect(signals).toEqual([
      {
        id: 'p:ALREADY_MET_COLLEAGUE',
        type: 'ALREADY_MET_COLLEAGUE',
        proximityScore: 80,
        metadata: { connectorName: 'Bob Stone' },
      },
      {
        id: 'p:CONNECTED_WITH_CLIENT',
        type: 'CONNECTED_WITH_CLIENT',
        proximityScore: 15,
        metadata: { connectorName: 'Ivy Investor', customTag: 'investor' },
      },
    ]);
  });

  it('carries a past client’s old and new companies, and page views for visits, strongest first', () => {
    const signals = buildSignals(facts(signalMaskOf(['PAST_CLIENT', 'VISITED_WEBSITE', 'VISITED_PRICING_PAGE'])));
    expect(signals.map((signal) => [signal.type, signal.proximityScore])).toEqual([
      ['PAST_CLIENT', 90],
      ['VISITED_PRICING_PAGE', 80],
      ['VISITED_WEBSITE', 50],
    ]);
    expect(signals[0]?.metadata).toEqual({ pastCompanyName: 'Oldco', newCompanyName: 'Newco' });
    expect(signals[1]?.metadata).toEqual({ pageViews: 7, lastVisitAt: '2026-11-24T09:30:00.000Z' });
  });

  it('ranks by the warmest signal: warm, then medium, then cold, then none', () => {
    const rank = (mask: number) => temperatureRank(buildSignals(facts(mask)));
    expect(rank(signalMaskOf(['CONNECTED_WITH_COLLEAGUE', 'VISITED_WEBSITE']))).toBe(0);
    expect(rank(signalMaskOf(['WORKED_WITH_COLLEAGUE', 'CONNECTED_WITH_COLLEAGUE']))).toBe(1);
    expect(rank(signalMaskOf(['CONNECTED_WITH_COLLEAGUE']))).toBe(2);
    expect(rank(0)).toBe(3);
  });
});
