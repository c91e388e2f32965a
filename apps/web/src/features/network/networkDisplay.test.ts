import { EMPTY_STATE, type TSignal, VISIBLE_AVATARS, VISIBLE_SIGNALS } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  filterSummary,
  formatPercentage,
  orderedSources,
  proximityBand,
  signalLabel,
  signalsByScore,
  splitVisible,
} from './networkDisplay.ts';

const signal = (id: string, proximityScore: number, customTag?: string): TSignal => ({
  id,
  type: 'WORKED_WITH_CLIENT',
  proximityScore,
  metadata: customTag === undefined ? {} : { customTag },
});

describe('splitVisible', () => {
  it('shows the first items and puts the rest behind +n', () => {
    expect(splitVisible(['a', 'b', 'c', 'd'], VISIBLE_AVATARS)).toEqual({ shown: ['a', 'b'], rest: ['c', 'd'] });
  });

  it('has no rest when everything fits', () => {
    expect(splitVisible(['a', 'b'], VISIBLE_AVATARS)).toEqual({ shown: ['a', 'b'], rest: [] });
    expect(splitVisible([], VISIBLE_AVATARS)).toEqual({ shown: [], rest: [] });
  });
});

describe('signalsByScore', () => {
  it('puts the highest proximity scores first, keeping ties in order, so the top ones are shown', () => {
    const sorted = signalsByScore([signal('low', 10), signal('high', 90), signal('tie-1', 50), signal('tie-2', 50)]);
    expect(sorted.map((item) => item.id)).toEqual(['high', 'tie-1', 'tie-2', 'low']);
    const { shown, rest } = splitVisible(sorted, VISIBLE_SIGNALS);
    expect(shown.map((item) => item.id)).toEqual(['high', 'tie-1']);
    expect(rest).toHaveLength(2);
  });
});

describe('signalLabel', () => {
  it('appends the custom tag when there is one', () => {
    expect(signalLabel(signal('a', 1, 'Investor'))).toBe('Worked with a client (Investor)');
    expect(signalLabel(signal('b', 1))).toBe('Worked with a client');
    expect(signalLabel(signal('c', 1, ' '))).toBe('Worked with a client');
  });
});

describe('proximityBand', () => {
  it('names the bands at their edges', () => {
    expect([0, 24, 25, 74, 75, 100].map(proximityBand)).toEqual(['Low', 'Low', 'Medium', 'Medium', 'High', 'High']);
  });
});

describe('orderedSources', () => {
  it('orders connection sources as the spec does, each once', () => {
    expect(
      orderedSources(['LINKEDIN_CONNECTION', 'GOOGLE_MAIL', 'SHARED_EXPERIENCE', 'GOOGLE_MEETING', 'GOOGLE_MAIL']),
    ).toEqual(['GOOGLE_MEETING', 'GOOGLE_MAIL', 'SHARED_EXPERIENCE', 'LINKEDIN_CONNECTION']);
  });
});

describe('formatPercentage', () => {
  it('shows a rise as +N% and a fall with its sign', () => {
    expect(formatPercentage(12.4)).toBe('+12%');
    expect(formatPercentage(0)).toBe('+0%');
    expect(formatPercentage(-3.6)).toBe('-4%');
  });
});

describe('exportFileName', () => {
  it("is the product's prefix, 'export' and a timestamp", () => {
    expect(exportFileName(new Date('2025-01-31T09:05:07.123Z'))).toBe('warmpath-export-2025-01-31T09-05-07.csv');
  });
});

describe('filterSummary', () => {
  const names: Record<string, string> = { a: 'Acme', g: 'Globex', i: 'Initech' };
  const nameOf = (key: string): string | undefined => names[key];

  it('says All, None, the names of one or two, or how many', () => {
    expect(filterSummary([], nameOf)).toBe('All');
    expect(filterSummary([EMPTY_STATE], nameOf)).toBe('None');
    expect(filterSummary(['a'], nameOf)).toBe('Acme');
    expect(filterSummary(['a', 'g'], nameOf)).toBe('Acme, Globex');
    expect(filterSummary(['a', 'g', 'i'], nameOf)).toBe('3 selected');
  });

  it('counts a choice whose name is not loaded rather than showing its id', () => {
    expect(filterSummary(['5d0c8f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f'], nameOf)).toBe('1 selected');
    expect(filterSummary(['a', '5d0c8f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f'], nameOf)).toBe('2 selected');
  });
});
