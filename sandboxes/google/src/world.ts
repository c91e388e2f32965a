/**
 * The generated world of one sandbox user: their company and colleagues, a few hundred other companies
 * of every size and industry, the people there, and the user's relationship with each person.
 * Everything is drawn from a generator seeded by the e-mail address.
 */
import { createRandom, type Random } from './random.ts';
import { DAY, startOfUtcDay, YEAR } from './time.ts';
import {
  COUNTRIES,
  CULTURES,
  type Culture,
  DEFAULT_TIME_ZONES,
  FREE_MAIL_DOMAINS,
  INDUSTRIES,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  PLACES,
  SIZE_BUCKETS,
  TIME_ZONES,
  TITLES,
} from './words.ts';

export type WorldSize = {
  messages: number;
  events: number;
  companies: number;
  /** People outside the user's company the user has some relationship with. */
  people: number;
  colleagues: number;
  newsletters: number;
};

export const DEFAULT_SIZE: WorldSize = {
  messages: 3000,
  events: 600,
  companies: 300,
  people: 900,
  colleagues: 40,
  newsletters: 30,
};
export const LARGE_SIZE: WorldSize = {
  messages: 30_000,
  events: 3000,
  companies: 600,
  people: 4000,
  colleagues: 150,
  newsletters: 60,
};
export const EMPTY_SIZE: WorldSize = { messages: 0, events: 0, companies: 0, people: 0, colleagues: 0, newsletters: 0 };

/** `+large` in the local part: about 30,000 messages; `+empty`: a brand-new account. */
export function sizeForEmail(email: string): WorldSize {
  const local = email.split('@')[0] ?? '';
  if (local.includes('+empty')) return EMPTY_SIZE;
  if (local.includes('+large')) return LARGE_SIZE;
  return DEFAULT_SIZE;
}

export type Company = {
  index: number;
  name: string;
  domain: string;
  industry: string;
  size: string;
  /** Products and topics to talk about. */
  products: readonly string[];
  /** How this company writes addresses. */
  pattern: 'first.last' | 'first' | 'flast' | 'firstl' | 'first_last';
};

export type RelationshipKind =
  | 'self'
  | 'colleague'
  | 'core'
  | 'active'
  | 'faded'
  | 'occasional'
  | 'metOnce'
  | 'coldIn'
  | 'coldOut'
  | 'groupOnly'
  | 'personal'
  | 'contactOnly';

export type Address = { name: string; email: string };

export type Person = {
  index: number;
  givenName: string;
  familyName: string;
  displayName: string;
  culture: string;
  /** Current address. */
  email: string;
  /** Current company (index); null for colleagues (the user's own company) and at free mailbox providers. */
  company: number | null;
  title: string;
  /** A job change: before `changedAt` the person wrote from `formerEmail` at `formerCompany`. */
  formerEmail?: string;
  formerCompany?: number;
  formerTitle?: string;
  changedAt?: number;
  /** UTC offset (minutes) for their Date headers. */
  offset: number;
  kind: RelationshipKind;
  /** The relationship's active window. */
  start: number;
  end: number;
  /** Relative mail and meeting intensity within the window. */
  mailWeight: number;
  meetWeight: number;
  /** Saved in the user's contacts (a People connection). */
  saved: boolean;
  /** Has no e-mail in the contact book (phone only). */
  phone?: string;
  /** The colleague the user reports to. */
  manager?: boolean;
  /** Display names written "Last, First" (quoted, with a comma) by their mailer. */
  lastFirst: boolean;
};

export type NewsletterSender = {
  name: string;
  email: string;
  company: number;
  cadenceDays: number;
  start: number;
  end: number;
  category: 'CATEGORY_PROMOTIONS' | 'CATEGORY_UPDATES';
};

export type World = {
  email: string;
  seed: string;
  size: WorldSize;
  /** Generation is anchored at the start of the current UTC day: the same day gives the same world. */
  anchor: number;
  /** About three years before the anchor. */
  origin: number;
  timeZone: string;
  userCompany: { name: string | null; domain: string };
  companies: Company[];
  /** Index 0 is the user. */
  people: Person[];
  newsletters: NewsletterSender[];
  /** A stable numeric Google account id for the user (the `sub` of id tokens). */
  accountId: string;
};

const capitalize = (word: string) => (word ? word[0]?.toUpperCase() + word.slice(1).toLowerCase() : word);

const SPECIAL_ASCII: Record<string, string> = {
  ø: 'o',
  Ø: 'O',
  æ: 'ae',
  Æ: 'AE',
  ß: 'ss',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
  œ: 'oe',
  Œ: 'OE',
  ı: 'i',
};

/** ASCII letters for an address: accents stripped, special letters spelled out. */
export function asciiFold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øØæÆßłŁđĐþÞðÐœŒı]/g, (char) => SPECIAL_ASCII[char] ?? char);
}

const slug = (text: string) =>
  asciiFold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

function nameParts(entry: string | readonly [string, string]): [string, string] {
  return typeof entry === 'string' ? [entry, entry] : [entry[0], entry[1]];
}

type DrawnName = { given: string; family: string; asciiGiven: string; asciiFamily: string; display: string };

function drawName(random: Random, culture: Culture): DrawnName {
  const [given, asciiGiven] = nameParts(random.pick(culture.given));
  const [family, asciiFamily] = nameParts(random.pick(culture.family));
  const display = culture.familyFirst ? `${family}${given}` : `${given} ${family}`;
  return { given, family, asciiGiven: asciiFold(asciiGiven), asciiFamily: asciiFold(asciiFamily), display };
}

function localPart(pattern: Company['pattern'], name: DrawnName): string {
  const first = slug(name.asciiGiven);
  const last = slug(name.asciiFamily);
  switch (pattern) {
    case 'first':
      return first;
    case 'flast':
      return `${first[0] ?? 'x'}${last}`;
    case 'firstl':
      return `${first}${last[0] ?? 'x'}`;
    case 'first_last':
      return `${first}_${last}`;
    default:
      return `${first}.${last}`;
  }
}

/** The user's own name, read from the address when it looks like one (jane.doe@ -> Jane Doe). */
function userName(local: string, random: Random): { given: string; family: string } {
  const base = (local.split('+')[0] ?? local).replace(/[0-9]/g, '');
  const parts = base.split(/[._-]+/).filter((part) => /^[a-z]{2,}$/i.test(part));
  if (parts.length >= 2)
    return { given: capitalize(parts[0] ?? ''), family: capitalize(parts[parts.length - 1] ?? '') };
  const anglo = CULTURES[0];
  const family = anglo ? nameParts(random.pick(anglo.family))[0] : 'Doe';
  if (parts.length === 1) return { given: capitalize(parts[0] ?? ''), family };
  return { given: anglo ? nameParts(random.pick(anglo.given))[0] : 'Alex', family };
}

function userCompanyName(domain: string): string | null {
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

function timeZoneFor(domain: string, random: Random): string {
  for (const [suffix, zone] of TIME_ZONES) if (domain.endsWith(`.${suffix}`)) return zone;
  return random.pick(DEFAULT_TIME_ZONES);
}

function drawTitle(random: Random): string {
  const level = random.weighted([
    ['executive', 8],
    ['vp', 17],
    ['manager', 35],
    ['staff', 40],
  ] as const);
  return random.pick(TITLES[level]);
}

function generateCompanies(random: Random, count: number, taken: Set<string>): Company[] {
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

type KindPlan = {
  kind: RelationshipKind;
  share: number;
};

const KIND_PLAN: readonly KindPlan[] = [
  { kind: 'core', share: 4 },
  { kind: 'active', share: 9 },
  { kind: 'faded', share: 14 },
  { kind: 'occasional', share: 21 },
  { kind: 'metOnce', share: 9 },
  { kind: 'coldIn', share: 12 },
  { kind: 'coldOut', share: 9 },
  { kind: 'groupOnly', share: 13 },
  { kind: 'personal', share: 4 },
  { kind: 'contactOnly', share: 5 },
];

export function generateWorld(rawEmail: string, now: number, sizeOverride?: WorldSize): World {
  const email = rawEmail.trim().toLowerCase();
  const seed = `google-sandbox:${email}`;
  const size = sizeOverride ?? sizeForEmail(email);
  const random = createRandom(`${seed}:world`);
  const anchor = startOfUtcDay(now);
  const origin = anchor - 3 * YEAR;
  const [local = 'user', domain = 'example.com'] = email.split('@');
  const companyName = userCompanyName(domain);
  const timeZone = timeZoneFor(domain, random);

  const taken = new Set<string>([domain, ...FREE_MAIL_DOMAINS]);
  const companies = generateCompanies(random.fork('companies'), size.companies, taken);
  const usedEmails = new Set<string>([email]);

  const uniqueEmail = (localName: string, at: string) => {
    let candidate = `${localName}@${at}`;
    for (let n = 2; usedEmails.has(candidate); n++) candidate = `${localName}${n}@${at}`;
    usedEmails.add(candidate);
    return candidate;
  };

  const me = userName(local, random);
  const people: Person[] = [
    {
      index: 0,
      givenName: me.given,
      familyName: me.family,
      displayName: `${me.given} ${me.family}`,
      culture: 'anglo',
      email,
      company: null,
      title: 'Account Executive',
      offset: 0,
      kind: 'self',
      start: origin,
      end: anchor,
      mailWeight: 0,
      meetWeight: 0,
      saved: false,
      lastFirst: false,
    },
  ];

  const cultureWeights = CULTURES.map((culture) => [culture, culture.weight] as const);
  const newPerson = (
    personRandom: Random,
    kind: RelationshipKind,
    company: Company | null,
    freeDomain?: string,
  ): Person => {
    const culture = personRandom.weighted(cultureWeights);
    const name = drawName(personRandom, culture);
    const at = company ? company.domain : (freeDomain ?? 'gmail.com');
    const pattern = company ? company.pattern : personRandom.pick(['first.last', 'firstl', 'first_last'] as const);
    let localName = localPart(pattern, name);
    if (!company && personRandom.chance(0.4)) localName += String(personRandom.int(1, 99));
    return {
      index: people.length,
      givenName: name.given,
      familyName: name.family,
      displayName: name.display,
      culture: culture.key,
      email: uniqueEmail(localName || 'contact', at),
      company: company ? company.index : null,
      title: company ? drawTitle(personRandom) : '',
      offset: personRandom.pick(culture.offsets),
      kind,
      start: origin,
      end: anchor,
      mailWeight: 0,
      meetWeight: 0,
      saved: false,
      lastFirst: !culture.familyFirst && personRandom.chance(0.04),
    };
  };

  // Colleagues at the user's own domain: one is the user's manager; some joined late, some left.
  const colleagueRandom = random.fork('colleagues');
  const ownCompany: Company = {
    index: -1,
    name: companyName ?? domain,
    domain,
    industry: 'Software',
    size: '51-200',
    products: ['platform'],
    pattern: 'first.last',
  };
  for (let i = 0; i < size.colleagues; i++) {
    const person = newPerson(colleagueRandom, 'colleague', ownCompany);
    person.company = null;
    person.title = drawTitle(colleagueRandom);
    person.offset = colleagueRandom.chance(0.8) ? 0 : colleagueRandom.pick([60, -300, 330]);
    if (i === 0) {
      person.manager = true;
      person.title = colleagueRandom.pick(['VP Sales', 'Head of Partnerships', 'Chief Revenue Officer']);
    } else {
      const tenure = colleagueRandom.next();
      if (tenure < 0.15) person.start = anchor - colleagueRandom.int(30, 400) * DAY;
      else if (tenure < 0.3) person.end = anchor - colleagueRandom.int(60, 700) * DAY;
    }
    const closeness = colleagueRandom.chance(0.25) ? 3 : colleagueRandom.chance(0.5) ? 1 : 0.3;
    person.mailWeight = (person.manager ? 6 : 1.6) * closeness;
    person.meetWeight = (person.manager ? 0 : 0.6) * closeness;
    person.saved = colleagueRandom.chance(0.7);
    people.push(person);
  }

  // Outside people, spread over the companies (larger companies hold more of them).
  const peopleRandom = random.fork('people');
  const companyWeights = companies.map((company) => {
    const bucket = SIZE_BUCKETS.find(([name]) => name === company.size);
    return [company, bucket ? bucket[2] : 5] as const;
  });
  const kinds = KIND_PLAN.map(({ kind, share }) => [kind, share] as const);
  for (let i = 0; i < size.people; i++) {
    const kind = peopleRandom.weighted(kinds);
    const personal = kind === 'personal' || (kind === 'contactOnly' && peopleRandom.chance(0.5));
    const company = personal
      ? null
      : i < companies.length
        ? (companies[i] ?? null)
        : companies.length > 0
          ? peopleRandom.weighted(companyWeights)
          : null;
    const person = newPerson(peopleRandom, kind, company, peopleRandom.pick(FREE_MAIL_DOMAINS));
    shapeRelationship(person, peopleRandom, origin, anchor);
    people.push(person);
  }

  // A few people the user knows changed jobs: older mail comes from their former company.
  const changeRandom = random.fork('job-changes');
  if (companies.length > 1) {
    for (const person of people) {
      if (person.company === null || !['core', 'active', 'faded', 'occasional'].includes(person.kind)) continue;
      if (!changeRandom.chance(0.05)) continue;
      const span = person.end - person.start;
      if (span < 120 * DAY) continue;
      const from = companies[person.company];
      let to = changeRandom.pick(companies);
      if (to.index === person.company) to = companies[(to.index + 1) % companies.length] ?? to;
      if (!from) continue;
      person.formerCompany = from.index;
      person.formerEmail = person.email;
      person.formerTitle = person.title;
      person.changedAt = person.start + Math.floor(span * (0.3 + 0.5 * changeRandom.next()));
      person.company = to.index;
      person.title = drawTitle(changeRandom);
      const name: DrawnName = {
        given: person.givenName,
        family: person.familyName,
        asciiGiven: asciiFold(person.givenName),
        asciiFamily: asciiFold(person.familyName),
        display: person.displayName,
      };
      const romanised = romanisedName(person);
      if (romanised) {
        name.asciiGiven = romanised.given;
        name.asciiFamily = romanised.family;
      }
      person.email = uniqueEmail(localPart(to.pattern, name) || 'contact', to.domain);
    }
  }

  // Newsletters and notifications: one-way mail from companies.
  const newsletterRandom = random.fork('newsletters');
  const newsletters: NewsletterSender[] = [];
  for (let i = 0; i < size.newsletters && companies.length > 0; i++) {
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

  return {
    email,
    seed,
    size,
    anchor,
    origin,
    timeZone,
    userCompany: { name: companyName, domain },
    companies,
    people,
    newsletters,
    accountId: `1${createRandom(`${seed}:account`).digits(20)}`,
  };
}

function romanisedName(person: Person): { given: string; family: string } | null {
  const culture = CULTURES.find((entry) => entry.key === person.culture);
  if (!culture?.familyFirst) return null;
  const given = culture.given.find((entry) => nameParts(entry)[0] === person.givenName);
  const family = culture.family.find((entry) => nameParts(entry)[0] === person.familyName);
  if (!given || !family) return null;
  return { given: nameParts(given)[1], family: nameParts(family)[1] };
}

/** Windows, intensities and whether the person is saved in the user's contacts, by relationship. */
function shapeRelationship(person: Person, random: Random, origin: number, anchor: number) {
  const span = anchor - origin;
  const at = (fraction: number) => origin + Math.floor(span * fraction);
  switch (person.kind) {
    case 'core':
      person.start = at(random.next() * 0.8);
      person.end = anchor;
      person.mailWeight = 10 + random.next() * 10;
      person.meetWeight = 4 + random.next() * 4;
      person.saved = random.chance(0.95);
      break;
    case 'active':
      person.start = at(random.next() * 0.9);
      person.end = anchor;
      person.mailWeight = 2.5 + random.next() * 4;
      person.meetWeight = 1.2 + random.next() * 2;
      person.saved = random.chance(0.8);
      break;
    case 'faded': {
      person.start = at(random.next() * 0.55);
      const length = random.int(90, 540) * DAY;
      person.end = Math.min(person.start + length, anchor - random.int(180, 400) * DAY);
      if (person.end <= person.start) person.end = person.start + 60 * DAY;
      person.mailWeight = 8 + random.next() * 10;
      person.meetWeight = 3 + random.next() * 4;
      person.saved = random.chance(0.7);
      break;
    }
    case 'occasional':
      person.start = at(random.next() * 0.6);
      person.end = anchor;
      person.mailWeight = 0.35 + random.next() * 0.6;
      person.meetWeight = 0.15;
      person.saved = random.chance(0.35);
      break;
    case 'metOnce': {
      const moment = at(0.02 + random.next() * 0.97);
      person.start = moment - 14 * DAY;
      person.end = Math.min(anchor, moment + 21 * DAY);
      person.mailWeight = 0;
      person.meetWeight = 0;
      person.saved = random.chance(0.3);
      break;
    }
    case 'coldIn':
    case 'coldOut': {
      const moment = at(random.next());
      person.start = moment;
      person.end = Math.min(anchor, moment + 20 * DAY);
      person.saved = false;
      break;
    }
    case 'groupOnly':
      person.saved = random.chance(0.05);
      break;
    case 'personal':
      person.mailWeight = 0.6 + random.next();
      person.meetWeight = 0.05;
      person.saved = random.chance(0.9);
      break;
    case 'contactOnly':
      person.saved = true;
      if (random.chance(0.35)) {
        person.phone = `+${random.int(1, 49)} ${random.digits(3)} ${random.digits(3)} ${random.digits(4)}`;
      }
      break;
    default:
      break;
  }
}

/** The address a person wrote from at a given time (a job change moves it). */
export function addressAt(person: Person, time: number): string {
  if (person.formerEmail && person.changedAt !== undefined && time < person.changedAt) return person.formerEmail;
  return person.email;
}

/** The company a person worked at, at a given time. */
export function companyAt(person: Person, time: number): number | null {
  if (person.formerCompany !== undefined && person.changedAt !== undefined && time < person.changedAt) {
    return person.formerCompany;
  }
  return person.company;
}
