import { describe, expect, it } from 'vitest';
import { formatActivity, tagColor, tagLabel, tagSuggestions } from './clientDisplay.ts';

describe('tag colours', () => {
  it('gives ally, internal, client and investor a colour each, whatever the case', () => {
    const colours = ['ally', 'internal', 'client', 'investor'].map(tagColor);
    expect(new Set(colours).size).toBe(4);
    expect(tagColor('Ally')).toBe(tagColor('ally'));
    expect(tagColor(' CLIENT ')).toBe(tagColor('client'));
  });

  it('gives any other tag, and none, the default colour', () => {
    expect(tagColor('Partner')).toBe('gray');
    expect(tagColor(null)).toBe('gray');
    expect(tagColor('')).toBe('gray');
    expect(['ally', 'internal', 'client', 'investor'].map(tagColor)).not.toContain('gray');
  });

  it("reads 'Unknown' when the tag is missing", () => {
    expect(tagLabel(null)).toBe('Unknown');
    expect(tagLabel(undefined)).toBe('Unknown');
    expect(tagLabel('  ')).toBe('Unknown');
    expect(tagLabel('Investor')).toBe('Investor');
  });
});

describe('tag suggestions', () => {
  it("offers the spec's tags, then the workspace's, once each whatever the case", () => {
    expect(tagSuggestions(['ally', 'Board', ' board '], '')).toEqual([
      'Client',
      'Ally',
      'Investor',
      'Partner',
      'Freelancer',
      'Board',
    ]);
  });

  it('keeps those matching what is typed', () => {
    expect(tagSuggestions(['Advisor'], 'in')).toEqual(['Investor']);
    expect(tagSuggestions(['Advisor'], 'ADV')).toEqual(['Advisor']);
  });
});

describe('last activity', () => {
  it('reads the date, or that nothing happened yet', () => {
    expect(formatActivity('2026-03-09T12:00:00.000Z')).toBe('Mar 9, 2026');
    expect(formatActivity(null)).toBe('No activity yet');
  });
});
