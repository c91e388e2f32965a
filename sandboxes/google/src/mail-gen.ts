/**
 * Generates about three years of mail for a world: threads with the people the user knows, at the
 * rhythm of each relationship (intense and recent, faded, occasional), cold mail both ways,
 * newsletters, introductions between two outside people and a few threads with more than 20
 * recipients. Headers only: generated mail has no body.
 */
import type { HistoryRecord, StoredMessage } from './mailbox.ts';
import { createRandom, type Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { DAY, HOUR, MINUTE, YEAR, zoneOffsetMinutes } from './time.ts';
import {
  CITIES,
  COLD_SUBJECTS,
  INTERNAL_SUBJECTS,
  LOCAL_SUBJECTS,
  MONTHS,
  NEWSLETTER_SUBJECTS,
  PROJECTS,
  ROLES,
  TOPICS,
  WEEKDAYS,
  WORK_SUBJECTS,
} from './words.ts';
import { addressAt, companyAt, type Person, type World } from './world.ts';

export type GeneratedMail = {
  messages: StoredMessage[];
  /** History retained at generation: the records of the last week's mail. */
  history: HistoryRecord[];
  historyFloor: number;
  firstHistoryId: number;
};

type ThreadKind = 'work' | 'internal' | 'cold' | 'group' | 'intro' | 'personal' | 'newsletter';

type ThreadPlan = {
  start: number;
  starter: number;
  to: number[];
  cc: number[];
  length: number;
  subject: string;
  kind: ThreadKind;
  /** Follow-ups come from the starter only (cold mail nobody answers). */
  oneWay?: boolean;
};

const USER = 0;

/** How many messages a two-way thread has, with their weights. */
const THREAD_LENGTHS = [
  [1, 15],
  [2, 35],
  [3, 22],
  [4, 12],
  [5, 7],
  [6, 4],
  [8, 3],
  [11, 2],
] as const;

/** Hours of the day mail is written at, with their weights. */
const WORK_HOURS = [
  [7, 2],
  [8, 6],
  [9, 10],
  [10, 11],
  [11, 10],
  [12, 6],
  [13, 8],
  [14, 10],
  [15, 10],
  [16, 9],
  [17, 6],
  [18, 3],
  [19, 2],
  [21, 2],
] as const;

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

export function generateMail(world: World, newId: (time: number) => string): GeneratedMail {
  const random = createRandom(`${world.seed}:mail`);
  const { people, companies, anchor, origin } = world;
  const target = world.size.messages;
  const messages: StoredMessage[] = [];
  const firstHistoryId = 1_000_000 + random.int(0, 8_000_000);
  if (target === 0) return { messages, history: [], historyFloor: firstHistoryId, firstHistoryId };

  const user = people[USER] as Person;
  const userOffset = zoneOffsetMinutes(anchor, world.timeZone);
  const userCompany = world.userCompany.name ?? 'us';
  const colleagues = people.filter((person) => person.kind === 'colleague');
  const byCompany = new Map<number, Person[]>();
  for (const person of people) {
    if (person.company === null || person.kind === 'contactOnly') continue;
    const list = byCompany.get(person.company);
    if (list) list.push(person);
    else byCompany.set(person.company, [person]);
  }

  // One address object per person and employer (a job change gives a second one).
  const current: (Address | undefined)[] = [];
  const former: (Address | undefined)[] = [];
  const addressOf = (index: number, time: number): Address => {
    const person = people[index] as Person;
    const before = person.formerEmail !== undefined && person.changedAt !== undefined && time < person.changedAt;
    const cache = before ? former : current;
    let address = cache[index];
    if (!address) {
      const name = person.lastFirst ? `${person.familyName}, ${person.givenName}` : person.displayName;
      address = { name, email: index === USER ? world.email : addressAt(person, time) };
      cache[index] = address;
    }
    return address;
  };

  const companyName = (person: Person, time: number) => {
    const index = companyAt(person, time);
    return index === null ? '' : (companies[index]?.name ?? '');
  };

  const subjectFor = (templates: readonly string[], person: Person | undefined, time: number): string => {
    const local = person ? LOCAL_SUBJECTS[person.culture] : undefined;
    const company = person ? companyName(person, time) : '';
    const index = person ? companyAt(person, time) : null;
    const product =
      index !== null && index !== undefined ? random.pick(companies[index]?.products ?? ['pilot']) : 'pilot';
    const pool = local && random.chance(0.25) ? local : templates;
    const date = new Date(time);
    return fillTemplate(random.pick(pool), {
      Project: random.pick(PROJECTS),
      q: String(Math.floor(date.getUTCMonth() / 3) + 1),
      n: String(random.int(2, 7)),
      Company: company || user.displayName,
      UserCompany: userCompany,
      topic: random.pick(TOPICS),
      num: random.digits(5),
      weekday: random.pick(WEEKDAYS),
      year: String(date.getUTCFullYear()),
      month: MONTHS[date.getUTCMonth()] ?? 'January',
      city: random.pick(CITIES),
      role: random.pick(ROLES),
      first: person?.givenName ?? user.givenName,
      product,
    });
  };

  /** Moves a time to a working hour of a weekday (mostly). */
  const workHour = (time: number, offset: number): number => {
    let day = Math.floor((time + offset * MINUTE) / DAY) * DAY;
    const weekday = new Date(day).getUTCDay();
    if ((weekday === 0 || weekday === 6) && random.chance(0.85)) day += (weekday === 6 ? 2 : 1) * DAY;
    const hour = random.weighted(WORK_HOURS);
    return day + hour * HOUR + random.int(0, 59) * MINUTE + random.int(0, 59) * 1000 - offset * MINUTE;
  };

  const replyDelay = () => Math.exp(Math.log(4 * MINUTE) + random.next() * (Math.log(3 * DAY) - Math.log(4 * MINUTE)));

  const labelsFor = (kind: ThreadKind, fromUser: boolean, time: number, sender: Person | undefined): string[] => {
    if (fromUser) return random.chance(0.3) ? ['SENT', 'IMPORTANT'] : ['SENT'];
    const age = anchor - time;
    if (kind === 'cold' && random.chance(0.08)) return ['SPAM', 'UNREAD'];
    const labels: string[] = [];
    if (random.chance(0.01)) labels.push('TRASH');
    else if (age < 45 * DAY ? random.chance(0.7) : random.chance(0.12)) labels.push('INBOX');
    if (kind === 'newsletter') {
      labels.push(random.chance(0.6) ? 'CATEGORY_PROMOTIONS' : 'CATEGORY_UPDATES');
      if (random.chance(0.6)) labels.push('UNREAD');
      return labels;
    }
    labels.push(kind === 'group' && random.chance(0.5) ? 'CATEGORY_UPDATES' : 'CATEGORY_PERSONAL');
    if (age < 10 * DAY && random.chance(0.5)) labels.push('UNREAD');
    const close = sender && (sender.kind === 'core' || sender.kind === 'active' || sender.manager);
    if (close ? random.chance(0.6) : random.chance(0.15)) labels.push('IMPORTANT');
    if (random.chance(0.02)) labels.push('STARRED');
    return labels;
  };

  const emitThread = (plan: ThreadPlan) => {
    const members = [...new Set([plan.starter, ...plan.to, ...plan.cc])];
    let sender = plan.starter;
    let to = plan.to;
    let cc = plan.cc;
    let time = plan.start;
    let threadId = '';
    let parentId: string | undefined;
    for (let k = 0; k < plan.length; k++) {
      time = Math.floor(time);
      if (time > anchor) break;
      const from = addressOf(sender, time);
      const id = newId(time);
      if (!threadId) threadId = id;
      const senderPerson = people[sender];
      const fromUser = sender === USER;
      const message: StoredMessage = {
        id,
        threadId,
        internalDate: time,
        historyId: 0,
        labelIds: labelsFor(plan.kind, fromUser, time, senderPerson),
        from,
        to: to.map((index) => addressOf(index, time)),
        cc: cc.map((index) => addressOf(index, time)),
        bcc: [],
        subject: k === 0 ? plan.subject : `Re: ${plan.subject}`,
        offset: fromUser ? userOffset : (senderPerson?.offset ?? 0),
        inbound: !fromUser,
        sizeEstimate: random.int(2_500, 60_000),
      };
      if (parentId) message.parentId = parentId;
      messages.push(message);
      parentId = id;
      // Who writes next, and to whom (reply-all).
      let next = sender;
      if (!plan.oneWay) {
        const others = members.filter((member) => member !== sender);
        if (others.length === 1 || random.chance(0.6)) {
          next =
            others.includes(USER) && random.chance(0.55)
              ? USER
              : others.includes(plan.starter)
                ? plan.starter
                : (others[0] ?? USER);
          if (next === sender) next = others[0] ?? USER;
        } else {
          next = random.pick(others);
        }
        if (members.length === 2 && random.chance(0.1)) next = sender;
      }
      if (next !== sender) {
        const previous = sender;
        to = [previous];
        cc = members.filter((member) => member !== next && member !== previous);
        sender = next;
      }
      time += plan.oneWay ? random.int(3, 8) * DAY + random.int(0, 600) * MINUTE : replyDelay();
    }
  };

  const lengthOfTwoWay = () => random.weighted(THREAD_LENGTHS);
  const averageTwoWay = (1 * 15 + 2 * 35 + 3 * 22 + 4 * 12 + 5 * 7 + 6 * 4 + 8 * 3 + 11 * 2) / 100;

  const pickTime = (person: Person, centers: number[]) => {
    const span = Math.max(DAY, person.end - person.start);
    const center = centers.length > 0 ? random.pick(centers) : person.start + random.next() * span;
    const spread = Math.min(span / 2, random.int(7, 40) * DAY);
    let time = center + random.normal(0, spread);
    if (time < person.start) time = person.start + random.next() * Math.min(span, 30 * DAY);
    if (time > person.end) time = person.end - random.next() * Math.min(span, 30 * DAY);
    return workHour(time, person.offset);
  };

  const external = people.filter((person) => !['self', 'colleague', 'contactOnly'].includes(person.kind));
  const known = people.filter((person) => ['core', 'active', 'occasional', 'faded'].includes(person.kind));

  // Newsletters: one-way, regular; about 15% of the mailbox.
  const newsletterBudget = target * 0.15;
  let rawNewsletters = 0;
  for (const sender of world.newsletters) rawNewsletters += (sender.end - sender.start) / (sender.cadenceDays * DAY);
  const keep = rawNewsletters > 0 ? Math.min(1, newsletterBudget / rawNewsletters) : 0;
  for (const sender of world.newsletters) {
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

  // Cold mail both ways, and people met once (a meeting with a little mail around it).
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

  const estimatedThreads = target / averageTwoWay;

  // Threads with more than 20 recipients (event attendees, partner programmes, company-wide mail).
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

  // Introductions: the user connects two outside people (or is introduced), both write back.
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

  // The rest of the budget: ongoing relationships at their own rhythm.
  const weighted = people.filter((person) => person.mailWeight > 0);
  const remaining = Math.max(0, target - messages.length);
  const threadBudget = remaining / (averageTwoWay * 0.97);
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
