import type { gmail_v1 } from '@googleapis/gmail';
import type { people_v1 } from '@googleapis/people';
import { and, eq } from 'drizzle-orm';
import { addressParser } from 'postal-mime';
import { googleSyncState } from '../../../db/schema/index.ts';
import {
  type DeadAddress,
  type InteractionEvidence,
  type Participant,
  recordAddressBook,
  recordDeadAddresses,
  recordInteractions,
} from '../../../graph/evidence.repo.ts';
import { REPLY_HEADERS, type RepliesDeps, recordReplies } from '../../intros/replies.ts';
import { loadScreen, screenEvidence } from '../../privacy/screen.ts';
import { BOUNCE_HEADERS, readDeliveryFailure } from './bounces.ts';
import { type GoogleAccount, type GoogleAccountDeps, googleAccount, httpStatus } from './google-account.ts';

/** Threads and meetings this wide say nothing about who knows whom (newsletters, all-hands). */
export const MAX_RECIPIENTS = 20;
const METADATA_HEADERS = ['From', 'To', 'Cc', 'Date', ...REPLY_HEADERS, ...BOUNCE_HEADERS];
const FETCH_CONCURRENCY = 16;
const PAGE_SIZE = 500;

export type SyncCounts = {
  contacts: number;
  otherContacts: number;
  messages: number;
  meetings: number;
  ignored: number;
  /** Delivery failure reports read: no evidence of a relationship, but of the addresses they name dying. */
  bounces: number;
};
export type SyncProgress = (update: { phase: string; processed: number; total: number | null }) => Promise<void>;
export type SyncDeps = GoogleAccountDeps &
  Pick<RepliesDeps, 'replyEvents'> & {
    /** Waits before a retry; tests replace it to keep rate-limit back-off instant. */
    sleep?: (ms: number) => Promise<void>;
  };

type SyncState = typeof googleSyncState.$inferSelect;

/** The Retry-After header of a failed call (gaxios gives fetch Headers; older versions a plain object). */
function retryAfter(error: unknown): string | undefined {
  const headers = (error as { response?: { headers?: { get?: unknown } & Record<string, unknown> } }).response?.headers;
  if (!headers) return undefined;
  // Not always the global Headers class, hence no instanceof.
  const value = typeof headers.get === 'function' ? headers.get('retry-after') : headers['retry-after'];
  return typeof value === 'string' ? value : undefined;
}

/** Retries rate limits and server errors, honouring Retry-After, else doubling from half a second. */
async function withBackoff<T>(deps: SyncDeps, account: GoogleAccount, work: () => Promise<T>): Promise<T> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await account.call(work);
    } catch (error) {
      const status = httpStatus(error);
      const retryable = status === 429 || (status !== undefined && status >= 500);
      if (!retryable || attempt >= 6) throw error;
      const seconds = Number(retryAfter(error));
      await sleep(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 500 * 2 ** attempt);
    }
  }
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of results. */
export async function mapConcurrent<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

function parseAddresses(value: string | undefined, role: Participant['role']): Participant[] {
  if (!value) return [];
  return addressParser(value, { flatten: true }).flatMap(({ address, name }) =>
    address?.includes('@') ? [{ email: address.toLowerCase(), name: name || null, role }] : [],
  );
}

/** The evidence in one message's headers, or null for a thread too wide to mean anything. */
export function mailEvidence(message: gmail_v1.Schema$Message): InteractionEvidence | null {
  const header = (name: string) =>
    message.payload?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? undefined;
  const recipients = [...parseAddresses(header('To'), 'to'), ...parseAddresses(header('Cc'), 'cc')];
  const from = parseAddresses(header('From'), 'from');
  if (!message.id || from.length === 0 || recipients.length === 0 || recipients.length > MAX_RECIPIENTS) return null;
  const date = header('Date');
  const occurredAt = message.internalDate ? new Date(Number(message.internalDate)) : new Date(date ?? '');
  if (Number.isNaN(occurredAt.getTime())) return null;
  return { kind: 'mail', externalId: message.id, occurredAt, participants: [...from, ...recipients] };
}

/** A delivery failure report's dead addresses (none when it names none), or null for any other message. */
export function deliveryFailure(message: gmail_v1.Schema$Message): { dead: DeadAddress[] } | null {
  const report = readDeliveryFailure(message.payload?.headers ?? []);
  if (!report) return null;
  const bouncedAt = new Date(Number(message.internalDate));
  if (!message.id || Number.isNaN(bouncedAt.getTime())) return { dead: [] };
  const messageId = message.id;
  return { dead: report.failed.map((email) => ({ email, bouncedAt, messageId, sender: report.sender })) };
}

/**
 * Brings a member's Google data into the workspace's evidence: the address book, then mail headers
 * and meetings, incrementally once a first full sync has run. Safe to run again at any time.
 */
export async function syncGoogleAccount(
  deps: SyncDeps,
  target: { workspaceId: string; userId: string },
  progress: SyncProgress = async () => {},
): Promise<SyncCounts> {
  const { workspaceId, userId } = target;
  const account = await googleAccount(deps, workspaceId, userId);
  const counts: SyncCounts = { contacts: 0, otherContacts: 0, messages: 0, meetings: 0, ignored: 0, bounces: 0 };
  const state = await loadState(deps, workspaceId, userId);
  const save = (change: Partial<SyncState>) => saveState(deps, workspaceId, userId, change);
  // The member's blocklist and the two-way rule decide what of their evidence is kept (issue 22).
  const screen = await deps.database.inWorkspace(workspaceId, (tx) =>
    loadScreen(tx, workspaceId, userId, account.email ?? null),
  );
  /** Records what the screen keeps of the interactions; returns how many it kept. */
  const record = (interactions: InteractionEvidence[]) =>
    deps.database.inWorkspace(workspaceId, async (tx) => {
      const kept = await screenEvidence(tx, workspaceId, userId, screen, interactions);
      await recordInteractions(tx, workspaceId, userId, kept);
      return kept.length;
    });

  // Address book: contacts and other contacts, each by its sync token once a first full read has run.
  const people = deps.google.people(account.auth);
  for (const source of ['contact', 'other_contact'] as const) {
    const tokenField = source === 'contact' ? 'contactsSyncToken' : 'otherContactsSyncToken';
    let syncToken = state?.[tokenField] ?? undefined;
    for (;;) {
      await progress({
        phase: source === 'contact' ? 'Reading contacts' : 'Reading other contacts',
        processed: 0,
        total: null,
      });
      try {
        let pageToken: string | undefined;
        let nextSyncToken: string | undefined;
        do {
          const page = await addressBookPage(deps, account, people, source, { pageToken, syncToken });
          page.entries = page.entries.filter((entry) => !screen.blocklist.blocks(entry.email));
          if (page.entries.length > 0) {
            await deps.database.inWorkspace(workspaceId, (tx) =>
              recordAddressBook(tx, workspaceId, userId, source, page.entries),
            );
            if (source === 'contact') counts.contacts += page.entries.length;
            else counts.otherContacts += page.entries.length;
          }
          pageToken = page.nextPageToken;
          nextSyncToken = page.nextSyncToken ?? nextSyncToken;
        } while (pageToken);
        await save({ [tokenField]: nextSyncToken ?? null });
        break;
      } catch (error) {
        // Google expires People sync tokens after a few days: read everything again.
        if (!syncToken || !JSON.stringify(errorBody(error)).includes('EXPIRED_SYNC_TOKEN')) throw error;
        syncToken = undefined;
        await save({ [tokenField]: null });
      }
    }
  }

  // Mail headers: history since the last sync, or everything on the first run (or a stale history id).
  const gmail = deps.google.gmail(account.auth);
  const fetchEvidence = async (ids: string[]) => {
    const messages = await mapConcurrent(ids, FETCH_CONCURRENCY, async (id) => {
      try {
        const { data } = await withBackoff(deps, account, () =>
          gmail.users.messages.get({ userId: 'me', id, format: 'metadata', metadataHeaders: METADATA_HEADERS }),
        );
        return data;
      } catch (error) {
        if (httpStatus(error) === 404) return null; // deleted since it was listed
        throw error;
      }
    });
    // A delivery failure report is neither a conversation nor a reply: only the addresses it names count.
    const reports = messages.map((message) => (message ? deliveryFailure(message) : null));
    const dead = reports.flatMap((report) => report?.dead ?? []);
    counts.bounces += reports.filter((report) => report !== null).length;
    if (dead.length > 0) {
      await deps.database.inWorkspace(workspaceId, (tx) => recordDeadAddresses(tx, workspaceId, userId, dead));
    }
    const mail = messages.filter((_message, index) => reports[index] === null);
    const evidence = mail.map((message) => (message ? mailEvidence(message) : null));
    const read = evidence.filter((item): item is InteractionEvidence => item !== null);
    // Mail the screen drops (a newsletter, cold inbound, a blocked sender) is ignored like a wide thread.
    const kept = await record(read);
    counts.ignored += evidence.filter((item) => item === null).length + read.length - kept;
    counts.messages += kept;
    // Answers in the threads of intro requests and messages sent from actions mark them replied.
    await recordReplies(deps, { workspaceId, userId, accountEmail: account.email ?? null }, mail);
  };

  const incremental = state?.gmailHistoryId ? await mailHistory(deps, account, gmail, state.gmailHistoryId) : null;
  if (incremental) {
    await progress({ phase: 'Reading new mail', processed: 0, total: incremental.ids.length });
    for (let start = 0; start < incremental.ids.length; start += PAGE_SIZE) {
      await fetchEvidence(incremental.ids.slice(start, start + PAGE_SIZE));
      await progress({ phase: 'Reading new mail', processed: start, total: incremental.ids.length });
    }
    await save({ gmailHistoryId: incremental.historyId });
  } else {
    // The history id is taken first, so mail arriving during the full read is caught next time.
    const { data: profile } = await withBackoff(deps, account, () => gmail.users.getProfile({ userId: 'me' }));
    const total = profile.messagesTotal ?? null;
    let processed = 0;
    let pageToken: string | undefined;
    do {
      const { data } = await withBackoff(deps, account, () =>
        gmail.users.messages.list({ userId: 'me', maxResults: PAGE_SIZE, pageToken }),
      );
      const ids = (data.messages ?? []).map((message) => message.id).filter((id): id is string => Boolean(id));
      await fetchEvidence(ids);
      processed += ids.length;
      await progress({ phase: 'Reading mail', processed, total });
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    await save({ gmailHistoryId: profile.historyId ?? null, lastFullSyncAt: new Date() });
  }

  // Meetings: the calendar's sync token, or a full read when there is none or Google expired it (410).
  const calendar = deps.google.calendar(account.auth);
  let syncToken = state?.calendarSyncToken ?? undefined;
  for (;;) {
    await progress({ phase: 'Reading meetings', processed: counts.meetings, total: null });
    try {
      let pageToken: string | undefined;
      let nextSyncToken: string | undefined;
      do {
        const { data } = await withBackoff(deps, account, () =>
          calendar.events.list({
            calendarId: 'primary',
            singleEvents: true,
            maxResults: 2500,
            pageToken,
            ...(syncToken ? { syncToken } : {}),
          }),
        );
        const meetings = (data.items ?? []).flatMap((event): InteractionEvidence[] => {
          const start = event.start?.dateTime ?? event.start?.date;
          const attendees = (event.attendees ?? []).filter((attendee) => attendee.email);
          if (event.status === 'cancelled' || !event.id || !start || attendees.length < 2) return [];
          return [
            {
              kind: 'meeting',
              externalId: event.id,
              occurredAt: new Date(start),
              participants: attendees.map((attendee) => ({
                email: attendee.email ?? '',
                name: attendee.displayName ?? null,
                role: attendee.organizer ? 'organizer' : 'attendee',
              })),
            },
          ];
        });
        counts.meetings += await record(meetings);
        pageToken = data.nextPageToken ?? undefined;
        nextSyncToken = data.nextSyncToken ?? nextSyncToken;
      } while (pageToken);
      await save({ calendarSyncToken: nextSyncToken ?? null });
      break;
    } catch (error) {
      if (httpStatus(error) !== 410 || !syncToken) throw error;
      syncToken = undefined;
      await save({ calendarSyncToken: null });
    }
  }
  await progress({
    phase: 'Done',
    processed: counts.messages + counts.meetings,
    total: counts.messages + counts.meetings,
  });
  return counts;
}

function errorBody(error: unknown): unknown {
  return (error as { response?: { data?: unknown } }).response?.data ?? null;
}

/** One page of the address book (contacts or other contacts), as e-mail and name pairs. */
async function addressBookPage(
  deps: SyncDeps,
  account: GoogleAccount,
  people: people_v1.People,
  source: 'contact' | 'other_contact',
  options: { pageToken?: string; syncToken?: string },
) {
  const common = { pageSize: 1000, requestSyncToken: true, ...options };
  const { data } =
    source === 'contact'
      ? await withBackoff(deps, account, () =>
          people.people.connections.list({
            resourceName: 'people/me',
            // Organisations name the companies of a mail domain and give titles (other contacts have none).
            personFields: 'names,emailAddresses,organizations',
            ...common,
          }),
        )
      : await withBackoff(deps, account, () =>
          people.otherContacts.list({ readMask: 'names,emailAddresses', ...common }),
        );
  const persons = 'connections' in data ? data.connections : 'otherContacts' in data ? data.otherContacts : undefined;
  const entries = (persons ?? []).flatMap((person) => {
    const organization = person.organizations?.find((org) => org.current) ?? person.organizations?.[0];
    return (person.emailAddresses ?? [])
      .map((address) => ({
        email: address.value ?? '',
        name: person.names?.[0]?.displayName ?? null,
        organization: organization?.name || null,
        title: organization?.title || null,
      }))
      .filter((entry) => entry.email.includes('@'));
  });
  return { entries, nextPageToken: data.nextPageToken ?? undefined, nextSyncToken: data.nextSyncToken ?? undefined };
}

/** New message ids since `startHistoryId`, or null when Google no longer has that history (404). */
async function mailHistory(deps: SyncDeps, account: GoogleAccount, gmail: gmail_v1.Gmail, startHistoryId: string) {
  const ids = new Set<string>();
  let historyId = startHistoryId;
  let pageToken: string | undefined;
  try {
    do {
      const { data } = await withBackoff(deps, account, () =>
        gmail.users.history.list({ userId: 'me', startHistoryId, historyTypes: ['messageAdded'], pageToken }),
      );
      for (const record of data.history ?? []) {
        for (const added of record.messagesAdded ?? []) if (added.message?.id) ids.add(added.message.id);
      }
      historyId = data.historyId ?? historyId;
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    throw error;
  }
  return { ids: [...ids], historyId };
}

async function loadState(deps: SyncDeps, workspaceId: string, userId: string) {
  const [row] = await deps.database.inWorkspace(workspaceId, (tx) =>
    tx
      .select()
      .from(googleSyncState)
      .where(and(eq(googleSyncState.workspaceId, workspaceId), eq(googleSyncState.userId, userId))),
  );
  return row ?? null;
}

async function saveState(deps: SyncDeps, workspaceId: string, userId: string, change: Partial<SyncState>) {
  await deps.database.inWorkspace(workspaceId, (tx) =>
    tx
      .insert(googleSyncState)
      .values({ workspaceId, userId, ...change })
      .onConflictDoUpdate({ target: [googleSyncState.workspaceId, googleSyncState.userId], set: change }),
  );
}
