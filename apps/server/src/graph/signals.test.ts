import { SIGNAL_TYPES } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { signalBit } from './graph.sql.ts';
import { buildSignals, type SignalEdge, temperatureRank } from './signals.ts';

const edge = (overrides: Partial<SignalEdge>): SignalEdge => ({
  connectorId: 'c',
  connectorName: 'Jane Doe',
  colleague: true,
  proximity: 50,
  meetings: 0,
  mails: 0,
  sharedMonths: 0,
  linkedin: false,
  tag: null,
  ...overrides,
});
const facts = (mask: number, edges: SignalEdge[] = []) => ({
  prospectId: 'p',
  mask,
  edges,
  pageViews: 7,
  pastCompanyName: 'Oldco',
  newCompanyName: 'Newco',
});

describe('signals', () => {
  it('gives one bit to each signal type', () => {
    const bits = SIGNAL_TYPES.map(signalBit);
    expect(new Set(bits).size).toBe(SIGNAL_TYPES.length);
  });

  it('scores a relationship signal by its best qualifying edge, and names a client ally’s tag', () => {
    const mask = signalBit('ALREADY_MET_COLLEAGUE') | signalBit('CONNECTED_WITH_CLIENT');
    const signals = buildSignals(
      facts(mask, [
        edge({ meetings: 2, proximity: 60 }),
        edge({ meetings: 1, proximity: 80, connectorName: 'Bob Stone' }),
        edge({ colleague: false, linkedin: true, proximity: 15, tag: 'investor', connectorName: 'Ivy Investor' }),
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
    const mask = signalBit('PAST_CLIENT') | signalBit('VISITED_WEBSITE') | signalBit('VISITED_PRICING_PAGE');
    const signals = buildSignals(facts(mask));
    expect(signals.map((signal) => signal.type)).toEqual(['PAST_CLIENT', 'VISITED_PRICING_PAGE', 'VISITED_WEBSITE']);
    expect(signals[0]?.metadata).toEqual({ pastCompanyName: 'Oldco', newCompanyName: 'Newco' });
    expect(signals[1]?.metadata).toEqual({ pageViews: 7 });
  });

  it('ranks by the warmest signal: warm, then medium, then cold, then none', () => {
    const rank = (mask: number) =>
      temperatureRank(buildSignals(facts(mask, [edge({ meetings: 1, sharedMonths: 3, linkedin: true })])));
    expect(rank(signalBit('CONNECTED_WITH_COLLEAGUE') | signalBit('VISITED_WEBSITE'))).toBe(0);
    expect(rank(signalBit('WORKED_WITH_COLLEAGUE') | signalBit('CONNECTED_WITH_COLLEAGUE'))).toBe(1);
    expect(rank(signalBit('CONNECTED_WITH_COLLEAGUE'))).toBe(2);
    expect(rank(0)).toBe(3);
  });
});
