/**
 * The state of the Google sandbox: OAuth grants, one lazily generated world per signed-in e-mail
 * (mailbox, calendar, contact book), the mail sent through it, and the rate-limit control. The APIs
 * (gmail.ts, calendar-api.ts, people.ts, oauth-flow.ts) and the test controls (controls.ts) work on
 * it; the methods below give tests one object to drive. The HTTP layer (server.ts) is a thin shell.
 */
import { Calendar } from './calendar.ts';
import * as calendarApi from './calendar-api.ts';
import { generateEvents } from './calendar-gen.ts';
import type { ContactBook } from './contacts.ts';
import { buildContacts } from './contacts-gen.ts';
import * as controls from './controls.ts';
import { insufficientScopes, rateLimited, unauthenticated } from './errors.ts';
import * as gmail from './gmail.ts';
import { deliver } from './gmail-send.ts';
import { generateMail } from './mail-gen.ts';
import { Mailbox } from './mailbox.ts';
import { type Authenticated, OAuthServer } from './oauth.ts';
import * as oauthFlow from './oauth-flow.ts';
import { type Query, stringParam } from './params.ts';
import * as people from './people.ts';
import { createRandom, type Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { generateWorld, type World, type WorldSize } from './world.ts';

export type GoogleSandboxOptions = {
  /** Where browsers reach the sandbox's server, e.g. `http://localhost:3001` (no trailing slash). */
  publicUrl: string;
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

/** The arguments of an API function after the sandbox it works on. */
type Rest<F> = F extends (sandbox: GoogleSandbox, ...rest: infer R) => unknown ? R : never;

export class GoogleSandbox {
  private publicBase: string;
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
        deliver(state, sent);
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

  /** The user's world if it was generated already (mail is delivered only to those). */
  knownUser(email: string): UserState | undefined {
    return this.users.get(email);
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

  /** Keeps what was sent, for the /mail page and the controls. */
  recordSent(sent: SentMail): void {
    this.sent.push(sent);
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

  /** Forgets every world, grant, sent mail and control. */
  reset(): void {
    this.users.clear();
    this.sent.length = 0;
    this.oauth.reset();
    this.rateLimit = { remaining: 0, retryAfterSeconds: 1 };
  }

  // ---------------------------------------------------------------------------------------------
  // The APIs and the controls, as methods for tests and the routes

  authorize(...args: Rest<typeof oauthFlow.authorize>) {
    return oauthFlow.authorize(this, ...args);
  }
  consent(...args: Rest<typeof oauthFlow.consent>) {
    return oauthFlow.consent(this, ...args);
  }
  tokenInfo(...args: Rest<typeof oauthFlow.tokenInfo>) {
    return oauthFlow.tokenInfo(this, ...args);
  }
  gmailProfile(...args: Rest<typeof gmail.gmailProfile>) {
    return gmail.gmailProfile(this, ...args);
  }
  gmailListMessages(...args: Rest<typeof gmail.gmailListMessages>) {
    return gmail.gmailListMessages(this, ...args);
  }
  gmailGetMessage(...args: Rest<typeof gmail.gmailGetMessage>) {
    return gmail.gmailGetMessage(this, ...args);
  }
  gmailListThreads(...args: Rest<typeof gmail.gmailListThreads>) {
    return gmail.gmailListThreads(this, ...args);
  }
  gmailGetThread(...args: Rest<typeof gmail.gmailGetThread>) {
    return gmail.gmailGetThread(this, ...args);
  }
  gmailHistory(...args: Rest<typeof gmail.gmailHistory>) {
    return gmail.gmailHistory(this, ...args);
  }
  gmailCreateDraft(...args: Rest<typeof gmail.gmailCreateDraft>) {
    return gmail.gmailCreateDraft(this, ...args);
  }
  gmailGetDraft(...args: Rest<typeof gmail.gmailGetDraft>) {
    return gmail.gmailGetDraft(this, ...args);
  }
  gmailListDrafts(...args: Rest<typeof gmail.gmailListDrafts>) {
    return gmail.gmailListDrafts(this, ...args);
  }
  gmailDeleteDraft(...args: Rest<typeof gmail.gmailDeleteDraft>) {
    return gmail.gmailDeleteDraft(this, ...args);
  }
  gmailSendDraft(...args: Rest<typeof gmail.gmailSendDraft>) {
    return gmail.gmailSendDraft(this, ...args);
  }
  gmailSendMessage(...args: Rest<typeof gmail.gmailSendMessage>) {
    return gmail.gmailSendMessage(this, ...args);
  }
  calendarEvents(...args: Rest<typeof calendarApi.calendarEvents>) {
    return calendarApi.calendarEvents(this, ...args);
  }
  calendarList(...args: Rest<typeof calendarApi.calendarList>) {
    return calendarApi.calendarList(this, ...args);
  }
  peopleConnections(...args: Rest<typeof people.peopleConnections>) {
    return people.peopleConnections(this, ...args);
  }
  otherContacts(...args: Rest<typeof people.otherContacts>) {
    return people.otherContacts(this, ...args);
  }
  peopleMe(...args: Rest<typeof people.peopleMe>) {
    return people.peopleMe(this, ...args);
  }
  userinfo(...args: Rest<typeof people.userinfo>) {
    return people.userinfo(this, ...args);
  }
  addMail(...args: Rest<typeof controls.addMail>) {
    return controls.addMail(this, ...args);
  }
  addMeetings(...args: Rest<typeof controls.addMeetings>) {
    return controls.addMeetings(this, ...args);
  }
  cancelMeeting(...args: Rest<typeof controls.cancelMeeting>) {
    return controls.cancelMeeting(this, ...args);
  }
  dropHistory(...args: Rest<typeof controls.dropHistory>) {
    return controls.dropHistory(this, ...args);
  }
  invalidateCalendarSyncTokens(...args: Rest<typeof controls.invalidateCalendarSyncTokens>) {
    return controls.invalidateCalendarSyncTokens(this, ...args);
  }
  invalidatePeopleSyncTokens(...args: Rest<typeof controls.invalidatePeopleSyncTokens>) {
    return controls.invalidatePeopleSyncTokens(this, ...args);
  }
  expireAccessTokens(...args: Rest<typeof controls.expireAccessTokens>) {
    return controls.expireAccessTokens(this, ...args);
  }
  revokeGrants(...args: Rest<typeof controls.revokeGrants>) {
    return controls.revokeGrants(this, ...args);
  }
  stats(...args: Rest<typeof controls.stats>) {
    return controls.stats(this, ...args);
  }
}

export function createGoogleSandbox(options: GoogleSandboxOptions): GoogleSandbox {
  return new GoogleSandbox(options);
}
