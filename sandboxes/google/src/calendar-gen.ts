/**
 * Generates about three years of meetings (and the next four weeks): team syncs and one-to-ones,
 * meetings with the people the user knows at the rhythm of each relationship, company all-hands and
 * summits with more than 20 attendees, meetings that bring two outside people together, a few all-day
 * events, some cancelled or declined.
 */
import type { Attendee, ResponseStatus, StoredEvent } from './calendar.ts';
import { fillTemplate } from './mail-writer.ts';
import { createRandom, type Random } from './random.ts';
import { DAY, MINUTE, wallTimeToUtc, YEAR } from './time.ts';
import { CITIES, MEETING_TITLES, PROJECTS, ROLES, ROOM_NAMES, TOPICS } from './words.ts';
import { addressAt, companyAt, type Person, type World } from './world.ts';

const USER = 0;

export function generateEvents(world: World, newEventId: () => string): StoredEvent[] {
  const random = createRandom(`${world.seed}:calendar`);
  const target = world.size.events;
  const events: StoredEvent[] = [];
  if (target === 0) return events;
  const { people, companies, anchor, origin, timeZone } = world;
  const horizon = anchor + 28 * DAY;
  const user = people[USER] as Person;
  const userCompany = world.userCompany.name ?? 'us';
  const colleagues = people.filter((person) => person.kind === 'colleague');
  const manager = colleagues.find((person) => person.manager);
  const byCompany = new Map<number, Person[]>();
  for (const person of people) {
    if (person.company === null || person.kind === 'contactOnly') continue;
    const list = byCompany.get(person.company);
    if (list) list.push(person);
    else byCompany.set(person.company, [person]);
  }
  const rooms = ROOM_NAMES.map((name) => ({
    email: `c_${random.hex(16)}${random.hex(8)}@resource.calendar.google.com`,
    displayName: `${name} (${random.pick([4, 6, 8, 12])})`,
  }));

  const companyName = (person: Person, time: number) => {
    const index = companyAt(person, time);
    return index === null ? '' : (companies[index]?.name ?? '');
  };

  const title = (templates: readonly string[], values: { person?: Person; other?: Person; time: number }) => {
    const { person, other, time } = values;
    const index = person ? companyAt(person, time) : null;
    return fillTemplate(random.pick(templates), {
      Company: person ? companyName(person, time) || person.displayName : userCompany,
      OtherCompany: other ? companyName(other, time) || other.displayName : '',
      UserCompany: userCompany,
      first: person?.givenName ?? '',
      otherFirst: other?.givenName ?? '',
      userFirst: user.givenName,
      Project: random.pick(PROJECTS),
      q: String(Math.floor(new Date(time).getUTCMonth() / 3) + 1),
      year: String(new Date(time).getUTCFullYear()),
      role: random.pick(ROLES),
      topic: random.pick(TOPICS),
      city: random.pick(CITIES),
      product: index !== null ? random.pick(companies[index]?.products ?? ['platform']) : 'platform',
    });
  };

  /** A weekday slot between 8:00 and 17:30 in the user's time zone. */
  const slot = (time: number, minutes?: number) => {
    let day = Math.floor(time / DAY) * DAY;
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) day += (weekday === 6 ? 2 : 1) * DAY;
    const start = wallTimeToUtc(day, minutes ?? random.int(16, 35) * 30, timeZone);
    const duration = random.weighted([
      [15, 8],
      [25, 6],
      [30, 36],
      [45, 14],
      [60, 26],
      [90, 7],
      [120, 3],
    ] as const);
    return { start, end: start + duration * MINUTE };
  };

  const status = (future: boolean, self: boolean): ResponseStatus => {
    if (future && random.chance(self ? 0.3 : 0.35)) return 'needsAction';
    return random.weighted(
      self
        ? ([
            ['accepted', 84],
            ['tentative', 5],
            ['declined', 6],
            ['needsAction', 5],
          ] as const)
        : ([
            ['accepted', 72],
            ['tentative', 7],
            ['declined', 8],
            ['needsAction', 13],
          ] as const),
    );
  };

  const meetLink = () =>
    `https://meet.google.com/${random.hex(3).replace(/\d/g, 'x')}-${'abcdefghijkmnopqrstuvwxyz'[random.int(0, 24)]}${random.hex(3).replace(/\d/g, 'q')}-${random.hex(3).replace(/\d/g, 'z')}`;

  const addEvent = (options: {
    start: number;
    end: number;
    summary: string;
    organizer: number;
    attendees: number[];
    room?: boolean;
    online?: boolean;
    description?: string;
    location?: string;
    allDay?: boolean;
    recurringEventId?: string;
    id?: string;
  }) => {
    if (options.start > horizon) return;
    const future = options.start > anchor;
    const organizerPerson = people[options.organizer] as Person;
    const organizerEmail = options.organizer === USER ? world.email : addressAt(organizerPerson, options.start);
    const organizer: StoredEvent['organizer'] = { email: organizerEmail };
    if (options.organizer === USER) organizer.self = true;
    else organizer.displayName = organizerPerson.displayName;
    const attendees: Attendee[] = [];
    const seen = new Set<number>();
    for (const index of [options.organizer, USER, ...options.attendees]) {
      if (seen.has(index)) continue;
      seen.add(index);
      const person = people[index] as Person;
      const attendee: Attendee = {
        email: index === USER ? world.email : addressAt(person, options.start),
        responseStatus: index === options.organizer ? 'accepted' : status(future, index === USER),
      };
      if (index !== USER && random.chance(0.8)) attendee.displayName = person.displayName;
      if (index === options.organizer) attendee.organizer = true;
      if (index === USER) attendee.self = true;
      if (index !== options.organizer && index !== USER && random.chance(0.04)) attendee.optional = true;
      attendees.push(attendee);
    }
    if (options.room) {
      const room = random.pick(rooms);
      attendees.push({ email: room.email, displayName: room.displayName, resource: true, responseStatus: 'accepted' });
    }
    const created = Math.min(anchor, options.start - random.int(1, 21) * DAY - random.int(0, 600) * MINUTE);
    const event: StoredEvent = {
      id: options.id ?? newEventId(),
      status: random.chance(0.03) ? 'cancelled' : 'confirmed',
      summary: options.summary,
      start: options.start,
      end: options.end,
      allDay: options.allDay ?? false,
      organizer,
      creator: { ...organizer },
      attendees: options.allDay ? [] : attendees,
      created,
      updated: Math.min(anchor, created + random.int(0, 3) * DAY + random.int(1, 300) * MINUTE),
      version: 1,
      createdVersion: 1,
      sequence: random.chance(0.2) ? random.int(1, 3) : 0,
    };
    if (options.description) event.description = options.description;
    if (options.location) event.location = options.location;
    if (options.online ?? random.chance(0.6)) event.hangoutLink = meetLink();
    if (options.recurringEventId) event.recurringEventId = options.recurringEventId;
    events.push(event);
  };

  const share = (fraction: number) => Math.round(target * fraction);
  const activeColleagues = (time: number) => colleagues.filter((person) => person.start <= time && person.end >= time);

  // Recurring internal series, expanded into instances (as singleEvents=true returns them).
  const series = (
    count: number,
    everyDays: number,
    make: (time: number) => { summary: string; attendees: number[]; organizer: number } | null,
  ) => {
    if (count <= 0) return;
    const baseId = newEventId();
    const minutes = random.int(18, 33) * 30;
    const span = Math.min(horizon - origin, count * everyDays * DAY);
    let time = horizon - span + random.int(0, 6) * DAY;
    const weekday = new Date(time).getUTCDay();
    if (weekday === 0 || weekday === 6) time += 2 * DAY;
    for (; time <= horizon; time += everyDays * DAY) {
      const made = make(time);
      if (!made) continue;
      const { start, end } = slot(time, minutes);
      const stamp = new Date(start)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      addEvent({
        start,
        end: start + (end - start > 60 * MINUTE ? 60 * MINUTE : 30 * MINUTE),
        ...made,
        room: random.chance(0.3),
        online: true,
        recurringEventId: baseId,
        id: `${baseId}_${stamp}`,
      });
    }
  };

  if (colleagues.length > 0) {
    const team = random.sample(colleagues, Math.min(colleagues.length, random.int(4, 10)));
    series(share(0.12), 14, (time) => {
      const present = team.filter((person) => person.start <= time && person.end >= time);
      if (present.length === 0) return null;
      return {
        summary: 'Weekly team sync',
        attendees: present.map((person) => person.index),
        organizer: manager?.index ?? USER,
      };
    });
    if (manager) {
      const summary = title(MEETING_TITLES.oneOnOne, { person: manager, time: anchor });
      const organizer = random.chance(0.5) ? manager.index : USER;
      series(share(0.12), 14, () => ({ summary, attendees: [manager.index], organizer }));
    }
    for (let i = share(0.1); i > 0; i--) {
      const { start, end } = slot(origin + random.next() * (horizon - origin));
      const present = activeColleagues(start);
      if (present.length === 0) continue;
      const group = random.sample(present, random.int(1, 5));
      const organizer = random.chance(0.5) ? USER : (group[0]?.index ?? USER);
      addEvent({
        start,
        end,
        summary: title(MEETING_TITLES.internal, { person: group[0], time: start }),
        organizer,
        attendees: group.map((p) => p.index),
        room: random.chance(0.35),
      });
    }
    // All-hands: the whole company (more than 20 people once the company is that big).
    for (let i = share(0.06); i > 0; i--) {
      const { start } = slot(origin + random.next() * (horizon - origin), random.int(30, 34) * 30);
      const present = activeColleagues(start);
      addEvent({
        start,
        end: start + 60 * MINUTE,
        summary: title(MEETING_TITLES.large.slice(0, 4), { time: start }),
        organizer: manager?.index ?? USER,
        attendees: present.map((p) => p.index),
        online: true,
      });
    }
  }

  const external = people.filter((person) =>
    ['core', 'active', 'faded', 'occasional', 'personal'].includes(person.kind),
  );
  const known = people.filter((person) => ['core', 'active', 'occasional'].includes(person.kind));
  const groupPool = people.filter((person) => person.kind === 'groupOnly' || person.kind === 'occasional');

  // Summits, webinars, advisory boards: many outside attendees.
  if (groupPool.length >= 20) {
    for (let i = Math.max(2, share(0.02)); i > 0; i--) {
      const { start } = slot(origin + random.next() * (anchor - origin));
      const attendees = random.sample(groupPool, random.int(20, 80)).map((p) => p.index);
      const organizerIndex = attendees[0] ?? USER;
      addEvent({
        start,
        end: start + random.pick([60, 90, 120]) * MINUTE,
        summary: title(MEETING_TITLES.large.slice(4), { person: people[organizerIndex], time: start }),
        organizer: organizerIndex,
        attendees: [...attendees, ...random.sample(colleagues, random.int(0, 4)).map((p) => p.index)],
      });
    }
  }

  // Two outside people at different companies in one meeting (how an ally's network shows).
  if (known.length >= 4) {
    for (let i = share(0.04); i > 0; i--) {
      const [a, b] = random.sample(known, 2);
      if (!a || !b || a.company === b.company) continue;
      const { start, end } = slot(
        Math.max(a.start, b.start) + random.next() * Math.max(DAY, Math.min(a.end, b.end) - Math.max(a.start, b.start)),
      );
      addEvent({
        start,
        end,
        summary: title(MEETING_TITLES.mixed, { person: a, other: b, time: start }),
        organizer: random.chance(0.6) ? USER : a.index,
        attendees: [
          a.index,
          b.index,
          ...(random.chance(0.3) && colleagues.length > 0 ? [random.pick(colleagues).index] : []),
        ],
      });
    }
  }

  // All-day events: no attendees.
  for (let i = share(0.02); i > 0; i--) {
    const day = Math.floor((origin + random.next() * (horizon - origin)) / DAY) * DAY;
    const days = random.weighted([
      [1, 60],
      [2, 20],
      [3, 10],
      [5, 10],
    ] as const);
    addEvent({
      start: day,
      end: day + days * DAY,
      summary: title(MEETING_TITLES.allDay, {
        person: random.pick(external.length > 0 ? external : [user]),
        time: day,
      }),
      organizer: USER,
      attendees: [],
      allDay: true,
      online: false,
    });
  }

  // People met once: one meeting each, in their window.
  for (const person of people) {
    if (person.kind !== 'metOnce' || !random.chance(0.85)) continue;
    const { start, end } = slot(person.start + 14 * DAY + random.int(-3, 3) * DAY);
    addEvent({
      start,
      end,
      summary: title(MEETING_TITLES.external, { person, time: start }),
      organizer: random.chance(0.5) ? USER : person.index,
      attendees: [person.index],
    });
  }

  // The rest: meetings with people the user knows, at the rhythm of each relationship.
  const weighted = people.filter((person) => person.meetWeight > 0 && person.kind !== 'colleague');
  const colleagueMeetings = people.filter((person) => person.meetWeight > 0 && person.kind === 'colleague');
  const remaining = Math.max(0, target - events.length);
  let totalWeight = 0;
  const windowOf = (person: Person) => ((person.end >= anchor ? horizon : person.end) - person.start) / YEAR;
  for (const person of [...weighted, ...colleagueMeetings]) totalWeight += person.meetWeight * windowOf(person);
  for (const person of [...weighted, ...colleagueMeetings]) {
    const exact = (remaining * person.meetWeight * windowOf(person)) / (totalWeight || 1);
    const count = Math.floor(exact) + (random.chance(exact - Math.floor(exact)) ? 1 : 0);
    const end = person.end >= anchor ? horizon : person.end;
    for (let i = 0; i < count; i++) {
      const u = random.next();
      const when = person.start + (end - person.start) * (person.kind === 'core' ? Math.sqrt(u) : u);
      const { start, end: finish } = slot(when);
      const extra: number[] = [];
      if (person.kind !== 'colleague') {
        const company = companyAt(person, start);
        if (company !== null && random.chance(0.25)) {
          const sameCompany = (byCompany.get(company) ?? []).filter((other) => other.index !== person.index);
          for (const other of random.sample(sameCompany, random.int(1, 3))) extra.push(other.index);
        }
        if (colleagues.length > 0 && random.chance(0.35)) {
          for (const other of random.sample(activeColleagues(start), random.int(1, 2))) extra.push(other.index);
        }
      }
      addEvent({
        start,
        end: finish,
        summary: title(person.kind === 'colleague' ? MEETING_TITLES.oneOnOne : MEETING_TITLES.external, {
          person,
          time: start,
        }),
        organizer: random.chance(0.55) ? USER : person.index,
        attendees: [person.index, ...extra],
        room: person.kind === 'colleague' && random.chance(0.3),
        location:
          person.kind !== 'colleague' && random.chance(0.15)
            ? `${companyName(person, start) || 'Café'}, ${random.pick(CITIES)}`
            : undefined,
      });
    }
  }

  events.sort((a, b) => a.start - b.start);
  return events;
}

/** Picks realistic attendees for a new meeting from a world when none are given. */
export function pickMeetingGuests(world: World, random: Random): Person[] {
  const known = world.people.filter((person) => ['core', 'active', 'occasional'].includes(person.kind));
  if (known.length === 0) return [];
  return random.sample(known, random.int(1, 2));
}
