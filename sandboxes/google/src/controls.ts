/**
 * The test controls on the sandbox's state: new mail and meetings (what an incremental sync should
 * see), cancelled meetings, and the failures a client must survive (lost history, stale sync tokens,
 * expired or revoked tokens, rate limits). Also served as `POST /_control/*` (controls.routes.ts).
 */
import type { StoredEvent } from './calendar.ts';
import { pickMeetingGuests } from './calendar-gen.ts';
import { invalidArgument, notFound } from './errors.ts';
import { pickNewMailSender } from './mail-gen.ts';
import type { StoredMessage } from './mailbox.ts';
import type { Address } from './rfc5322.ts';
import type { GoogleSandbox } from './sandbox.ts';
import { DAY, MINUTE, wallTimeToUtc } from './time.ts';
import { WORK_SUBJECTS } from './words.ts';
import { companyAt } from './world.ts';

export type NewMailInput = {
  count?: number;
  from?: string | Address;
  to?: (string | Address)[];
  cc?: (string | Address)[];
  subject?: string;
  /** ISO date or milliseconds; default now. */
  at?: string | number;
  labelIds?: string[];
  /** Makes each message a delivery failure report naming these addresses (`X-Failed-Recipients`). */
  failedRecipients?: string[];
};

export type NewMeetingInput = {
  count?: number;
  summary?: string;
  /** ISO date or milliseconds; default tomorrow at 10:00 in the user's time zone. */
  start?: string | number;
  durationMinutes?: number;
  attendees?: (string | Address)[];
  /** The organizer's address; default the user. */
  organizer?: string;
};

const toAddress = (value: string | Address): Address =>
  typeof value === 'string'
    ? { name: '', email: value.trim().toLowerCase() }
    : { name: value.name, email: value.email.toLowerCase() };

const toTime = (value: string | number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const time = typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(time)) throw invalidArgument(`Invalid date: ${String(value)}`);
  return time;
};

/** New mail in a user's mailbox (a history record each; the sync sees it as an increment). */
export function addMail(sandbox: GoogleSandbox, rawEmail: string, input: NewMailInput = {}): StoredMessage[] {
  const state = sandbox.user(rawEmail);
  const { world, mailbox, random } = state;
  const count = Math.max(1, Math.min(1000, input.count ?? 1));
  const start = toTime(input.at, sandbox.now());
  const added: StoredMessage[] = [];
  for (let i = 0; i < count; i++) {
    const time = start + i * 1000;
    let from: Address;
    let offset = 0;
    if (input.from !== undefined) {
      from = toAddress(input.from);
    } else {
      const person = pickNewMailSender(world, random);
      if (person) {
        from = { name: person.displayName, email: person.email };
        offset = person.offset;
      } else {
        from = { name: 'Sam Newman', email: 'sam.newman@example.org' };
      }
    }
    const outbound = from.email === world.email;
    if (outbound && !from.name) from = { name: world.people[0]?.displayName ?? '', email: world.email };
    const to = input.to?.map(toAddress) ?? [{ name: world.people[0]?.displayName ?? '', email: world.email }];
    const cc = input.cc?.map(toAddress) ?? [];
    const subject = input.subject ?? random.pick(WORK_SUBJECTS).replace(/\{\w+\}/g, 'the project');
    const id = mailbox.newId(time);
    const message: StoredMessage = {
      id,
      threadId: id,
      internalDate: time,
      historyId: 0,
      labelIds: input.labelIds ?? (outbound ? ['SENT'] : ['UNREAD', 'CATEGORY_PERSONAL', 'INBOX']),
      from,
      to,
      cc,
      bcc: [],
      subject,
      rfcMessageId: `<${random.hex(16)}.${random.hex(8)}@${from.email.split('@')[1] ?? 'example.org'}>`,
      offset,
      inbound: !outbound,
      sizeEstimate: random.int(2_000, 30_000),
      ...(input.failedRecipients
        ? { failedRecipients: input.failedRecipients.map((email) => email.toLowerCase()) }
        : {}),
    };
    mailbox.insert(message, true);
    if (outbound) for (const recipient of [...to, ...cc]) state.contacts.addOtherContact(recipient, time, true);
    added.push(message);
  }
  return added;
}

/** New meetings in a user's calendar (an incremental calendar sync returns them). */
export function addMeetings(sandbox: GoogleSandbox, rawEmail: string, input: NewMeetingInput = {}): StoredEvent[] {
  const state = sandbox.user(rawEmail);
  const { world, calendar, random } = state;
  const count = Math.max(1, Math.min(500, input.count ?? 1));
  const now = sandbox.now();
  const tomorrow = wallTimeToUtc(now + DAY, 10 * 60, world.timeZone);
  const first = toTime(input.start, tomorrow);
  const duration = (input.durationMinutes ?? 30) * MINUTE;
  const added: StoredEvent[] = [];
  for (let i = 0; i < count; i++) {
    const start = first + i * DAY;
    const guests: Address[] = input.attendees
      ? input.attendees.map(toAddress)
      : pickMeetingGuests(world, random).map((person) => ({ name: person.displayName, email: person.email }));
    const organizerEmail = (input.organizer ?? world.email).toLowerCase();
    const me = world.people[0];
    const attendees = [
      {
        email: world.email,
        responseStatus: organizerEmail === world.email ? ('accepted' as const) : ('needsAction' as const),
        self: true,
        ...(organizerEmail === world.email ? { organizer: true } : {}),
      },
      ...guests
        .filter((guest) => guest.email !== world.email)
        .map((guest) => ({
          email: guest.email,
          ...(guest.name ? { displayName: guest.name } : {}),
          responseStatus: guest.email === organizerEmail ? ('accepted' as const) : ('needsAction' as const),
          ...(guest.email === organizerEmail ? { organizer: true } : {}),
        })),
    ];
    const organizer = organizerEmail === world.email ? { email: world.email, self: true } : { email: organizerEmail };
    const firstGuest = guests[0];
    const guestPerson = firstGuest ? world.people.find((person) => person.email === firstGuest.email) : undefined;
    const guestCompany = guestPerson ? companyAt(guestPerson, start) : null;
    const companyName =
      guestCompany !== null && guestCompany !== undefined ? world.companies[guestCompany]?.name : undefined;
    const event: StoredEvent = {
      id: calendar.newEventId(),
      status: 'confirmed',
      summary:
        input.summary ??
        (companyName ? `${companyName} <> ${world.userCompany.name ?? me?.displayName ?? 'us'}` : 'Catch-up'),
      start,
      end: start + duration,
      allDay: false,
      organizer,
      creator: { ...organizer },
      attendees,
      created: now,
      updated: now,
      version: 0,
      createdVersion: 0,
      sequence: 0,
      hangoutLink: `https://meet.google.com/${random.hex(3).replace(/\d/g, 'k')}-${random.hex(4).replace(/\d/g, 'm')}-${random.hex(3).replace(/\d/g, 'p')}`,
    };
    calendar.add(event, now);
    added.push(event);
  }
  return added;
}

/** Cancels a meeting: an incremental sync returns it with status 'cancelled'. */
export function cancelMeeting(sandbox: GoogleSandbox, rawEmail: string, eventId: string): StoredEvent {
  const { calendar } = sandbox.user(rawEmail);
  const event = calendar.get(eventId);
  if (!event) throw notFound();
  calendar.change(event, sandbox.now(), (target) => {
    target.status = 'cancelled';
  });
  return event;
}

/** Drops retained history: a sync holding an older history id gets 404 and must start over. */
export function dropHistory(sandbox: GoogleSandbox, rawEmail: string): { historyId: string } {
  return { historyId: String(sandbox.user(rawEmail).mailbox.dropHistory()) };
}

/** Every calendar sync token of the user answers 410 (fullSyncRequired) from now on. */
export function invalidateCalendarSyncTokens(sandbox: GoogleSandbox, rawEmail: string): { invalidated: number } {
  return { invalidated: sandbox.user(rawEmail).calendar.invalidateSyncTokens() };
}

/** Every People sync token of the user answers 400 EXPIRED_SYNC_TOKEN from now on. */
export function invalidatePeopleSyncTokens(sandbox: GoogleSandbox, rawEmail: string): { invalidated: number } {
  return { invalidated: sandbox.user(rawEmail).contacts.invalidateSyncTokens() };
}

/** Access tokens (all, or one user's) expire now; refresh tokens keep working. */
export function expireAccessTokens(sandbox: GoogleSandbox, rawEmail?: string): { expired: number } {
  return { expired: sandbox.oauth.expireAccessTokens(rawEmail?.trim().toLowerCase()) };
}

/** As if the user removed the app in their Google account: refresh gets invalid_grant, calls 401. */
export function revokeGrants(sandbox: GoogleSandbox, rawEmail: string): { revoked: number } {
  return { revoked: sandbox.oauth.revokeUser(rawEmail.trim().toLowerCase()) };
}

export function stats(sandbox: GoogleSandbox, rawEmail: string) {
  const state = sandbox.user(rawEmail);
  const { world, mailbox, calendar, contacts } = state;
  return {
    email: world.email,
    generationMs: Math.round(state.generationMs * 10) / 10,
    messages: mailbox.size,
    threads: mailbox.threadCount,
    events: calendar.size,
    connections: contacts.connectionCount,
    otherContacts: contacts.otherCount,
    companies: world.companies.length,
    people: world.people.length - 1,
    historyId: String(mailbox.historyId),
    timeZone: world.timeZone,
    from: new Date(world.origin).toISOString(),
    to: new Date(world.anchor).toISOString(),
  };
}
