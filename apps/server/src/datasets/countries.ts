import { createRequire } from 'node:module';
import type { TCountry } from '@warmpath/shared';

type WorldCountry = { name: { common: string }; flag: string; cca2: string; region: string; subregion: string };

const require = createRequire(import.meta.url);

/** Europe and North America (spec section 7), from the offline `world-countries` dataset, by name. */
export const COUNTRIES: TCountry[] = (require('world-countries/countries.json') as WorldCountry[])
  .filter((country) => country.region === 'Europe' || country.subregion === 'North America')
  .map((country) => ({ name: country.name.common, flag: country.flag, countryCode: country.cca2 }))
  .sort((a, b) => a.name.localeCompare(b.name));
