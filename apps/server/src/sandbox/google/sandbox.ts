/**
 * The state of the Google sandbox: OAuth grants, one lazily generated world per signed-in e-mail
 * (mailbox, calendar, contact book), the mail sent through it, and the test controls. The HTTP layer
 * (plugin.ts) is a thin shell over this object; tests can drive it directly.
 */
import { Calendar, type StoredEvent } from './calendar.ts';
import { generateEvents, pickMeetingGuests } from './calendar-gen.ts';
import { ContactBook, OTHER_CONTACT_FIELDS, PERSON_FIELDS, readFieldMask, serializeContact } from './contacts.ts';
import {
  GoogleApiError,
  insufficientScopes,
  invalidArgument,
  notFound,
  rateLimited,
  unauthenticated,
} from './errors.ts';
import { generateMail, pickNewMailSender } from './mail-gen.ts';
import { headersOf, Mailbox, rfcIdOf, type StoredMessage } from './mailbox.ts';
import {
  type Authenticated,
  IDENTITY_SCOPES,
  isKnownScope,
  normalizeScopes,
  OAuthServer,
  SCOPE_DESCRIPTIONS,
  SCOPES,
} from './oauth.ts';
import { booleanParam, integerParam, listParam, type Query, stringParam } from './params.ts';
import { createRandom, type Random } from './random.ts';
import { type Address, formatAddress, type ParsedMessage, parseMessage } from './rfc5322.ts';
import { DAY, MINUTE, wallTimeToUtc } from './time.ts';
import { WORK_SUBJECTS } from './words.ts';
import { companyAt, generateWorld, type World, type WorldSize } from './world.ts';

export type GoogleSandboxOptions = {
  /** The externally visible base of the server, e.g. `http://localhost:3000` (no trailing slash). */
  publicUrl: string;
  /** Where the sandbox is mounted under publicUrl; default `/sandbox/google`. */
  prefix?: string;
  /** Milliseconds since the epoch; default Date.now. */
  clock?: () => number;
  /**
   * Registered OAuth clients. Without it any client id is accepted (with any non-empty secret), as a
   * local fake should; with it, unknown clients, wrong secrets and unregistered redirect URIs fail.
   */
  clients?: { clientId: string; clientSecret: string; redirectUris?: string[] }[];
  /** The size of each generated world (default: by the address, see `sizeForEmail`). */
  worldSize?: (email: string) => WorldSize;
};

export type UserState = {
  world: World;
  mailbox: Mailbox;
  calendar: Calendar;
  contacts: ContactBook;
  /** Milliseconds it took to generate this world. */
  generationMs: number;
  /** Draws for the controls (new mail, new meetings): deterministic per user and call order. */
  random: Random;
};

export type SentMail = {
  id: string;
  threadId: string;
  from: Address;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  sentAt: number;
  via: 'messages.send' | 'drafts.send';
  /** Sandbox users whose mailbox received it. */
  deliveredTo: string[];
};

export type SentMailJson = Omit<SentMail, 'sentAt'> & { sentAt: string };

export type NewMailInput = {
  count?: number;
  from?: string | Address;
  to?: (string | Address)[];
  cc?: (string | Address)[];
  subject?: string;
  /** ISO date or milliseconds; default now. */
  at?: string | number;
  labelIds?: string[];
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

type AuthorizeResult =
  | { kind: 'error'; status: number; error: string; message: string }
  | { kind: 'redirect'; url: string }
  | {
      kind: 'consent';
      params: Record<string, string>;
      scopes: { scope: string; description: string; required: boolean }[];
      loginHint: string;
    };

const READ_MAIL = [SCOPES.gmailMetadata, SCOPES.gmailReadonly, SCOPES.gmailModify, SCOPES.gmailFull];
const PROFILE_MAIL = [...READ_MAIL, SCOPES.gmailCompose];
const COMPOSE = [SCOPES.gmailCompose, SCOPES.gmailModify, SCOPES.gmailFull];
const READ_DRAFTS = [...COMPOSE, SCOPES.gmailReadonly];
const SEND = [SCOPES.gmailSend, ...COMPOSE];
const CONTACTS = [SCOPES.contacts, SCOPES.contactsReadonly];
const OTHER_CONTACTS = [SCOPES.otherContacts, SCOPES.contacts];
const CALENDAR = [
  SCOPES.calendar,
  SCOPES.calendarReadonly,
  SCOPES.calendarEvents,
  SCOPES.calendarEventsReadonly,
  SCOPES.calendarEventsOwned,
  SCOPES.calendarEventsOwnedReadonly,
];

const EMAIL_PATTERN = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

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

/** The restricted metadata scope: no `q`, no message bodies. */
const metadataOnly = (auth: Authenticated) =>
  auth.scopes.includes(SCOPES.gmailMetadata) &&
  !auth.scopes.some(
    (scope) => scope === SCOPES.gmailReadonly || scope === SCOPES.gmailModify || scope === SCOPES.gmailFull,
  );

/** The paging and filter parameters messages.list and threads.list share; `q` needs more than metadata. */
function mailListOptions(auth: Parameters<typeof metadataOnly>[0], query: Query) {
  const q = stringParam(query, 'q');
  if (q && metadataOnly(auth)) {
    throw new GoogleApiError(403, "Metadata scope does not support 'q' parameter", { reason: 'forbidden' });
  }
  return {
    labelIds: listParam(query, 'labelIds'),
    includeSpamTrash: booleanParam(query, 'includeSpamTrash', false),
    filter: q ? searchFilter(q) : undefined,
    maxResults: integerParam(query, 'maxResults', { fallback: 100, min: 1, max: 500 }),
    pageToken: stringParam(query, 'pageToken'),
  };
}

export class GoogleSandbox {
  private publicBase: string;
  readonly prefix: string;
  readonly oauth: OAuthServer;
  private readonly clock: () => number;
  private readonly users = new Map<string, UserState>();
  private readonly sent: SentMail[] = [];
  private readonly worldSize: ((email: string) => WorldSize) | undefined;
  private rateLimit: { remaining: number; retryAfterSeconds: number; email?: string } = {
    remaining: 0,
    retryAfterSeconds: 1,
  };

  constructor(options: GoogleSandboxOptions) {
    this.publicBase = options.publicUrl.replace(/\/+$/, '');
    this.prefix = options.prefix ?? '/sandbox/google';
    this.clock = options.clock ?? Date.now;
    this.worldSize = options.worldSize;
    this.oauth = new OAuthServer({
      clock: this.clock,
      clients: options.clients,
      profileOf: (email) => {
        const { world } = this.user(email);
        const me = world.people[0];
        return {
          sub: world.accountId,
          name: me?.displayName ?? email,
          givenName: me?.givenName ?? '',
          familyName: me?.familyName ?? '',
        };
      },
    });
  }

  get publicUrl(): string {
    return this.publicBase;
  }

  /** Once the listening port is known (a server on port 0). */
  setPublicUrl(publicUrl: string): void {
    this.publicBase = publicUrl.replace(/\/+$/, '');
  }

  /** The sandbox's base URL (OAuth endpoints and pages live under it). */
  get baseUrl(): string {
    return `${this.publicBase}${this.prefix}`;
  }

  now(): number {
    return this.clock();
  }

  // ---------------------------------------------------------------------------------------------
  // Worlds

  /** The user's world, generated on first use. */
  user(rawEmail: string): UserState {
    const email = rawEmail.trim().toLowerCase();
    let state = this.users.get(email);
    if (state) return state;
    const started = performance.now();
    const world = generateWorld(email, this.clock(), this.worldSize?.(email));
    const mailbox = new Mailbox(email, createRandom(`${world.seed}:message-ids`), 0);
    const mail = generateMail(world, (time) => mailbox.newId(time));
    mailbox.historyId = mail.firstHistoryId;
    mailbox.loadSorted(mail.messages);
    mailbox.history = mail.history;
    mailbox.historyFloor = mail.historyFloor;
    const calendar = new Calendar(email, world.timeZone, createRandom(`${world.seed}:event-ids`), world.anchor);
    calendar.load(generateEvents(world, () => calendar.newEventId()));
    const contacts = buildContacts(world, mail.messages);
    state = {
      world,
      mailbox,
      calendar,
      contacts,
      generationMs: performance.now() - started,
      random: createRandom(`${world.seed}:controls`),
    };
    this.users.set(email, state);
    // Mail sent through the sandbox to this address before it signed in.
    for (const sent of this.sent) {
      const recipients = [...sent.to, ...sent.cc, ...sent.bcc].map((address) => address.email.toLowerCase());
      if (recipients.includes(email) && sent.from.email !== email) {
        this.deliver(state, sent);
        sent.deliveredTo.push(email);
      }
    }
    return state;
  }

  /** Whether the address has a world (signed in, or used by a test). */
  isUser(email: string): boolean {
    return this.users.has(email.trim().toLowerCase());
  }

  /** The addresses that have a world. */
  userEmails(): string[] {
    return [...this.users.keys()];
  }

  // ---------------------------------------------------------------------------------------------
  // OAuth

  authorize(query: Query): AuthorizeResult {
    const clientId = stringParam(query, 'client_id');
    const redirectUri = stringParam(query, 'redirect_uri');
    const responseType = stringParam(query, 'response_type');
    const scope = stringParam(query, 'scope');
    const state = stringParam(query, 'state');
    if (!clientId)
      return { kind: 'error', status: 400, error: 'invalid_request', message: 'Missing required parameter: client_id' };
    if (!redirectUri)
      return {
        kind: 'error',
        status: 400,
        error: 'invalid_request',
        message: 'Missing required parameter: redirect_uri',
      };
    let redirect: URL;
    try {
      redirect = new URL(redirectUri);
      if (redirect.protocol !== 'http:' && redirect.protocol !== 'https:') throw new Error('scheme');
    } catch {
      return {
        kind: 'error',
        status: 400,
        error: 'invalid_request',
        message: `Invalid parameter value for redirect_uri: ${redirectUri}`,
      };
    }
    const clientError = this.oauth.checkClient(clientId, redirectUri);
    if (clientError) return { kind: 'error', status: 400, error: 'invalid_client', message: clientError };
    if (!responseType)
      return {
        kind: 'error',
        status: 400,
        error: 'invalid_request',
        message: 'Missing required parameter: response_type',
      };
    if (responseType !== 'code') {
      redirect.searchParams.set('error', 'unsupported_response_type');
      if (state !== undefined) redirect.searchParams.set('state', state);
      return { kind: 'redirect', url: redirect.toString() };
    }
    if (!scope)
      return { kind: 'error', status: 400, error: 'invalid_request', message: 'Missing required parameter: scope' };
    const scopes = normalizeScopes(scope);
    const invalid = scopes.filter((item) => !isKnownScope(item));
    if (invalid.length > 0) {
      return {
        kind: 'error',
        status: 400,
        error: 'invalid_scope',
        message: `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`,
      };
    }
    const method = stringParam(query, 'code_challenge_method');
    if (method && method !== 'S256' && method !== 'plain') {
      return {
        kind: 'error',
        status: 400,
        error: 'invalid_request',
        message: `Invalid code_challenge_method: ${method}`,
      };
    }
    const params: Record<string, string> = {};
    for (const name of [
      'client_id',
      'redirect_uri',
      'response_type',
      'scope',
      'state',
      'access_type',
      'prompt',
      'include_granted_scopes',
      'code_challenge',
      'code_challenge_method',
      'nonce',
      'login_hint',
    ]) {
      const value = stringParam(query, name);
      if (value !== undefined) params[name] = value;
    }
    return {
      kind: 'consent',
      params,
      scopes: scopes.map((item) => ({
        scope: item,
        description: SCOPE_DESCRIPTIONS[item] ?? item,
        required: IDENTITY_SCOPES.includes(item),
      })),
      loginHint: stringParam(query, 'login_hint') ?? '',
    };
  }

  /**
   * The consent form's answer: a redirect to the client with a code (or `error=access_denied`), or the
   * page again with an error.
   */
  consent(
    form: Query,
  ): AuthorizeResult | { kind: 'invalid-email'; page: AuthorizeResult; message: string; email: string } {
    const request = this.authorize(form);
    if (request.kind !== 'consent') return request;
    const redirect = new URL(request.params.redirect_uri ?? '');
    const state = request.params.state;
    if (stringParam(form, 'decision') !== 'allow') {
      redirect.searchParams.set('error', 'access_denied');
      if (state !== undefined) redirect.searchParams.set('state', state);
      return { kind: 'redirect', url: redirect.toString() };
    }
    const email = (stringParam(form, 'email') ?? '').trim().toLowerCase();
    if (!EMAIL_PATTERN.test(email)) {
      return { kind: 'invalid-email', page: request, message: 'Enter a valid email address.', email };
    }
    const ticked = new Set(listParam(form, 'granted_scope'));
    const granted = request.scopes.filter((item) => item.required || ticked.has(item.scope)).map((item) => item.scope);
    const clientId = request.params.client_id ?? '';
    if (request.params.include_granted_scopes === 'true') {
      for (const grant of this.oauth.activeGrants(email)) {
        if (grant.clientId !== clientId) continue;
        for (const scope of grant.scopes) if (!granted.includes(scope)) granted.push(scope);
      }
    }
    this.user(email);
    const code = this.oauth.issueCode({
      email,
      clientId,
      redirectUri: request.params.redirect_uri ?? '',
      scopes: granted,
      offline: request.params.access_type === 'offline',
      codeChallenge: request.params.code_challenge,
      codeChallengeMethod:
        request.params.code_challenge_method ?? (request.params.code_challenge ? 'plain' : undefined),
      nonce: request.params.nonce,
    });
    if (state !== undefined) redirect.searchParams.set('state', state);
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('scope', granted.join(' '));
    redirect.searchParams.set('authuser', '0');
    redirect.searchParams.set('prompt', 'consent');
    return { kind: 'redirect', url: redirect.toString() };
  }

  /** Authenticates an API call: bearer token, then the rate-limit control, then the scopes. */
  authenticate(
    authorization: string | undefined,
    query: Query,
    allowed: readonly string[] | null,
  ): { auth: Authenticated; state: UserState } {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? stringParam(query, 'access_token');
    if (!bearer) throw unauthenticated(true);
    const auth = this.oauth.authenticate(bearer);
    if (!auth) throw unauthenticated(false);
    const limit = this.rateLimit;
    if (limit.remaining > 0 && (!limit.email || limit.email === auth.email)) {
      limit.remaining--;
      throw rateLimited(limit.retryAfterSeconds, this.clock());
    }
    if (allowed && !allowed.some((scope) => auth.scopes.includes(scope))) throw insufficientScopes();
    return { auth, state: this.user(auth.email) };
  }

  // ---------------------------------------------------------------------------------------------
  // Gmail

  private mailboxOf(auth: Authenticated, userId: string) {
    const id = userId.toLowerCase();
    if (id !== 'me' && id !== auth.email) {
      throw new GoogleApiError(403, `Delegation denied for ${auth.email}`, { reason: 'forbidden' });
    }
    return this.user(auth.email).mailbox;
  }

  gmailProfile(authorization: string | undefined, query: Query, userId: string) {
    const { auth } = this.authenticate(authorization, query, PROFILE_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    return {
      emailAddress: auth.email,
      messagesTotal: mailbox.size,
      threadsTotal: mailbox.threadCount,
      historyId: String(mailbox.historyId),
    };
  }

  gmailListMessages(authorization: string | undefined, query: Query, userId: string) {
    const { auth } = this.authenticate(authorization, query, READ_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    const result = mailbox.list(mailListOptions(auth, query));
    const body: Record<string, unknown> = {};
    if (result.messages.length > 0) {
      body.messages = result.messages.map((message) => ({ id: message.id, threadId: message.threadId }));
    }
    if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
    body.resultSizeEstimate = result.resultSizeEstimate;
    return body;
  }

  gmailGetMessage(authorization: string | undefined, query: Query, userId: string, id: string) {
    const { auth } = this.authenticate(authorization, query, READ_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    const format = readFormat(query, auth);
    const message = mailbox.get(id);
    if (!message) throw notFound();
    return serializeMessage(message, mailbox, format, listParam(query, 'metadataHeaders'));
  }

  gmailListThreads(authorization: string | undefined, query: Query, userId: string) {
    const { auth } = this.authenticate(authorization, query, READ_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    const result = mailbox.listThreads(mailListOptions(auth, query));
    const body: Record<string, unknown> = {};
    if (result.threads.length > 0) {
      body.threads = result.threads.map((threadId) => {
        const messages = mailbox.thread(threadId) ?? [];
        const historyId = Math.max(0, ...messages.map((message) => message.historyId));
        return { id: threadId, snippet: '', historyId: String(historyId) };
      });
    }
    if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
    body.resultSizeEstimate = result.resultSizeEstimate;
    return body;
  }

  gmailGetThread(authorization: string | undefined, query: Query, userId: string, id: string) {
    const { auth } = this.authenticate(authorization, query, READ_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    const format = readFormat(query, auth);
    const messages = mailbox.thread(id);
    if (!messages || messages.length === 0) throw notFound();
    const headers = listParam(query, 'metadataHeaders');
    const sorted = messages.slice().sort((a, b) => a.internalDate - b.internalDate);
    return {
      id,
      historyId: String(Math.max(...sorted.map((message) => message.historyId))),
      messages: sorted.map((message) => serializeMessage(message, mailbox, format, headers)),
    };
  }

  gmailHistory(authorization: string | undefined, query: Query, userId: string) {
    const { auth } = this.authenticate(authorization, query, READ_MAIL);
    const mailbox = this.mailboxOf(auth, userId);
    const start = stringParam(query, 'startHistoryId');
    if (!start) throw invalidArgument('Missing startHistoryId');
    if (!/^\d+$/.test(start)) throw invalidArgument(`Invalid value at 'start_history_id' (TYPE_UINT64), "${start}"`);
    const historyTypes = listParam(query, 'historyTypes');
    for (const type of historyTypes) {
      if (!['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'].includes(type)) {
        throw invalidArgument(
          `Invalid value at 'history_types' (type.googleapis.com/gmail.ListHistoryRequest.HistoryType), "${type}"`,
        );
      }
    }
    const result = mailbox.listHistory({
      startHistoryId: Number(start),
      historyTypes,
      labelId: stringParam(query, 'labelId'),
      maxResults: integerParam(query, 'maxResults', { fallback: 100, min: 1, max: 500 }),
      pageToken: stringParam(query, 'pageToken'),
    });
    const body: Record<string, unknown> = {};
    if (result.records.length > 0) {
      body.history = result.records.map((record) => {
        const touched = [...(record.added ?? []), ...(record.deleted ?? [])];
        const entry: Record<string, unknown> = {
          id: String(record.id),
          messages: touched.map((message) => ({ id: message.id, threadId: message.threadId })),
        };
        if (record.added?.length) {
          entry.messagesAdded = record.added.map((message) => ({
            message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds.slice() },
          }));
        }
        if (record.deleted?.length) {
          entry.messagesDeleted = record.deleted.map((message) => ({
            message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds },
          }));
        }
        return entry;
      });
    }
    if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
    body.historyId = String(result.historyId);
    return body;
  }

  gmailCreateDraft(
    authorization: string | undefined,
    query: Query,
    userId: string,
    input: { raw?: Buffer; threadId?: string },
  ) {
    const { auth, state } = this.authenticate(authorization, query, COMPOSE);
    const mailbox = this.mailboxOf(auth, userId);
    const raw = requireRaw(input.raw);
    const parsed = parseMessage(raw);
    const now = this.clock();
    const message = this.composeMessage(state, parsed, now, input.threadId, ['DRAFT']);
    mailbox.insert(message, true);
    const draft = { id: mailbox.newDraftId(), message, raw };
    mailbox.addDraft(draft);
    return {
      id: draft.id,
      message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds.slice() },
    };
  }

  gmailGetDraft(authorization: string | undefined, query: Query, userId: string, id: string) {
    const { auth } = this.authenticate(authorization, query, READ_DRAFTS);
    const mailbox = this.mailboxOf(auth, userId);
    const draft = mailbox.draft(id);
    if (!draft) throw notFound();
    const format = readFormat(query, auth, 'full');
    return { id: draft.id, message: serializeMessage(draft.message, mailbox, format, []) };
  }

  gmailListDrafts(authorization: string | undefined, query: Query, userId: string) {
    const { auth } = this.authenticate(authorization, query, READ_DRAFTS);
    const mailbox = this.mailboxOf(auth, userId);
    const drafts = mailbox.listDrafts();
    const body: Record<string, unknown> = {};
    if (drafts.length > 0) {
      body.drafts = drafts.map((draft) => ({
        id: draft.id,
        message: { id: draft.message.id, threadId: draft.message.threadId },
      }));
    }
    body.resultSizeEstimate = drafts.length;
    return body;
  }

  gmailDeleteDraft(authorization: string | undefined, query: Query, userId: string, id: string): void {
    const { auth } = this.authenticate(authorization, query, COMPOSE);
    const mailbox = this.mailboxOf(auth, userId);
    if (!mailbox.deleteDraft(id)) throw notFound();
  }

  /** drafts.send: the draft (as stored, or as updated in the request) is sent and the draft is gone. */
  gmailSendDraft(
    authorization: string | undefined,
    query: Query,
    userId: string,
    input: { id?: string; raw?: Buffer },
  ) {
    const { auth, state } = this.authenticate(authorization, query, COMPOSE);
    const mailbox = this.mailboxOf(auth, userId);
    if (!input.id) throw invalidArgument('Invalid draft');
    const draft = mailbox.draft(input.id);
    if (!draft) throw notFound();
    const raw = input.raw && input.raw.length > 0 ? input.raw : draft.raw;
    const parsed = parseMessage(raw);
    requireRecipients(parsed);
    mailbox.deleteDraft(draft.id);
    const sent = this.send(state, parsed, draft.message.threadId, 'drafts.send');
    return { id: sent.id, threadId: sent.threadId, labelIds: sent.labelIds.slice() };
  }

  gmailSendMessage(
    authorization: string | undefined,
    query: Query,
    userId: string,
    input: { raw?: Buffer; threadId?: string },
  ) {
    const { auth, state } = this.authenticate(authorization, query, SEND);
    this.mailboxOf(auth, userId);
    const parsed = parseMessage(requireRaw(input.raw));
    requireRecipients(parsed);
    const sent = this.send(state, parsed, input.threadId, 'messages.send');
    return { id: sent.id, threadId: sent.threadId, labelIds: sent.labelIds.slice() };
  }

  /** A message written by the client, as it lands in the user's own mailbox (From set to the user). */
  private composeMessage(
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
  private send(
    state: UserState,
    parsed: ParsedMessage,
    threadId: string | undefined,
    via: SentMail['via'],
  ): StoredMessage {
    const now = this.clock();
    const message = this.composeMessage(state, parsed, now, threadId, ['SENT']);
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
    this.sent.push(sent);
    const recipients = new Set(
      [...message.to, ...message.cc, ...message.bcc].map((address) => address.email.toLowerCase()),
    );
    for (const email of recipients) {
      if (email === state.world.email) continue;
      const other = this.users.get(email);
      if (!other) continue;
      this.deliver(other, sent, message);
      sent.deliveredTo.push(email);
    }
    return message;
  }

  /** A copy of sent mail in a sandbox user's inbox. */
  private deliver(state: UserState, sent: SentMail, original?: StoredMessage) {
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

  // ---------------------------------------------------------------------------------------------
  // Calendar

  calendarEvents(authorization: string | undefined, query: Query, calendarId: string) {
    const { auth, state } = this.authenticate(authorization, query, CALENDAR);
    const id = calendarId.toLowerCase();
    if (id !== 'primary' && id !== auth.email) throw new GoogleApiError(404, 'Not Found', { reason: 'notFound' });
    const time = (name: string) => {
      const value = stringParam(query, name);
      if (value === undefined) return undefined;
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) {
        throw new GoogleApiError(400, 'Bad Request', { reason: 'badRequest' });
      }
      return Date.parse(value);
    };
    return state.calendar.list({
      singleEvents: booleanParam(query, 'singleEvents', false),
      maxResults: integerParam(query, 'maxResults', { fallback: 250, min: 1, max: 2500 }),
      pageToken: stringParam(query, 'pageToken'),
      syncToken: stringParam(query, 'syncToken'),
      timeMin: time('timeMin'),
      timeMax: time('timeMax'),
      updatedMin: time('updatedMin'),
      showDeleted: booleanParam(query, 'showDeleted', false),
      orderBy: stringParam(query, 'orderBy'),
      q: stringParam(query, 'q'),
    });
  }

  calendarList(authorization: string | undefined, query: Query) {
    const { auth, state } = this.authenticate(authorization, query, CALENDAR);
    return {
      kind: 'calendar#calendarList',
      etag: `"p3${String(state.calendar.version).padStart(14, '0')}"`,
      nextSyncToken: `CL${Buffer.from(auth.email).toString('base64url')}`,
      items: [
        {
          kind: 'calendar#calendarListEntry',
          etag: '"1700000000000000"',
          id: auth.email,
          summary: auth.email,
          timeZone: state.calendar.timeZone,
          colorId: '14',
          backgroundColor: '#9fe1e7',
          foregroundColor: '#000000',
          selected: true,
          accessRole: 'owner',
          defaultReminders: [{ method: 'popup', minutes: 10 }],
          primary: true,
        },
      ],
    };
  }

  // ---------------------------------------------------------------------------------------------
  // People

  peopleConnections(authorization: string | undefined, query: Query, resourceName: string) {
    const { state } = this.authenticate(authorization, query, CONTACTS);
    if (resourceName !== 'people/me') {
      throw invalidArgument('Must be a valid resource name. Only "people/me" is valid.');
    }
    const fields = readFieldMask(
      stringParam(query, 'personFields') ?? stringParam(query, 'requestMask.includeField'),
      'personFields',
      PERSON_FIELDS,
      'https://developers.google.com/people/api/rest/v1/people.connections/list',
    );
    return state.contacts.listConnections({
      fields,
      pageSize: integerParam(query, 'pageSize', { fallback: 100, min: 1, max: 1000, rejectAbove: true }),
      pageToken: stringParam(query, 'pageToken'),
      requestSyncToken: booleanParam(query, 'requestSyncToken', false),
      syncToken: stringParam(query, 'syncToken'),
      sortOrder: stringParam(query, 'sortOrder'),
    });
  }

  otherContacts(authorization: string | undefined, query: Query) {
    const { state } = this.authenticate(authorization, query, OTHER_CONTACTS);
    const fields = readFieldMask(
      stringParam(query, 'readMask'),
      'readMask',
      OTHER_CONTACT_FIELDS,
      'https://developers.google.com/people/api/rest/v1/otherContacts/list',
    );
    return state.contacts.listOtherContacts({
      fields,
      pageSize: integerParam(query, 'pageSize', { fallback: 100, min: 1, max: 1000, rejectAbove: true }),
      pageToken: stringParam(query, 'pageToken'),
      requestSyncToken: booleanParam(query, 'requestSyncToken', false),
      syncToken: stringParam(query, 'syncToken'),
    });
  }

  peopleMe(authorization: string | undefined, query: Query) {
    const { auth, state } = this.authenticate(authorization, query, null);
    const fields = readFieldMask(
      stringParam(query, 'personFields'),
      'personFields',
      PERSON_FIELDS,
      'https://developers.google.com/people/api/rest/v1/people/get',
    );
    const me = state.world.people[0];
    const body = serializeContact(
      {
        resourceName: `people/${state.world.accountId}`,
        sourceId: state.world.accountId,
        givenName: me?.givenName ?? '',
        familyName: me?.familyName ?? '',
        displayName: me?.displayName ?? auth.email,
        familyFirst: false,
        emails: [{ value: auth.email }],
        updated: state.world.anchor,
        version: 1,
      },
      fields,
      'CONTACT',
    );
    return body;
  }

  userinfo(authorization: string | undefined, query: Query) {
    const { auth, state } = this.authenticate(authorization, query, null);
    const me = state.world.people[0];
    const body: Record<string, unknown> = { id: state.world.accountId, email: auth.email, verified_email: true };
    if (auth.scopes.includes(SCOPES.profile)) {
      body.name = me?.displayName;
      body.given_name = me?.givenName;
      body.family_name = me?.familyName;
      body.picture = `${this.baseUrl}/avatar.svg`;
    }
    const domain = auth.email.split('@')[1] ?? '';
    if (!/^(gmail|googlemail)\.com$/.test(domain)) body.hd = domain;
    return body;
  }

  tokenInfo(token: string | undefined) {
    const auth = token ? this.oauth.authenticate(token) : null;
    if (!auth) return null;
    const state = this.user(auth.email);
    return {
      azp: auth.clientId,
      aud: auth.clientId,
      sub: state.world.accountId,
      scope: auth.scopes.join(' '),
      exp: String(Math.floor(auth.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((auth.expiresAt - this.clock()) / 1000))),
      email: auth.email,
      email_verified: 'true',
      access_type: 'offline',
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Test controls

  /** New mail in a user's mailbox (a history record each; the sync sees it as an increment). */
  addMail(rawEmail: string, input: NewMailInput = {}): StoredMessage[] {
    const state = this.user(rawEmail);
    const { world, mailbox, random } = state;
    const count = Math.max(1, Math.min(1000, input.count ?? 1));
    const start = toTime(input.at, this.clock());
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
      };
      mailbox.insert(message, true);
      if (outbound) for (const recipient of [...to, ...cc]) state.contacts.addOtherContact(recipient, time, true);
      added.push(message);
    }
    return added;
  }

  /** New meetings in a user's calendar (an incremental calendar sync returns them). */
  addMeetings(rawEmail: string, input: NewMeetingInput = {}): StoredEvent[] {
    const state = this.user(rawEmail);
    const { world, calendar, random } = state;
    const count = Math.max(1, Math.min(500, input.count ?? 1));
    const now = this.clock();
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
  cancelMeeting(rawEmail: string, eventId: string): StoredEvent {
    const { calendar } = this.user(rawEmail);
    const event = calendar.get(eventId);
    if (!event) throw notFound();
    calendar.change(event, this.clock(), (target) => {
      target.status = 'cancelled';
    });
    return event;
  }

  /** Drops retained history: a sync holding an older history id gets 404 and must start over. */
  dropHistory(rawEmail: string): { historyId: string } {
    return { historyId: String(this.user(rawEmail).mailbox.dropHistory()) };
  }

  /** Every calendar sync token of the user answers 410 (fullSyncRequired) from now on. */
  invalidateCalendarSyncTokens(rawEmail: string): { invalidated: number } {
    return { invalidated: this.user(rawEmail).calendar.invalidateSyncTokens() };
  }

  /** Every People sync token of the user answers 400 EXPIRED_SYNC_TOKEN from now on. */
  invalidatePeopleSyncTokens(rawEmail: string): { invalidated: number } {
    return { invalidated: this.user(rawEmail).contacts.invalidateSyncTokens() };
  }

  /** Access tokens (all, or one user's) expire now; refresh tokens keep working. */
  expireAccessTokens(rawEmail?: string): { expired: number } {
    return { expired: this.oauth.expireAccessTokens(rawEmail?.trim().toLowerCase()) };
  }

  /** As if the user removed the app in their Google account: refresh gets invalid_grant, calls 401. */
  revokeGrants(rawEmail: string): { revoked: number } {
    return { revoked: this.oauth.revokeUser(rawEmail.trim().toLowerCase()) };
  }

  /** The next `count` API calls (of one user, or anyone's) answer 429 with Retry-After. */
  rateLimitNextCalls(count: number, options: { retryAfterSeconds?: number; email?: string } = {}): void {
    this.rateLimit = {
      remaining: Math.max(0, count),
      retryAfterSeconds: Math.max(0, options.retryAfterSeconds ?? 1),
      email: options.email?.trim().toLowerCase(),
    };
  }

  /** Mail sent through the sandbox, newest first (optionally only that to an address, in To/Cc/Bcc). */
  sentMail(filter: { to?: string } = {}): SentMailJson[] {
    const to = filter.to?.trim().toLowerCase();
    return this.sent
      .filter(
        (mail) => !to || [...mail.to, ...mail.cc, ...mail.bcc].some((address) => address.email.toLowerCase() === to),
      )
      .slice()
      .reverse()
      .map((mail) => ({ ...mail, deliveredTo: mail.deliveredTo.slice(), sentAt: new Date(mail.sentAt).toISOString() }));
  }

  stats(rawEmail: string) {
    const state = this.user(rawEmail);
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

  /** Forgets every world, grant, sent mail and control. */
  reset(): void {
    this.users.clear();
    this.sent.length = 0;
    this.oauth.reset();
    this.rateLimit = { remaining: 0, retryAfterSeconds: 1 };
  }
}

export function createGoogleSandbox(options: GoogleSandboxOptions): GoogleSandbox {
  return new GoogleSandbox(options);
}

function requireRaw(raw: Buffer | undefined): Buffer {
  if (!raw || raw.length === 0) {
    throw invalidArgument("'raw' RFC822 payload message string or uploading message via /upload/* URL required");
  }
  return raw;
}

function requireRecipients(parsed: ParsedMessage) {
  if (parsed.to.length + parsed.cc.length + parsed.bcc.length === 0)
    throw invalidArgument('Recipient address required');
  for (const address of [...parsed.to, ...parsed.cc, ...parsed.bcc]) {
    if (!EMAIL_PATTERN.test(address.email)) throw invalidArgument(`Invalid To header`);
  }
}

type Format = 'minimal' | 'metadata' | 'full' | 'raw';

function readFormat(query: Query, auth: Authenticated, fallback: Format = 'full'): Format {
  const format = (stringParam(query, 'format') ?? fallback).toLowerCase();
  if (format !== 'minimal' && format !== 'metadata' && format !== 'full' && format !== 'raw') {
    throw invalidArgument(
      `Invalid value at 'format' (type.googleapis.com/gmail.GetMessageRequest.Format), "${format}"`,
    );
  }
  if ((format === 'full' || format === 'raw') && metadataOnly(auth)) {
    throw new GoogleApiError(403, `Metadata scope doesn't allow format ${format.toUpperCase()}`, {
      reason: 'forbidden',
    });
  }
  return format;
}

/**
 * A Gmail message resource. Never a body: `full` gives the headers and part sizes, `raw` the headers
 * only (generated mail has no body).
 */
export function serializeMessage(message: StoredMessage, mailbox: Mailbox, format: Format, metadataHeaders: string[]) {
  const out: Record<string, unknown> = {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds.slice(),
    snippet: '',
    sizeEstimate: message.sizeEstimate,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
  };
  if (format === 'minimal') return out;
  const all = headersOf(message, mailbox);
  if (format === 'raw') {
    const head = all.map((header) => `${header.name}: ${header.value}`).join('\r\n');
    out.raw = Buffer.from(`${head}\r\n\r\n`, 'utf8').toString('base64url');
    return out;
  }
  const wanted = metadataHeaders.map((name) => name.toLowerCase());
  const headers =
    format === 'metadata' && wanted.length > 0
      ? all.filter((header) => wanted.includes(header.name.toLowerCase()))
      : all;
  const payload: Record<string, unknown> = { partId: '', mimeType: 'multipart/alternative', filename: '', headers };
  if (format === 'full') {
    payload.body = { size: 0 };
    payload.parts = [
      {
        partId: '0',
        mimeType: 'text/plain',
        filename: '',
        headers: [{ name: 'Content-Type', value: 'text/plain; charset="UTF-8"' }],
        body: { size: Math.floor(message.sizeEstimate / 3) },
      },
      {
        partId: '1',
        mimeType: 'text/html',
        filename: '',
        headers: [{ name: 'Content-Type', value: 'text/html; charset="UTF-8"' }],
        body: { size: Math.floor((message.sizeEstimate * 2) / 3) },
      },
    ];
  }
  out.payload = payload;
  return out;
}

/** The few Gmail search operators the sandbox understands; other terms are ignored. */
export function searchFilter(q: string): (message: StoredMessage) => boolean {
  const tests: ((message: StoredMessage) => boolean)[] = [];
  const dateOf = (value: string) => {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
    return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  };
  for (const term of q.trim().split(/\s+/)) {
    const [operator, ...rest] = term.split(':');
    const value = rest.join(':').toLowerCase();
    switch (operator?.toLowerCase()) {
      case 'in':
      case 'label': {
        const label = value === 'sent' ? 'SENT' : value === 'inbox' ? 'INBOX' : value.toUpperCase();
        if (value !== 'anywhere') tests.push((message) => message.labelIds.includes(label));
        break;
      }
      case 'is':
        if (value === 'unread') tests.push((message) => message.labelIds.includes('UNREAD'));
        if (value === 'starred') tests.push((message) => message.labelIds.includes('STARRED'));
        break;
      case 'after':
      case 'newer': {
        const time = dateOf(value);
        if (!Number.isNaN(time)) tests.push((message) => message.internalDate >= time);
        break;
      }
      case 'before':
      case 'older': {
        const time = dateOf(value);
        if (!Number.isNaN(time)) tests.push((message) => message.internalDate < time);
        break;
      }
      case 'from':
        tests.push((message) => message.from.email.toLowerCase().includes(value));
        break;
      case 'to':
        tests.push((message) =>
          [...message.to, ...message.cc, ...message.bcc].some((a) => a.email.toLowerCase().includes(value)),
        );
        break;
      default:
        break;
    }
  }
  return (message) => tests.every((test) => test(message));
}

/** Saved contacts (stale after a job change, as real contact books are) and the "other contacts". */
function buildContacts(world: World, messages: readonly StoredMessage[]): ContactBook {
  const contacts = new ContactBook(createRandom(`${world.seed}:contacts`));
  const random = createRandom(`${world.seed}:contact-details`);
  const saved = world.people.filter((person) => person.saved && person.kind !== 'self');
  const entries = saved.map((person) => {
    const stale = person.formerEmail !== undefined && person.changedAt !== undefined && person.start < person.changedAt;
    const companyIndex = stale ? person.formerCompany : person.company;
    const company = companyIndex === undefined || companyIndex === null ? undefined : world.companies[companyIndex];
    const organizationName = person.kind === 'colleague' ? world.userCompany.name : company?.name;
    const email = stale ? (person.formerEmail ?? person.email) : person.email;
    const phoneOnly = person.phone !== undefined && random.chance(0.5);
    const updated = Math.floor(Math.min(world.anchor, person.start + random.next() * (world.anchor - person.start)));
    return {
      givenName: person.givenName,
      familyName: person.familyName,
      displayName: person.displayName,
      familyFirst: person.displayName === `${person.familyName}${person.givenName}`,
      emails: phoneOnly
        ? []
        : [{ value: email, type: person.company === null && person.kind !== 'colleague' ? 'home' : 'work' }],
      organization: organizationName
        ? { name: organizationName, title: (stale ? person.formerTitle : person.title) ?? '' }
        : undefined,
      phone: person.phone,
      updated,
    };
  });
  entries.sort((a, b) => a.updated - b.updated);
  for (const entry of entries) contacts.addConnection(entry);
  for (const message of messages) {
    if (!message.labelIds.includes('SENT')) continue;
    for (const recipient of [...message.to, ...message.cc, ...message.bcc]) {
      if (recipient.email !== world.email) contacts.addOtherContact(recipient, message.internalDate, false);
    }
  }
  return contacts;
}
