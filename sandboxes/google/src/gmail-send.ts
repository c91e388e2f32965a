/**
 * Mail written by a client: a message composed in the user's own mailbox (a draft, or sent), the log
 * of sent mail the /mail page shows, delivery to the other sandbox users it is addressed to, and the
 * bounce of mail to an address someone left behind.
 */
import { bounceOf } from './bounces.ts';
import { invalidArgument } from './errors.ts';
import { rfcIdOf, type StoredMessage } from './mailbox.ts';
import { type Address, EMAIL_PATTERN, formatAddress, type ParsedMessage } from './rfc5322.ts';
import type { GoogleSandbox, SentMail, UserState } from './sandbox.ts';

export function requireRaw(raw: Buffer | undefined): Buffer {
  if (!raw || raw.length === 0) {
    throw invalidArgument("'raw' RFC822 payload message string or uploading message via /upload/* URL required");
  }
  return raw;
}

export function requireRecipients(parsed: ParsedMessage) {
  if (parsed.to.length + parsed.cc.length + parsed.bcc.length === 0)
    throw invalidArgument('Recipient address required');
  for (const address of [...parsed.to, ...parsed.cc, ...parsed.bcc]) {
    if (!EMAIL_PATTERN.test(address.email)) throw invalidArgument(`Invalid To header`);
  }
}

/** A message written by the client, as it lands in the user's own mailbox (From set to the user). */
export function composeMessage(
  state: UserState,
  parsed: ParsedMessage,
  now: number,
  threadId: string | undefined,
  labelIds: string[],
): StoredMessage {
  const { mailbox, world } = state;
  const me = world.people[0];
  const given = parsed.from[0];
  const from: Address = {
    name:
      given && given.email.toLowerCase() === world.email && given.name
        ? given.name
        : given?.name || me?.displayName || '',
    email: world.email,
  };
  const id = mailbox.newId(now);
  const references = [...parsed.references];
  if (parsed.inReplyTo && !references.includes(parsed.inReplyTo)) references.push(parsed.inReplyTo);
  const thread =
    (threadId && mailbox.thread(threadId) ? threadId : undefined) ?? mailbox.threadOfReply(references) ?? id;
  const rfcMessageId =
    parsed.messageId ?? `<CA${state.random.hex(12).toUpperCase()}+${state.random.hex(20)}@mail.gmail.com>`;
  const headers = parsed.headers.filter((header) => header.name.toLowerCase() !== 'from');
  headers.unshift({ name: 'From', value: formatAddress(from) });
  if (!parsed.messageId) headers.push({ name: 'Message-ID', value: rfcMessageId });
  if (!parsed.header('date'))
    headers.push({ name: 'Date', value: new Date(now).toUTCString().replace('GMT', '+0000') });
  return {
    id,
    threadId: thread,
    internalDate: now,
    historyId: 0,
    labelIds,
    from,
    to: parsed.to,
    cc: parsed.cc,
    bcc: parsed.bcc,
    subject: parsed.subject,
    rfcMessageId,
    inReplyTo: parsed.inReplyTo,
    references,
    offset: 0,
    inbound: false,
    sizeEstimate: parsed.sizeEstimate,
    clientHeaders: headers,
    text: parsed.text,
  };
}

/** Sends: kept in the sender's mailbox as SENT, delivered to sandbox users, logged for /mail. */
export function send(
  sandbox: GoogleSandbox,
  state: UserState,
  parsed: ParsedMessage,
  threadId: string | undefined,
  via: SentMail['via'],
): StoredMessage {
  const now = sandbox.now();
  const message = composeMessage(state, parsed, now, threadId, ['SENT']);
  state.mailbox.insert(message, true);
  for (const recipient of [...message.to, ...message.cc, ...message.bcc]) {
    state.contacts.addOtherContact(recipient, now, true);
  }
  const sent: SentMail = {
    id: message.id,
    threadId: message.threadId,
    from: message.from,
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    subject: message.subject,
    text: parsed.text,
    messageId: rfcIdOf(message),
    inReplyTo: parsed.inReplyTo,
    sentAt: now,
    via,
    deliveredTo: [],
  };
  sandbox.recordSent(sent);
  const recipients = new Set(
    [...message.to, ...message.cc, ...message.bcc].map((address) => address.email.toLowerCase()),
  );
  // An old address of someone who changed jobs no longer exists: Gmail reports it within seconds.
  const dead = state.world.people
    .filter((person) => person.formerEmail && person.changedAt !== undefined && person.changedAt <= now)
    .map((person) => person.formerEmail ?? '')
    .filter((email) => recipients.has(email));
  if (dead.length > 0) {
    const at = now + 1000;
    state.mailbox.insert(
      bounceOf(message, { failed: dead, at, id: state.mailbox.newId(at), read: false }, state.random),
      true,
    );
  }
  for (const email of recipients) {
    if (email === state.world.email) continue;
    const other = sandbox.knownUser(email);
    if (!other) continue;
    deliver(other, sent, message);
    sent.deliveredTo.push(email);
  }
  return message;
}

/** A copy of sent mail in a sandbox user's inbox. */
export function deliver(state: UserState, sent: SentMail, original?: StoredMessage) {
  const { mailbox } = state;
  const id = mailbox.newId(sent.sentAt);
  const references = original?.references ?? [];
  const headers = original?.clientHeaders ?? [
    { name: 'From', value: formatAddress(sent.from) },
    { name: 'To', value: sent.to.map((address) => formatAddress(address)).join(', ') },
    { name: 'Subject', value: sent.subject },
    { name: 'Message-ID', value: sent.messageId },
  ];
  mailbox.insert(
    {
      id,
      threadId: mailbox.threadOfReply(references) ?? id,
      internalDate: sent.sentAt,
      historyId: 0,
      labelIds: ['UNREAD', 'CATEGORY_PERSONAL', 'INBOX'],
      from: sent.from,
      to: sent.to,
      cc: sent.cc,
      bcc: [],
      subject: sent.subject,
      rfcMessageId: sent.messageId,
      inReplyTo: sent.inReplyTo,
      references,
      offset: 0,
      inbound: true,
      sizeEstimate: original?.sizeEstimate ?? 2000,
      clientHeaders: headers,
      text: sent.text,
    },
    true,
  );
}
