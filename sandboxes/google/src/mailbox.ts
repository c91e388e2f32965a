/** One user's Gmail mailbox: messages, threads, history records and drafts. */
import { notFound } from './errors.ts';
import { decodePageToken, encodePageToken, numberField, stringField } from './params.ts';
import { createRandom, type Random } from './random.ts';
import { type Address, formatAddress, type Header } from './rfc5322.ts';
import { rfc5322Date } from './time.ts';

export type StoredMessage = {
  id: string;
  threadId: string;
  internalDate: number;
  historyId: number;
  labelIds: string[];
  from: Address;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  /** The Message-ID header; generated mail derives it from its id (see `rfcIdOf`). */
  rfcMessageId?: string;
  /** Generated replies: the Gmail id of the message replied to (In-Reply-To and References follow). */
  parentId?: string;
  /** Mail written by clients: the threading headers as written. */
  inReplyTo?: string;
  references?: string[];
  /** The sender's UTC offset in minutes, for the Date header. */
  offset: number;
  /** Received (rather than written here): carries Delivered-To. */
  inbound: boolean;
  listUnsubscribe?: string;
  /** A delivery failure report (bounces.ts): the addresses it could not deliver to. */
  failedRecipients?: string[];
  sizeEstimate: number;
  /** Headers of a message written by a client through the sandbox, as it sent them (decoded). */
  clientHeaders?: Header[];
  /** The text body, only for mail sent through the sandbox (generated mail has none). */
  text?: string;
};

export type HistoryRecord = {
  id: number;
  added?: StoredMessage[];
  deleted?: { id: string; threadId: string; labelIds: string[] }[];
};

/** A draft keeps the RFC 5322 message the client wrote, to send it as written. */
export type Draft = { id: string; message: StoredMessage; raw: Buffer };

export type ListOptions = {
  labelIds: string[];
  includeSpamTrash: boolean;
  filter?: (message: StoredMessage) => boolean;
  maxResults: number;
  pageToken?: string;
};

const compare = (a: StoredMessage, time: number, id: string) =>
  a.internalDate !== time ? a.internalDate - time : a.id < id ? -1 : a.id > id ? 1 : 0;

export class Mailbox {
  readonly email: string;
  /** Ascending by (internalDate, id). */
  private readonly messages: StoredMessage[] = [];
  private readonly byId = new Map<string, StoredMessage>();
  private readonly threads = new Map<string, StoredMessage[]>();
  private readonly byRfcId = new Map<string, StoredMessage>();
  private readonly drafts = new Map<string, Draft>();
  private readonly random: Random;
  private readonly usedIds = new Set<string>();
  private derivedIndexed = false;
  /** The mailbox's current history id. */
  historyId: number;
  /** History before this id is no longer retained: older start ids get 404. */
  historyFloor: number;
  history: HistoryRecord[] = [];

  constructor(email: string, random: Random, firstHistoryId: number) {
    this.email = email;
    this.random = random;
    this.historyId = firstHistoryId;
    this.historyFloor = firstHistoryId;
  }

  /** A Gmail-like id: the time in milliseconds as hex, then random hex (16 digits in all). */
  newId(time: number): string {
    for (;;) {
      const suffix = Math.floor(this.random.next() * 0x100000)
        .toString(16)
        .padStart(5, '0');
      const id = Math.max(0, Math.floor(time)).toString(16).padStart(11, '0') + suffix;
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  newDraftId(): string {
    return `r${this.random.chance(0.5) ? '-' : ''}${this.random.digits(19)}`;
  }

  get size(): number {
    return this.messages.length;
  }

  get threadCount(): number {
    return this.threads.size;
  }

  all(): readonly StoredMessage[] {
    return this.messages;
  }

  get(id: string): StoredMessage | undefined {
    return this.byId.get(id);
  }

  thread(threadId: string): readonly StoredMessage[] | undefined {
    return this.threads.get(threadId);
  }

  /** The thread a reply belongs to, from its In-Reply-To and References. */
  threadOfReply(references: readonly string[]): string | undefined {
    if (references.length === 0) return undefined;
    if (!this.derivedIndexed) {
      // Generated mail has no stored Message-ID: index the derived ones on first need.
      for (const message of this.messages) if (!message.rfcMessageId) this.byRfcId.set(rfcIdOf(message), message);
      this.derivedIndexed = true;
    }
    for (let i = references.length - 1; i >= 0; i--) {
      const found = this.byRfcId.get(references[i] ?? '');
      if (found && this.byId.get(found.id) === found) return found.threadId;
    }
    return undefined;
  }

  /** In-Reply-To and References of a message (walked up the parents for generated mail). */
  threading(message: StoredMessage): { inReplyTo?: string; references: string[] } {
    if (!message.parentId) return { inReplyTo: message.inReplyTo, references: message.references ?? [] };
    const references: string[] = [];
    let parent = this.byId.get(message.parentId);
    while (parent && references.length < 8) {
      references.unshift(rfcIdOf(parent));
      parent = parent.parentId ? this.byId.get(parent.parentId) : undefined;
    }
    return { inReplyTo: references[references.length - 1], references };
  }

  /**
   * Adds a message. With `record`, it gets a new history id and a messagesAdded record (mail arriving
   * now); without, it keeps the history id it has (generated past mail).
   */
  insert(message: StoredMessage, record: boolean): void {
    if (record) {
      this.historyId += 1 + this.random.int(0, 3);
      message.historyId = this.historyId;
      this.history.push({ id: this.historyId, added: [message] });
    } else if (message.historyId > this.historyId) {
      this.historyId = message.historyId;
    }
    this.usedIds.add(message.id);
    let low = 0;
    let high = this.messages.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const item = this.messages[middle];
      if (item && compare(item, message.internalDate, message.id) < 0) low = middle + 1;
      else high = middle;
    }
    this.messages.splice(low, 0, message);
    this.byId.set(message.id, message);
    const thread = this.threads.get(message.threadId);
    if (thread) thread.push(message);
    else this.threads.set(message.threadId, [message]);
    this.byRfcId.set(rfcIdOf(message), message);
  }

  /** Appends generated past mail already sorted ascending: much faster than `insert`. */
  loadSorted(messages: StoredMessage[]): void {
    for (const message of messages) {
      this.messages.push(message);
      this.byId.set(message.id, message);
      this.usedIds.add(message.id);
      const thread = this.threads.get(message.threadId);
      if (thread) thread.push(message);
      else this.threads.set(message.threadId, [message]);
      if (message.rfcMessageId) this.byRfcId.set(message.rfcMessageId, message);
      if (message.historyId > this.historyId) this.historyId = message.historyId;
    }
  }

  remove(id: string): StoredMessage | undefined {
    const message = this.byId.get(id);
    if (!message) return undefined;
    this.byId.delete(id);
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
    const thread = this.threads.get(message.threadId);
    if (thread) {
      const remaining = thread.filter((item) => item !== message);
      if (remaining.length > 0) this.threads.set(message.threadId, remaining);
      else this.threads.delete(message.threadId);
    }
    const rfcId = rfcIdOf(message);
    if (this.byRfcId.get(rfcId) === message) this.byRfcId.delete(rfcId);
    this.historyId += 1 + this.random.int(0, 3);
    this.history.push({
      id: this.historyId,
      deleted: [{ id: message.id, threadId: message.threadId, labelIds: message.labelIds.slice() }],
    });
    return message;
  }

  /** Stops retaining history: any start id before the current one is now stale (404). */
  dropHistory(): number {
    this.history = [];
    this.historyId += 1;
    this.historyFloor = this.historyId;
    return this.historyId;
  }

  list(options: ListOptions) {
    const matches = (message: StoredMessage) => {
      if (!options.includeSpamTrash && (message.labelIds.includes('SPAM') || message.labelIds.includes('TRASH'))) {
        return false;
      }
      for (const label of options.labelIds) if (!message.labelIds.includes(label)) return false;
      return options.filter ? options.filter(message) : true;
    };
    const cursor = decodePageToken('messages', options.pageToken);
    let index = this.messages.length - 1;
    if (cursor) {
      const time = numberField(cursor, 't');
      const id = stringField(cursor, 'i');
      let low = 0;
      let high = this.messages.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const item = this.messages[middle];
        if (item && compare(item, time, id) < 0) low = middle + 1;
        else high = middle;
      }
      index = low - 1;
    }
    const page: StoredMessage[] = [];
    let last: StoredMessage | undefined;
    let more = false;
    for (; index >= 0; index--) {
      const message = this.messages[index];
      if (!message || !matches(message)) continue;
      if (page.length === options.maxResults) {
        more = true;
        break;
      }
      page.push(message);
      last = message;
    }
    let total = 0;
    for (const message of this.messages) if (matches(message)) total++;
    return {
      messages: page,
      nextPageToken: more && last ? encodePageToken('messages', { t: last.internalDate, i: last.id }) : undefined,
      resultSizeEstimate: total,
    };
  }

  /** Threads, newest activity first. */
  listThreads(options: ListOptions) {
    const latest: { threadId: string; time: number; id: string }[] = [];
    for (const [threadId, messages] of this.threads) {
      const visible = messages.filter(
        (message) =>
          options.includeSpamTrash || (!message.labelIds.includes('SPAM') && !message.labelIds.includes('TRASH')),
      );
      if (visible.length === 0) continue;
      if (!visible.some((message) => options.labelIds.every((label) => message.labelIds.includes(label)))) continue;
      if (options.filter && !visible.some(options.filter)) continue;
      const newest = visible.reduce((a, b) => (compare(a, b.internalDate, b.id) >= 0 ? a : b));
      latest.push({ threadId, time: newest.internalDate, id: newest.id });
    }
    latest.sort((a, b) => (a.time !== b.time ? b.time - a.time : a.id < b.id ? 1 : -1));
    const cursor = decodePageToken('threads', options.pageToken);
    const start = cursor ? numberField(cursor, 'o') : 0;
    const page = latest.slice(start, start + options.maxResults);
    return {
      threads: page.map((entry) => entry.threadId),
      nextPageToken:
        start + options.maxResults < latest.length
          ? encodePageToken('threads', { o: start + options.maxResults })
          : undefined,
      resultSizeEstimate: latest.length,
    };
  }

  listHistory(options: {
    startHistoryId: number;
    historyTypes: string[];
    labelId?: string;
    maxResults: number;
    pageToken?: string;
  }) {
    if (options.startHistoryId < this.historyFloor) throw notFound();
    const cursor = decodePageToken('history', options.pageToken);
    const after = cursor ? numberField(cursor, 'h') : options.startHistoryId;
    const types = new Set(options.historyTypes);
    const wants = (type: string) => types.size === 0 || types.has(type);
    const page: HistoryRecord[] = [];
    let more = false;
    for (const record of this.history) {
      if (record.id <= after) continue;
      const added = wants('messageAdded') ? record.added : undefined;
      const deleted = wants('messageDeleted') ? record.deleted : undefined;
      if (!added?.length && !deleted?.length) continue;
      if (options.labelId) {
        const label = options.labelId;
        const touches =
          added?.some((message) => message.labelIds.includes(label)) ||
          deleted?.some((message) => message.labelIds.includes(label));
        if (!touches) continue;
      }
      if (page.length === options.maxResults) {
        more = true;
        break;
      }
      page.push({ id: record.id, added, deleted });
    }
    const last = page[page.length - 1];
    return {
      records: page,
      nextPageToken: more && last ? encodePageToken('history', { h: last.id }) : undefined,
      historyId: this.historyId,
    };
  }

  addDraft(draft: Draft): void {
    this.drafts.set(draft.id, draft);
  }

  draft(id: string): Draft | undefined {
    return this.drafts.get(id);
  }

  deleteDraft(id: string): Draft | undefined {
    const draft = this.drafts.get(id);
    if (!draft) return undefined;
    this.drafts.delete(id);
    this.remove(draft.message.id);
    return draft;
  }

  listDrafts(): Draft[] {
    return [...this.drafts.values()].sort((a, b) => b.message.internalDate - a.message.internalDate);
  }
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The Message-ID header: as written, or derived from the Gmail id in the style of the sender's mailer. */
export function rfcIdOf(message: StoredMessage): string {
  if (message.rfcMessageId) return message.rfcMessageId;
  const random = createRandom(message.id);
  const domain = message.from.email.split('@')[1] ?? 'mail.example.com';
  const style = random.next();
  if (!message.inbound || domain === 'gmail.com' || style < 0.2) {
    return `<CA${random.chars(UPPER, 8)}+${random.chars(BASE64URL, 32)}@mail.gmail.com>`;
  }
  if (style < 0.6) {
    return `<${random.hex(8)}-${random.hex(4)}-${random.hex(4)}-${random.hex(4)}-${random.hex(12)}@${domain}>`;
  }
  return `<${Math.floor(message.internalDate / 1000)}.${random.digits(6)}.${random.hex(8)}@${domain}>`;
}

/** The headers of a stored message in the order mailers write them. */
export function headersOf(message: StoredMessage, mailbox: Mailbox): Header[] {
  const mailboxEmail = mailbox.email;
  if (message.clientHeaders) {
    const headers = message.clientHeaders.filter((header) => {
      const name = header.name.toLowerCase();
      return !(message.inbound && name === 'bcc');
    });
    return message.inbound ? [{ name: 'Delivered-To', value: mailboxEmail }, ...headers] : headers;
  }
  const headers: Header[] = [];
  if (message.inbound) headers.push({ name: 'Delivered-To', value: mailboxEmail });
  // Gmail's reports carry these above the rest (its own Received lines, which we omit, come between).
  if (message.failedRecipients) {
    headers.push({ name: 'X-Failed-Recipients', value: message.failedRecipients.join(', ') });
    headers.push({ name: 'Return-Path', value: '<>' });
    headers.push({ name: 'Auto-Submitted', value: 'auto-replied' });
  }
  headers.push({ name: 'MIME-Version', value: '1.0' });
  headers.push({ name: 'Date', value: rfc5322Date(message.internalDate, message.offset) });
  const { inReplyTo, references } = mailbox.threading(message);
  if (references.length > 0) headers.push({ name: 'References', value: references.join(' ') });
  if (inReplyTo) headers.push({ name: 'In-Reply-To', value: inReplyTo });
  headers.push({ name: 'Message-ID', value: rfcIdOf(message) });
  headers.push({ name: 'Subject', value: message.subject });
  headers.push({ name: 'From', value: formatAddress(message.from) });
  if (message.to.length) headers.push({ name: 'To', value: message.to.map((a) => formatAddress(a)).join(', ') });
  if (message.cc.length) headers.push({ name: 'Cc', value: message.cc.map((a) => formatAddress(a)).join(', ') });
  if (message.bcc.length && !message.inbound) {
    headers.push({ name: 'Bcc', value: message.bcc.map((a) => formatAddress(a)).join(', ') });
  }
  if (message.listUnsubscribe) headers.push({ name: 'List-Unsubscribe', value: message.listUnsubscribe });
  const boundary = `0000000000${message.id.slice(-6)}${message.id.slice(0, 10)}`;
  headers.push({
    name: 'Content-Type',
    value: message.failedRecipients
      ? `multipart/report; boundary="${boundary}"; report-type=delivery-status`
      : `multipart/alternative; boundary="${boundary}"`,
  });
  return headers;
}
