/** People's names: drawn from a culture's lists, folded to ASCII for addresses, and job titles. */
import type { Random } from './random.ts';
import { CULTURES, type Culture, TITLES } from './words.ts';
import type { Company, Person } from './world.ts';

export const capitalize = (word: string) => (word ? word[0]?.toUpperCase() + word.slice(1).toLowerCase() : word);

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

export const slug = (text: string) =>
  asciiFold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export function nameParts(entry: string | readonly [string, string]): [string, string] {
  return typeof entry === 'string' ? [entry, entry] : [entry[0], entry[1]];
}

export type DrawnName = { given: string; family: string; asciiGiven: string; asciiFamily: string; display: string };

export function drawName(random: Random, culture: Culture): DrawnName {
  const [given, asciiGiven] = nameParts(random.pick(culture.given));
  const [family, asciiFamily] = nameParts(random.pick(culture.family));
  const display = culture.familyFirst ? `${family}${given}` : `${given} ${family}`;
  return { given, family, asciiGiven: asciiFold(asciiGiven), asciiFamily: asciiFold(asciiFamily), display };
}

export function localPart(pattern: Company['pattern'], name: DrawnName): string {
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
export function userName(local: string, random: Random): { given: string; family: string } {
  const base = (local.split('+')[0] ?? local).replace(/[0-9]/g, '');
  const parts = base.split(/[._-]+/).filter((part) => /^[a-z]{2,}$/i.test(part));
  if (parts.length >= 2)
    return { given: capitalize(parts[0] ?? ''), family: capitalize(parts[parts.length - 1] ?? '') };
  const anglo = CULTURES[0];
  const family = anglo ? nameParts(random.pick(anglo.family))[0] : 'Doe';
  if (parts.length === 1) return { given: capitalize(parts[0] ?? ''), family };
  return { given: anglo ? nameParts(random.pick(anglo.given))[0] : 'Alex', family };
}

export function romanisedName(person: Person): { given: string; family: string } | null {
  const culture = CULTURES.find((entry) => entry.key === person.culture);
  if (!culture?.familyFirst) return null;
  const given = culture.given.find((entry) => nameParts(entry)[0] === person.givenName);
  const family = culture.family.find((entry) => nameParts(entry)[0] === person.familyName);
  if (!given || !family) return null;
  return { given: nameParts(given)[1], family: nameParts(family)[1] };
}

export function drawTitle(random: Random): string {
  const level = random.weighted([
    ['executive', 8],
    ['vp', 17],
    ['manager', 35],
    ['staff', 40],
  ] as const);
  return random.pick(TITLES[level]);
}
