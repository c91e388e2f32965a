/**
 * Delivery failure reports, as Gmail writes them: mail the user sends to an address that no longer
 * exists (a saved contact's address at the company they left, a mistyped address) comes back within
 * seconds from `Mail Delivery Subsystem <mailer-daemon@googlemail.com>`, in the thread of the sent
 * message, naming the address in `X-Failed-Recipients`.
 */
import type { StoredMessage } from './mailbox.ts';
import { createRandom, type Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { DAY, HOUR, MINUTE } from './time.ts';
import { addressAt, type World } from './world.ts';

export const MAILER_DAEMON: Address = { name: 'Mail Delivery Subsystem', email: 'mailer-daemon@googlemail.com' };
export const BOUNCE_SUBJECT = 'Delivery Status Notification (Failure)';

/** How often the user writes to a mover's old address after they left (their saved contact is stale). */
const STALE_WRITE_CHANCE = 0.5;
/** Mistyped addresses: one per this many messages of the mailbox. */
const MESSAGES_PER_TYPO = 1500;
/** What one writes to someone not heard from in a while. */
const SUBJECTS = ['Catching up', 'Checking in', 'Quick question, {first}', 'Coffee next week?', 'Following up'];

/** The report Gmail puts in the sender's mailbox when `sent` could not reach `failed`; `read` once looked at. */
export function bounceOf(
  sent: StoredMessage,
  report: { failed: string[]; at: number; id: string; read: boolean },
  random: Random,
): StoredMessage {
  return {
    id: report.id,
    threadId: sent.threadId,
    internalDate: report.at,
    historyId: 0,
    labelIds: report.read ? ['IMPORTANT', 'CATEGORY_PERSONAL'] : ['UNREAD', 'IMPORTANT', 'CATEGORY_PERSONAL', 'INBOX'],
    from: MAILER_DAEMON,
    to: [{ name: '', email: sent.from.email }],
    cc: [],
    bcc: [],
    subject: BOUNCE_SUBJECT,
    rfcMessageId: `<${random.hex(8)}.${random.hex(12)}.${random.hex(4)}.${random.hex(4)}.GMR@mx.google.com>`,
    ...(sent.clientHeaders
      ? { inReplyTo: sent.rfcMessageId, references: [...(sent.references ?? []), sent.rfcMessageId ?? ''] }
      : { parentId: sent.id }),
    offset: 0,
    inbound: true,
    failedRecipients: report.failed,
    sizeEstimate: random.int(5_500, 9_500),
  };
}

/** Swaps two neighbouring letters of the local part: `jane.doe@x` -> `jnae.doe@x`. */
function mistype(email: string, random: Random): string {
  const [local = '', domain = ''] = email.split('@');
  const letters = [...local].flatMap((char, index) =>
    /[a-z]/.test(char) && /[a-z]/.test(local[index + 1] ?? '') && char !== local[index + 1] ? [index] : [],
  );
  if (letters.length === 0) return `${local}x@${domain}`;
  const at = random.pick(letters);
  return `${local.slice(0, at)}${local[at + 1]}${local[at]}${local.slice(at + 2)}@${domain}`;
}

/**
 * The bounces of a generated mailbox, each after the mail that caused it: half of the people who
 * changed jobs get mail at their old address some time after they left (a few twice), and a few
 * addresses are mistyped. Drawn from a generator of their own, so the rest of the mailbox is the
 * same with or without them.
 */
export function writeBounces(world: World, messages: StoredMessage[], newId: (time: number) => string): void {
  const random = createRandom(`${world.seed}:bounces`);
  const user = world.people[0];
  if (!user) return;
  const from: Address = { name: user.displayName, email: world.email };
  const sendAndBounce = (to: Address, time: number, first: string) => {
    if (time + MINUTE > world.anchor) return;
    const id = newId(time);
    const sent: StoredMessage = {
      id,
      threadId: id,
      internalDate: time,
      historyId: 0,
      labelIds: ['SENT'],
      from,
      to: [to],
      cc: [],
      bcc: [],
      subject: random.pick(SUBJECTS).replace('{first}', first),
      offset: 0,
      inbound: false,
      sizeEstimate: random.int(2_500, 30_000),
    };
    const at = time + random.int(2, 40) * 1000;
    const read = world.anchor - at > 45 * DAY;
    messages.push(sent, bounceOf(sent, { failed: [to.email], at, id: newId(at), read }, random));
  };

  for (const person of world.people) {
    if (!person.formerEmail || person.changedAt === undefined || !random.chance(STALE_WRITE_CHANCE)) continue;
    const old: Address = { name: person.displayName, email: person.formerEmail };
    let time = person.changedAt + random.int(3, 240) * DAY + random.int(8, 18) * HOUR;
    for (let attempt = 0; attempt < (random.chance(0.2) ? 2 : 1); attempt++) {
      sendAndBounce(old, time, person.givenName);
      time += random.int(14, 120) * DAY;
    }
  }
  const known = world.people.filter((person) => ['core', 'active', 'occasional'].includes(person.kind));
  const typos = known.length > 0 ? Math.round(world.size.messages / MESSAGES_PER_TYPO) : 0;
  for (let i = 0; i < typos; i++) {
    const person = random.pick(known);
    const time = Math.floor(Math.max(person.start, world.origin) + random.next() * (world.anchor - person.start));
    const to: Address = { name: person.displayName, email: mistype(addressAt(person, time), random) };
    sendAndBounce(to, time, person.givenName);
  }
}
