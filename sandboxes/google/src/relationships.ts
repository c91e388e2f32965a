/** The user's relationship with each person: its window, its intensity, and job changes within it. */
import { asciiFold, type DrawnName, drawTitle, localPart, romanisedName } from './names.ts';
import type { Random } from './random.ts';
import { DAY } from './time.ts';
import type { Company, Person, RelationshipKind } from './world.ts';

type KindPlan = {
  kind: RelationshipKind;
  share: number;
};

export const KIND_PLAN: readonly KindPlan[] = [
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

/** Windows, intensities and whether the person is saved in the user's contacts, by relationship. */
export function shapeRelationship(person: Person, random: Random, origin: number, anchor: number) {
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

/** A few people the user knows changed jobs: older mail comes from their former company. */
export function changeJobs(
  changeRandom: Random,
  people: readonly Person[],
  companies: readonly Company[],
  uniqueEmail: (localName: string, at: string) => string,
): void {
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
}
