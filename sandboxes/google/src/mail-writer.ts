/**
 * How generated mail is written: addresses as each person wrote them at the time, subjects from
 * templates, working hours in the writer's time zone, labels, and threads of replies (reply-all).
 * Every draw comes from the one generator of the world's mail, in the order the callers make them.
 */
import type { StoredMessage } from './mailbox.ts';
import type { Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { DAY, HOUR, MINUTE, zoneOffsetMinutes } from './time.ts';
import { CITIES, LOCAL_SUBJECTS, MONTHS, PROJECTS, ROLES, TOPICS, WEEKDAYS } from './words.ts';
import { addressAt, companyAt, type Person, type World } from './world.ts';

export type ThreadKind = 'work' | 'internal' | 'cold' | 'group' | 'intro' | 'personal' | 'newsletter';

export type ThreadPlan = {
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

/** The user is always the first person of a world. */
export const USER = 0;

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

/** The mean of THREAD_LENGTHS: how many messages a two-way thread has on average. */
export const AVERAGE_TWO_WAY = (1 * 15 + 2 * 35 + 3 * 22 + 4 * 12 + 5 * 7 + 6 * 4 + 8 * 3 + 11 * 2) / 100;

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

export type MailWriter = ReturnType<typeof createMailWriter>;

export function createMailWriter(world: World, random: Random, newId: (time: number) => string) {
  const { people, companies, anchor } = world;
  const messages: StoredMessage[] = [];
  const user = people[USER] as Person;
  const userOffset = zoneOffsetMinutes(anchor, world.timeZone);
  const userCompany = world.userCompany.name ?? 'us';

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

  const pickTime = (person: Person, centers: number[]) => {
    const span = Math.max(DAY, person.end - person.start);
    const center = centers.length > 0 ? random.pick(centers) : person.start + random.next() * span;
    const spread = Math.min(span / 2, random.int(7, 40) * DAY);
    let time = center + random.normal(0, spread);
    if (time < person.start) time = person.start + random.next() * Math.min(span, 30 * DAY);
    if (time > person.end) time = person.end - random.next() * Math.min(span, 30 * DAY);
    return workHour(time, person.offset);
  };

  return {
    world,
    random,
    messages,
    newId,
    userOffset,
    addressOf,
    subjectFor,
    workHour,
    labelsFor,
    emitThread,
    lengthOfTwoWay,
    pickTime,
  };
}
