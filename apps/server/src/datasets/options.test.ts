import { describe, expect, it } from 'vitest';
import { COUNTRIES } from './countries.ts';
import { SPECIFIC_INDUSTRIES } from './industries.ts';
import { pageOfOptions } from './options.ts';
import { TECHNOLOGIES } from './technologies.ts';

describe('option datasets', () => {
  it('grow by pages of 100 and report whether more exist', () => {
    const first = pageOfOptions(SPECIFIC_INDUSTRIES, 1);
    expect(first.options).toHaveLength(100);
    expect(first.hasMore).toBe(true);
    expect(pageOfOptions(SPECIFIC_INDUSTRIES, 2).options).toHaveLength(200);
    expect(pageOfOptions(TECHNOLOGIES, 99).hasMore).toBe(false);
  });

  it('search by substring, ignoring case and accents', () => {
    const software = pageOfOptions(SPECIFIC_INDUSTRIES, 1, 'SOFTWARE');
    expect(software.options.map((option) => option.name)).toContain('Software Publishers');
    expect(pageOfOptions(TECHNOLOGIES, 1, 'hubspot').options.map((option) => option.value)).toEqual(['hubspot-crm']);
    expect(pageOfOptions([{ name: 'Crème', value: 'c' }], 1, 'creme').total).toBe(1);
  });

  it('have unique values, and countries of Europe and North America sorted by name', () => {
    for (const list of [TECHNOLOGIES, SPECIFIC_INDUSTRIES]) {
      expect(new Set(list.map((option) => option.value)).size).toBe(list.length);
    }
    const codes = COUNTRIES.map((country) => country.countryCode);
    expect(codes).toEqual(expect.arrayContaining(['FR', 'GB', 'DE', 'ES', 'UA', 'US', 'CA', 'MX']));
    expect(codes).not.toContain('JP');
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(COUNTRIES.find((country) => country.countryCode === 'FR')).toEqual({
      name: 'France',
      flag: '🇫🇷',
      countryCode: 'FR',
    });
  });
});
