/** One user's primary calendar: events, a change counter and the sync tokens handed out. */
import { GoogleApiError } from './errors.ts';
import { decodePageToken, encodePageToken, numberField } from './params.ts';
import type { Random } from './random.ts';
import { dateInZone, isoUtc, rfc3339InZone } from './time.ts';

export type ResponseStatus = 'needsAction' | 'declined' | 'tentative' | 'accepted';

export type Attendee = {
  email: string;
  displayName?: string;
  responseStatus: ResponseStatus;
  self?: boolean;
  organizer?: boolean;
  optional?: boolean;
  resource?: boolean;
};

export type StoredEvent = {
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary: string;
  description?: string;
  location?: string;
  start: number;
  end: number;
  allDay: boolean;
  organizer: { email: string; displayName?: string; self?: boolean };
  creator: { email: string; displayName?: string; self?: boolean };
  attendees: Attendee[];
  created: number;
  updated: number;
  /** The change counter when the event last changed; a sync token returns events above its counter. */
  version: number;
  /** The change counter when the event was created. */
  createdVersion: number;
  sequence: number;
  hangoutLink?: string;
  recurringEventId?: string;
};

export type EventListOptions = {
  singleEvents: boolean;
  maxResults: number;
  pageToken?: string;
  syncToken?: string;
  timeMin?: number;
  timeMax?: number;
  updatedMin?: number;
  showDeleted: boolean;
  orderBy?: string;
  q?: string;
};

export class Calendar {
  readonly email: string;
  readonly timeZone: string;
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  private readonly syncTokens = new Map<string, number>();
  private readonly random: Random;
  /** Goes up with every change. */
  version = 1;
  updated: number;

  constructor(email: string, timeZone: string, random: Random, updated: number) {
    this.email = email;
    this.timeZone = timeZone;
    this.random = random;
    this.updated = updated;
  }

  get size(): number {
    return this.events.length;
  }

  all(): readonly StoredEvent[] {
    return this.events;
  }

  get(id: string): StoredEvent | undefined {
    return this.byId.get(id);
  }

  /** Event ids are base32hex, as Google's are. */
  newEventId(): string {
    const alphabet = '0123456789abcdefghijklmnopqrstuv';
    for (;;) {
      let id = '';
      for (let i = 0; i < 26; i++) id += alphabet[this.random.int(0, 31)];
      if (!this.byId.has(id)) return id;
    }
  }

  /** Generated events, already versioned at the baseline. */
  load(events: StoredEvent[]): void {
    for (const event of events) {
      this.events.push(event);
      this.byId.set(event.id, event);
    }
  }

  add(event: StoredEvent, now: number): void {
    this.version++;
    event.version = this.version;
    event.createdVersion = this.version;
    this.events.push(event);
    this.byId.set(event.id, event);
    this.updated = now;
  }

  change(event: StoredEvent, now: number, apply: (event: StoredEvent) => void): void {
    apply(event);
    this.version++;
    event.version = this.version;
    event.sequence++;
    event.updated = now;
    this.updated = now;
  }

  invalidateSyncTokens(): number {
    const count = this.syncTokens.size;
    this.syncTokens.clear();
    return count;
  }

  private issueSyncToken(version: number): string {
    const token = `C${this.random.hex(6).toUpperCase()}${Buffer.from(this.random.hex(20), 'hex').toString('base64url')}`;
    this.syncTokens.set(token, version);
    return token;
  }

  list(options: EventListOptions) {
    const cursor = decodePageToken('events', options.pageToken);
    let items: StoredEvent[];
    let snapshot = cursor ? numberField(cursor, 'v') : this.version;
    const incremental = options.syncToken !== undefined || (cursor !== null && typeof cursor.s === 'number');
    if (incremental) {
      if (
        options.timeMin !== undefined ||
        options.timeMax !== undefined ||
        options.updatedMin !== undefined ||
        options.orderBy !== undefined ||
        options.q !== undefined
      ) {
        throw new GoogleApiError(400, 'Sync token cannot be used with other filtering parameters.', {
          reason: 'invalid',
        });
      }
      const since = cursor ? numberField(cursor, 's') : this.syncTokens.get(options.syncToken ?? '');
      if (since === undefined) {
        throw new GoogleApiError(410, 'Sync token is no longer valid, a full sync is required.', {
          reason: 'fullSyncRequired',
        });
      }
      items = this.events.filter((event) => event.version > since && event.version <= snapshot);
      items.sort((a, b) => a.version - b.version);
      return this.page(items, options, cursor, snapshot, since);
    }
    if (options.orderBy !== undefined && options.orderBy !== 'startTime' && options.orderBy !== 'updated') {
      throw new GoogleApiError(400, 'Invalid value for: orderBy', { reason: 'invalid' });
    }
    if (options.orderBy === 'startTime' && !options.singleEvents) {
      throw new GoogleApiError(400, 'The requested ordering is not available for the particular query.', {
        reason: 'badRequest',
      });
    }
    snapshot = cursor ? snapshot : this.version;
    const { timeMin, timeMax, updatedMin } = options;
    const q = options.q?.toLowerCase();
    items = this.events.filter(
      (event) =>
        event.createdVersion <= snapshot &&
        (options.showDeleted || event.status !== 'cancelled') &&
        (timeMin === undefined || event.end > timeMin) &&
        (timeMax === undefined || event.start < timeMax) &&
        (updatedMin === undefined || event.updated >= updatedMin) &&
        (q === undefined || event.summary.toLowerCase().includes(q)),
    );
    if (options.orderBy === 'startTime') items.sort((a, b) => a.start - b.start);
    else if (options.orderBy === 'updated') items.sort((a, b) => a.updated - b.updated);
    return this.page(items, options, cursor, snapshot, undefined);
  }

  private page(
    items: StoredEvent[],
    options: EventListOptions,
    cursor: Record<string, unknown> | null,
    snapshot: number,
    since: number | undefined,
  ) {
    const offset = cursor ? numberField(cursor, 'o') : 0;
    const page = items.slice(offset, offset + options.maxResults);
    const more = offset + options.maxResults < items.length;
    const body: {
      kind: 'calendar#events';
      etag: string;
      summary: string;
      description: string;
      updated: string;
      timeZone: string;
      accessRole: 'owner';
      defaultReminders: { method: string; minutes: number }[];
      nextPageToken?: string;
      nextSyncToken?: string;
      items: Record<string, unknown>[];
    } = {
      kind: 'calendar#events',
      etag: `"p3${String(snapshot).padStart(14, '0')}"`,
      summary: this.email,
      description: '',
      updated: isoUtc(this.updated),
      timeZone: this.timeZone,
      accessRole: 'owner',
      defaultReminders: [{ method: 'popup', minutes: 10 }],
      items: page.map((event) => this.serialize(event)),
    };
    if (more) {
      const token: Record<string, number> = { o: offset + options.maxResults, v: snapshot };
      if (since !== undefined) token.s = since;
      body.nextPageToken = encodePageToken('events', token);
    } else if (options.orderBy === undefined && options.q === undefined) {
      body.nextSyncToken = this.issueSyncToken(snapshot);
    }
    return body;
  }

  serialize(event: StoredEvent): Record<string, unknown> {
    const etag = `"${String(3_400_000_000_000_000 + event.updated).slice(0, 16)}"`;
    if (event.status === 'cancelled') {
      return { kind: 'calendar#event', etag, id: event.id, status: 'cancelled' };
    }
    const when = (ms: number) =>
      event.allDay
        ? { date: dateInZone(ms, this.timeZone) }
        : { dateTime: rfc3339InZone(ms, this.timeZone), timeZone: this.timeZone };
    const out: Record<string, unknown> = {
      kind: 'calendar#event',
      etag,
      id: event.id,
      status: event.status,
      htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${event.id} ${this.email}`).toString('base64url')}`,
      created: isoUtc(event.created),
      updated: isoUtc(event.updated),
      summary: event.summary,
    };
    if (event.description) out.description = event.description;
    if (event.location) out.location = event.location;
    out.creator = event.creator;
    out.organizer = event.organizer;
    out.start = when(event.start);
    out.end = when(event.end);
    if (event.recurringEventId) {
      out.recurringEventId = event.recurringEventId;
      out.originalStartTime = when(event.start);
    }
    out.iCalUID = `${event.recurringEventId ?? event.id}@google.com`;
    out.sequence = event.sequence;
    if (event.attendees.length > 0) out.attendees = event.attendees;
    if (event.hangoutLink) {
      out.hangoutLink = event.hangoutLink;
      out.conferenceData = {
        entryPoints: [
          { entryPointType: 'video', uri: event.hangoutLink, label: event.hangoutLink.replace('https://', '') },
        ],
        conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
        conferenceId: event.hangoutLink.split('/').pop(),
      };
    }
    out.reminders = { useDefault: true };
    out.eventType = 'default';
    return out;
  }
}
