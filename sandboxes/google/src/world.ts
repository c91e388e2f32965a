/**
 * The generated world of one sandbox user: their company and colleagues, a few hundred other companies
 * of every size and industry, the people there, and the user's relationship with each person.
 * Everything is drawn from a generator seeded by the e-mail address.
 */
import { generateCompanies, generateNewsletters, timeZoneFor, userCompanyName } from './companies.ts';
import { drawName, drawTitle, localPart, userName } from './names.ts';
import { createRandom, type Random } from './random.ts';
import { changeJobs, KIND_PLAN, shapeRelationship } from './relationships.ts';
import { DAY, startOfUtcDay, YEAR } from './time.ts';
import { CULTURES, FREE_MAIL_DOMAINS, SIZE_BUCKETS } from './words.ts';

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

/** How often a drawn name that someone already has is kept (namesakes exist), and how many times it is drawn again. */
const SHARED_NAME_CHANCE = 0.01;
const NAME_REDRAWS = 12;

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
  // Two of a person's contacts rarely share a full name (about 1 in 100), though the name lists are
  // short: a taken name is drawn again, from any culture, a few times. Without this, 57% of the large
  // mailbox's people shared their name, and the mail's job-change rule mistook namesakes for movers.
  const takenNames = new Set<string>();
  const drawUntakenName = (personRandom: Random) => {
    for (let attempt = 0; ; attempt++) {
      const culture = personRandom.weighted(cultureWeights);
      const name = drawName(personRandom, culture);
      const key = name.display.toLowerCase();
      if (!takenNames.has(key) || attempt >= NAME_REDRAWS || personRandom.chance(SHARED_NAME_CHANCE)) {
        takenNames.add(key);
        return { culture, name };
      }
    }
  };
  const newPerson = (
    personRandom: Random,
    kind: RelationshipKind,
    company: Company | null,
    freeDomain?: string,
  ): Person => {
    const { culture, name } = drawUntakenName(personRandom);
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

  changeJobs(random.fork('job-changes'), people, companies, uniqueEmail);
  const newsletters = generateNewsletters(
    random.fork('newsletters'),
    size.newsletters,
    companies,
    usedEmails,
    origin,
    anchor,
  );

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
