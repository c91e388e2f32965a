/**
 * The other companies of a world (names in several styles, domains, countries, sizes, address
 * patterns), the user's own company and time zone, and the newsletters companies send.
 */
import { capitalize, nameParts, slug } from './names.ts';
import type { Random } from './random.ts';
import { YEAR } from './time.ts';
import {
  COUNTRIES,
  CULTURES,
  DEFAULT_TIME_ZONES,
  FREE_MAIL_DOMAINS,
  INDUSTRIES,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  PLACES,
  SIZE_BUCKETS,
  TIME_ZONES,
} from './words.ts';
import type { Company, NewsletterSender } from './world.ts';

export function userCompanyName(domain: string): string | null {
  if (FREE_MAIL_DOMAINS.includes(domain) || /^(gmail|googlemail|outlook|hotmail|yahoo|icloud)\./.test(domain)) {
    return null;
  }
  const label = domain.split('.')[0] ?? domain;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((part) => capitalize(part))
    .join(' ');
}

export function timeZoneFor(domain: string, random: Random): string {
  for (const [suffix, zone] of TIME_ZONES) if (domain.endsWith(`.${suffix}`)) return zone;
  return random.pick(DEFAULT_TIME_ZONES);
}

export function generateCompanies(random: Random, count: number, taken: Set<string>): Company[] {
  const companies: Company[] = [];
  const names = new Set<string>();
  const cultureFamilies = CULTURES.filter((culture) => !culture.familyFirst).flatMap((culture) =>
    culture.family.map((entry) => nameParts(entry)[0]),
  );
  let attempts = 0;
  while (companies.length < count && attempts < count * 20) {
    attempts++;
    const industry = random.pick(INDUSTRIES);
    const [tld, legal] = random.weighted(COUNTRIES.map(([t, l, w]) => [[t, l] as const, w] as const));
    const size = random.weighted(SIZE_BUCKETS.map(([bucket, weight]) => [bucket, weight] as const));
    const word = random.pick(industry.words);
    const style = random.weighted([
      ['compound', 30],
      ['compound+word', 18],
      ['place', 16],
      ['family', 12],
      ['acronym', 8],
      ['prefix+word', 12],
      ['partners', 4],
    ] as const);
    let core: string;
    let domainCore: string;
    switch (style) {
      case 'compound': {
        core = random.pick(NAME_PREFIXES) + random.pick(NAME_SUFFIXES);
        domainCore = slug(core);
        break;
      }
      case 'compound+word': {
        const stem = random.pick(NAME_PREFIXES) + random.pick(NAME_SUFFIXES);
        core = `${stem} ${word}`;
        domainCore = random.chance(0.5) ? slug(stem) : slug(core);
        break;
      }
      case 'place': {
        const place = random.pick(PLACES);
        core = `${place} ${word}`;
        domainCore = random.chance(0.3) ? `${slug(place)}-${slug(word)}` : slug(core);
        break;
      }
      case 'family': {
        const family = random.pick(cultureFamilies);
        core = `${family} ${word}`;
        domainCore = random.chance(0.5) ? `${slug(family)}-${slug(word)}` : slug(core);
        break;
      }
      case 'acronym': {
        const letters = 'ABCDEFGHJKLMNPRSTVW';
        let acronym = '';
        for (let i = random.int(2, 4); i > 0; i--) acronym += letters[random.int(0, letters.length - 1)];
        core = `${acronym} ${word}`;
        domainCore = random.chance(0.5) ? slug(acronym) + slug(word).slice(0, 6) : slug(core);
        break;
      }
      case 'prefix+word': {
        const prefix = random.pick(NAME_PREFIXES);
        core = `${prefix} ${word}`;
        domainCore = slug(core);
        break;
      }
      default: {
        const first = random.pick(cultureFamilies);
        const second = random.pick(cultureFamilies);
        core = `${first} & ${second}`;
        domainCore = `${slug(first)}${slug(second)}`;
      }
    }
    if (names.has(core) || domainCore.length < 3) continue;
    let domain = `${domainCore}.${tld}`;
    if (taken.has(domain)) domain = `${domainCore}${random.pick(['hq', 'group', 'global', 'app'])}.${tld}`;
    if (taken.has(domain)) continue;
    names.add(core);
    taken.add(domain);
    const name = legal && random.chance(0.35) ? `${core} ${legal}` : core;
    companies.push({
      index: companies.length,
      name,
      domain,
      industry: industry.name,
      size,
      products: industry.products,
      pattern: random.weighted([
        ['first.last', 50],
        ['first', 18],
        ['flast', 16],
        ['firstl', 8],
        ['first_last', 8],
      ] as const),
    });
  }
  return companies;
}

/** Newsletters and notifications: one-way mail from companies, at a cadence, some stopped since. */
export function generateNewsletters(
  newsletterRandom: Random,
  count: number,
  companies: readonly Company[],
  usedEmails: Set<string>,
  origin: number,
  anchor: number,
): NewsletterSender[] {
  const newsletters: NewsletterSender[] = [];
  for (let i = 0; i < count && companies.length > 0; i++) {
    const company = newsletterRandom.pick(companies);
    const localName = newsletterRandom.pick(['news', 'hello', 'updates', 'no-reply', 'team', 'events', 'newsletter']);
    const host = newsletterRandom.chance(0.3)
      ? `${newsletterRandom.pick(['e', 'mail', 'news'])}.${company.domain}`
      : company.domain;
    const address = `${localName}@${host}`;
    if (usedEmails.has(address)) continue;
    usedEmails.add(address);
    const start = origin + Math.floor(newsletterRandom.next() * 2.6 * YEAR);
    newsletters.push({
      name: newsletterRandom.chance(0.3)
        ? `${nameParts(newsletterRandom.pick(CULTURES[0]?.given ?? ['Sam']))[0]} at ${company.name}`
        : company.name,
      email: address,
      company: company.index,
      cadenceDays: newsletterRandom.pick([7, 7, 14, 30, 30, 3]),
      start,
      end: newsletterRandom.chance(0.3) ? start + Math.floor(newsletterRandom.next() * (anchor - start)) : anchor,
      category: newsletterRandom.chance(0.6) ? 'CATEGORY_PROMOTIONS' : 'CATEGORY_UPDATES',
    });
  }
  return newsletters;
}
