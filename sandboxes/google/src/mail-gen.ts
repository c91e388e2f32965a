/**
 * Generates about three years of mail for a world: threads with the people the user knows, at the
 * rhythm of each relationship (intense and recent, faded, occasional), cold mail both ways,
 * newsletters, introductions between two outside people, a few threads with more than 20
 * recipients, and the bounces of mail sent to addresses that no longer exist. Headers only:
 * generated mail has no body.
 */

import { writeBounces } from './bounces.ts';
import { AVERAGE_TWO_WAY, createMailWriter, fillTemplate, type MailWriter, USER } from './mail-writer.ts';
import type { HistoryRecord, StoredMessage } from './mailbox.ts';
import { createRandom, type Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { DAY, HOUR, YEAR } from './time.ts';
import { COLD_SUBJECTS, INTERNAL_SUBJECTS, MONTHS, NEWSLETTER_SUBJECTS, TOPICS, WORK_SUBJECTS } from './words.ts';
import { companyAt, type Person, type World } from './world.ts';

export type GeneratedMail = {
  messages: StoredMessage[];
  /** History retained at generation: the records of the last week's mail. */
  history: HistoryRecord[];
  historyFloor: number;
  firstHistoryId: number;
};

export function generateMail(world: World, newId: (time: number) => string): GeneratedMail {
  const random = createRandom(`${world.seed}:mail`);
  const { people } = world;
  const target = world.size.messages;
  const firstHistoryId = 1_000_000 + random.int(0, 8_000_000);
  if (target === 0) return { messages: [], history: [], historyFloor: firstHistoryId, firstHistoryId };

  const writer = createMailWriter(world, random, newId);
  const colleagues = people.filter((person) => person.kind === 'colleague');
  const byCompany = new Map<number, Person[]>();
  for (const person of people) {
    if (person.company === null || person.kind === 'contactOnly') continue;
    const list = byCompany.get(person.company);
    if (list) list.push(person);
    else byCompany.set(person.company, [person]);
  }
  const external = people.filter((person) => !['self', 'colleague', 'contactOnly'].includes(person.kind));
  const known = people.filter((person) => ['core', 'active', 'occasional', 'faded'].includes(person.kind));
  writeNewsletters(writer, target);
  writeColdAndMetOnce(writer, external);
  const estimatedThreads = target / AVERAGE_TWO_WAY;
  writeGroupThreads(writer, external, colleagues, estimatedThreads);
  writeIntroductions(writer, known, estimatedThreads);
  writeOngoing(writer, { target, colleagues, known, byCompany });
  writeBounces(world, writer.messages, newId);
  return numberHistory(writer.messages, random, firstHistoryId, world.anchor);
}

/** Newsletters: one-way, regular; about 15% of the mailbox. */
function writeNewsletters(writer: MailWriter, target: number) {
  const { random, messages, newId, addressOf, labelsFor } = writer;
  const { companies, anchor, newsletters } = writer.world;
  const newsletterBudget = target * 0.15;
  let rawNewsletters = 0;
  for (const sender of newsletters) rawNewsletters += (sender.end - sender.start) / (sender.cadenceDays * DAY);
  const keep = rawNewsletters > 0 ? Math.min(1, newsletterBudget / rawNewsletters) : 0;
  for (const sender of newsletters) {
    const from: Address = { name: sender.name, email: sender.email };
    const domain = sender.email.split('@')[1] ?? 'example.com';
    for (let time = sender.start; time < sender.end && time <= anchor; time += sender.cadenceDays * DAY) {
      if (!random.chance(keep)) continue;
      const at = Math.floor(time + random.int(-6, 6) * HOUR + random.int(0, 3599_999));
      if (at > anchor) continue;
      const id = newId(at);
      const company = companies[sender.company];
      messages.push({
        id,
        threadId: id,
        internalDate: at,
        historyId: 0,
        labelIds: labelsFor('newsletter', false, at, undefined),
        from,
        to: [addressOf(USER, at)],
        cc: [],
        bcc: [],
        subject: fillTemplate(random.pick(NEWSLETTER_SUBJECTS), {
          Company: company?.name ?? sender.name,
          topic: random.pick(TOPICS),
          month: MONTHS[new Date(at).getUTCMonth()] ?? 'January',
          year: String(new Date(at).getUTCFullYear()),
          n: String(random.int(3, 12)),
          product: random.pick(company?.products ?? ['features']),
        }),
        offset: 0,
        inbound: true,
        listUnsubscribe: `<mailto:unsubscribe@${domain}?subject=unsubscribe>, <https://${domain}/unsubscribe?u=${random.hex(16)}>`,
        sizeEstimate: random.int(20_000, 120_000),
      });
    }
  }
}

/** Cold mail both ways, and people met once (a meeting with a little mail around it). */
function writeColdAndMetOnce(writer: MailWriter, external: readonly Person[]) {
  const { random, userOffset, emitThread, subjectFor, workHour, pickTime } = writer;
  for (const person of external) {
    if (person.kind === 'coldIn') {
      const start = workHour(person.start, person.offset);
      if (random.chance(0.08)) {
        emitThread({
          start,
          starter: person.index,
          to: [USER],
          cc: [],
          length: 2,
          subject: subjectFor(COLD_SUBJECTS, person, start),
          kind: 'cold',
        });
      } else {
        emitThread({
          start,
          starter: person.index,
          to: [USER],
          cc: [],
          length: random.weighted([
            [1, 55],
            [2, 30],
            [3, 15],
          ] as const),
          subject: subjectFor(COLD_SUBJECTS, person, start),
          kind: 'cold',
          oneWay: true,
        });
      }
    } else if (person.kind === 'coldOut') {
      const start = workHour(person.start, userOffset);
      const replied = random.chance(0.1);
      emitThread({
        start,
        starter: USER,
        to: [person.index],
        cc: [],
        length: replied
          ? 2
          : random.weighted([
              [1, 65],
              [2, 35],
            ] as const),
        subject: subjectFor(
          ['Introduction', '{UserCompany} + {Company}?', 'Idea for {Company}', 'Quick question, {first}'],
          person,
          start,
        ),
        kind: 'work',
        oneWay: !replied,
      });
    } else if (person.kind === 'metOnce') {
      const threads = random.int(1, 3);
      for (let i = 0; i < threads; i++) {
        const start = pickTime(person, []);
        const fromUser = random.chance(0.5);
        emitThread({
          start,
          starter: fromUser ? USER : person.index,
          to: [fromUser ? person.index : USER],
          cc: [],
          length: random.int(1, 3),
          subject: subjectFor(
            i === threads - 1 ? ['Thanks for your time today', 'Great meeting you', 'Follow-up'] : WORK_SUBJECTS,
            person,
            start,
          ),
          kind: 'work',
        });
      }
    }
  }
}

/** Threads with more than 20 recipients (event attendees, partner programmes, company-wide mail). */
function writeGroupThreads(
  writer: MailWriter,
  external: readonly Person[],
  colleagues: readonly Person[],
  estimatedThreads: number,
) {
  const { random, userOffset, emitThread, subjectFor, workHour } = writer;
  const { people, anchor, origin } = writer.world;
  const groupPool = external.filter((person) => person.kind === 'groupOnly' || person.kind === 'occasional');
  const groupThreads =
    groupPool.length + colleagues.length >= 25 ? Math.max(3, Math.round(estimatedThreads * 0.012)) : 0;
  for (let i = 0; i < groupThreads; i++) {
    const start = workHour(origin + random.next() * (anchor - origin), userOffset);
    const internal = colleagues.length >= 22 && random.chance(0.3);
    const pool = internal ? colleagues : groupPool;
    const count = Math.min(pool.length, random.int(21, 60));
    const recipients = random.sample(pool, count).map((person) => person.index);
    const starterRoll = random.next();
    const starter = starterRoll < 0.2 ? USER : (recipients.shift() ?? USER);
    const inTo = recipients.slice(0, Math.ceil(recipients.length / 2));
    const inCc = recipients.slice(Math.ceil(recipients.length / 2));
    if (starter !== USER) inTo.push(USER);
    emitThread({
      start,
      starter,
      to: inTo,
      cc: inCc,
      length: random.weighted([
        [1, 45],
        [2, 25],
        [3, 20],
        [5, 10],
      ] as const),
      subject: subjectFor(
        internal
          ? ['All hands: {Project} update', 'Office move', 'Company offsite {year}', 'Q{q} kickoff']
          : [
              '{Company} Summit {year}: attendee list',
              'Partner day follow-up',
              'Customer advisory board notes',
              'Dinner in {city} on {weekday}',
              'Working group: {topic}',
            ],
        internal ? undefined : people[starter],
        start,
      ),
      kind: 'group',
    });
  }
}

/** Introductions: the user connects two outside people (or is introduced), both write back. */
function writeIntroductions(writer: MailWriter, known: readonly Person[], estimatedThreads: number) {
  const { random, emitThread, pickTime } = writer;
  const introductions = known.length >= 4 ? Math.round(estimatedThreads * 0.015) : 0;
  for (let i = 0; i < introductions; i++) {
    const [a, b] = random.sample(known, 2);
    if (!a || !b || a.company === b.company) continue;
    const start = pickTime(a, []);
    const userIntroduces = random.chance(0.6);
    emitThread({
      start,
      starter: userIntroduces ? USER : a.index,
      to: userIntroduces ? [a.index, b.index] : [USER, b.index],
      cc: [],
      length: random.int(2, 5),
      subject: `Intro: ${a.givenName} <> ${b.givenName}`,
      kind: 'intro',
    });
  }
}

/** The rest of the budget: ongoing relationships at their own rhythm. */
function writeOngoing(
  writer: MailWriter,
  context: {
    target: number;
    colleagues: readonly Person[];
    known: readonly Person[];
    byCompany: Map<number, Person[]>;
  },
) {
  const { random, messages, emitThread, subjectFor, pickTime, lengthOfTwoWay } = writer;
  const { target, colleagues, known, byCompany } = context;
  const { people } = writer.world;
  const weighted = people.filter((person) => person.mailWeight > 0);
  const remaining = Math.max(0, target - messages.length);
  const threadBudget = remaining / (AVERAGE_TWO_WAY * 0.97);
  let totalWeight = 0;
  for (const person of weighted) totalWeight += person.mailWeight * ((person.end - person.start) / YEAR);
  for (const person of weighted) {
    const share = (person.mailWeight * ((person.end - person.start) / YEAR)) / (totalWeight || 1);
    const exact = threadBudget * share;
    const count = Math.floor(exact) + (random.chance(exact - Math.floor(exact)) ? 1 : 0);
    if (count === 0) continue;
    const centers: number[] = [];
    const span = person.end - person.start;
    for (let c = Math.max(1, Math.round(count / 6)); c > 0; c--) {
      const u = random.next();
      centers.push(person.start + span * (person.kind === 'core' ? Math.sqrt(u) : u));
    }
    const isColleague = person.kind === 'colleague';
    for (let i = 0; i < count; i++) {
      const start = pickTime(person, centers);
      const fromUser = random.chance(person.kind === 'faded' || person.kind === 'core' ? 0.5 : 0.45);
      const cc: number[] = [];
      if (isColleague) {
        if (random.chance(0.4)) {
          for (const other of random.sample(colleagues, random.int(1, 4)))
            if (other.index !== person.index) cc.push(other.index);
        }
      } else {
        if (colleagues.length > 0 && random.chance(0.25)) {
          for (const other of random.sample(colleagues, random.int(1, 3))) cc.push(other.index);
        }
        const company = companyAt(person, start);
        const sameCompany = company === null ? [] : (byCompany.get(company) ?? []);
        if (sameCompany.length > 1 && random.chance(0.18)) {
          for (const other of random.sample(sameCompany, random.int(1, 2)))
            if (other.index !== person.index) cc.push(other.index);
        }
        if (known.length > 2 && random.chance(0.04)) {
          const other = random.pick(known);
          if (other.index !== person.index && other.company !== person.company) cc.push(other.index);
        }
      }
      emitThread({
        start,
        starter: fromUser ? USER : person.index,
        to: [fromUser ? person.index : USER],
        cc: [...new Set(cc)],
        length: lengthOfTwoWay(),
        subject: subjectFor(isColleague ? INTERNAL_SUBJECTS : WORK_SUBJECTS, isColleague ? undefined : person, start),
        kind: isColleague ? 'internal' : person.kind === 'personal' ? 'personal' : 'work',
      });
    }
  }
}

/** History ids in time order; the last week's records are retained, as Gmail keeps about a week. */
function numberHistory(
  messages: StoredMessage[],
  random: Random,
  firstHistoryId: number,
  anchor: number,
): GeneratedMail {
  messages.sort((a, b) => (a.internalDate !== b.internalDate ? a.internalDate - b.internalDate : a.id < b.id ? -1 : 1));
  let historyId = firstHistoryId;
  const retainedSince = anchor - 7 * DAY;
  const history: HistoryRecord[] = [];
  for (const message of messages) {
    historyId += random.int(1, 40);
    message.historyId = historyId;
    if (message.internalDate >= retainedSince) history.push({ id: historyId, added: [message] });
  }
  const newest = messages[messages.length - 1];
  const firstRetained = history[0]?.id ?? historyId + 1;
  const historyFloor = Math.min(firstRetained - 1, newest ? newest.historyId : historyId);
  return { messages, history, historyFloor, firstHistoryId };
}

/** Realistic inbound mail for the "new mail" control: from people the user knows, or someone new. */
export function pickNewMailSender(world: World, random: Random): Person | undefined {
  const candidates = world.people.filter((person) =>
    ['core', 'active', 'occasional', 'colleague'].includes(person.kind),
  );
  return candidates.length > 0 ? random.pick(candidates) : undefined;
}
