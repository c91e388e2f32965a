import { describe, expect, it } from 'vitest';
import {
  ENGAGEMENT_CODE_LIMIT,
  ENGAGEMENT_DEFINITIONS,
  ENGAGEMENTS,
  engagementCode,
  engagementOfCode,
} from './enums.ts';
import {
  SIGNAL_BIT_LIMIT,
  SIGNAL_DEFINITIONS,
  SIGNAL_LABELS,
  SIGNAL_TEMPERATURE,
  SIGNAL_TEMPERATURES,
  SIGNAL_TYPES,
  SIGNALS,
  type SignalType,
  signalBit,
  signalMaskOf,
  signalsOfMask,
  temperatureMask,
} from './signals.ts';

// What the database holds, written out by hand: network rows, the cube and the in-memory copy store
// signals as these bits and engagements as these codes. Changing one changes what every stored row
// means, so a registry edit that moves one fails here. A new signal or engagement appends; a retired
// one keeps its entry, so its bit or code is never given to another.
const FROZEN_SIGNAL_BITS: Record<string, number> = {
  VISITED_MANY_PAGES: 0,
  VISITED_PRICING_PAGE: 1,
  ALREADY_MET_COLLEAGUE: 2,
  VISITED_WEBSITE: 3,
  PAST_CLIENT: 4,
  WORKED_WITH_COLLEAGUE: 5,
  WORKED_WITH_CLIENT: 6,
  CONNECTED_WITH_COLLEAGUE: 7,
  CONNECTED_WITH_CLIENT: 8,
};
const FROZEN_ENGAGEMENT_CODES: Record<string, number> = { NEVER_MET: 0, TOUCHED: 1, MET: 2 };

describe('the signal registry', () => {
  it('keeps every stored signal bit where it is', () => {
    for (const [type, bit] of Object.entries(FROZEN_SIGNAL_BITS)) {
      expect(SIGNAL_DEFINITIONS[type as SignalType]?.bit, type).toBe(bit);
    }
  });

  it('gives each signal its own bit, below 31 (masks are int4, the sign bit clear)', () => {
    const bits = SIGNALS.map((signal) => signal.bit);
    expect(new Set(bits).size).toBe(SIGNALS.length);
    expect(new Set(SIGNAL_TYPES).size).toBe(SIGNALS.length);
    for (const bit of bits) {
      expect(Number.isInteger(bit)).toBe(true);
      expect(bit).toBeGreaterThanOrEqual(0);
      expect(bit).toBeLessThan(31);
    }
  });

  it('lets a new signal only append a bit above the frozen ones', () => {
    const highest = Math.max(...Object.values(FROZEN_SIGNAL_BITS));
    for (const signal of SIGNALS.filter((entry) => !(entry.type in FROZEN_SIGNAL_BITS))) {
      expect(signal.bit, signal.type).toBeGreaterThan(highest);
    }
  });

  it('lists signals in spec section 4’s temperature groups, warm, medium, then cold', () => {
    const ranks = SIGNALS.map((signal) => SIGNAL_TEMPERATURES.indexOf(signal.temperature));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(SIGNAL_TYPES).toEqual(SIGNALS.map((signal) => signal.type));
  });

  it('derives labels, temperatures, bits and masks from the entries', () => {
    for (const signal of SIGNALS) {
      expect(SIGNAL_LABELS[signal.type]).toBe(signal.label);
      expect(SIGNAL_TEMPERATURE[signal.type]).toBe(signal.temperature);
      expect(signalBit(signal.type)).toBe(2 ** signal.bit);
    }
    expect(SIGNAL_BIT_LIMIT).toBe(Math.max(...SIGNALS.map((signal) => signal.bit)) + 1);
    expect(temperatureMask('warm')).toBe(0b000011111);
    expect(temperatureMask('medium')).toBe(0b001100000);
    expect(temperatureMask('cold')).toBe(0b110000000);
    expect(signalMaskOf(['PAST_CLIENT', 'VISITED_PRICING_PAGE'])).toBe(0b10010);
  });

  it('reads a mask of the stored layout as the same signals, in display order', () => {
    expect(signalsOfMask(0b10010)).toEqual(['VISITED_PRICING_PAGE', 'PAST_CLIENT']);
    expect(signalsOfMask(0b110100100)).toEqual([
      'ALREADY_MET_COLLEAGUE',
      'WORKED_WITH_COLLEAGUE',
      'CONNECTED_WITH_COLLEAGUE',
      'CONNECTED_WITH_CLIENT',
    ]);
    expect(signalsOfMask(0)).toEqual([]);
    // A bit no signal has (written by a newer version, say) is ignored, never misread.
    expect(signalsOfMask(1 << 30)).toEqual([]);
  });
});

describe('the engagement codes', () => {
  it('keeps every stored code where it is, each its own', () => {
    for (const [engagement, code] of Object.entries(FROZEN_ENGAGEMENT_CODES)) {
      expect(ENGAGEMENT_DEFINITIONS.find((entry) => entry.engagement === engagement)?.code, engagement).toBe(code);
    }
    expect(new Set(ENGAGEMENT_DEFINITIONS.map((entry) => entry.code)).size).toBe(ENGAGEMENT_DEFINITIONS.length);
  });

  it('grows codes with strength (the roll-up keeps the max), so a new one appends above the frozen', () => {
    const codes = ENGAGEMENT_DEFINITIONS.map((entry) => entry.code);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(ENGAGEMENTS).toEqual(['NEVER_MET', 'TOUCHED', 'MET']);
    expect(ENGAGEMENT_CODE_LIMIT).toBe(Math.max(...codes) + 1);
  });

  it('reads stored codes back as the same engagements', () => {
    expect([0, 1, 2].map(engagementOfCode)).toEqual(['NEVER_MET', 'TOUCHED', 'MET']);
    for (const engagement of ENGAGEMENTS) expect(engagementOfCode(engagementCode(engagement))).toBe(engagement);
    expect(engagementOfCode(99)).toBe('NEVER_MET');
  });
});
