import type { calendar_v3 } from '@googleapis/calendar';
import type { gmail_v1 } from '@googleapis/gmail';
import type { people_v1 } from '@googleapis/people';
import type { TAllyMatch } from '@warmpath/shared';
import { emailDomain, isFreeEmailDomain } from '../../lib/free-email-domains.ts';
import { blocklistOf } from '../privacy/blocklist.ts';
import { correspondence } from '../privacy/mail-screen.ts';
import { httpStatus } from '../sources/google/google-account.ts';
import type { GoogleAuth, GoogleClientFactory } from '../sources/google/google-client.ts';
import { MAX_RECIPIENTS, mailEvidence, mapConcurrent } from '../sources/google/google-sync.ts';

/**
 * How much of an ally's mailbox one consent reads: the newest messages (Gmail lists newest first), so
 * the callback answers in seconds; a relationship worth an introduction shows in recent mail.
 */
const MAX_MESSAGES = 2_000;
const MEETINGS_SINCE_DAYS = 2 * 365;
const FETCH_CONCURRENCY = 16;

/** Retries what Google answers when it is busy (429, 5xx) three times, waiting longer each time: the ally is waiting. */
async function patiently<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const status = httpStatus(error);
      if (attempt >= 3 || status === undefined || (status !== 429 && status < 500)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}

type Known = { name: string | null; company: string | null; position: string | null };

/**
 * The people an ally knows, from their Google account read once with a one-time token: their address
 * book, the people they exchanged mail with both ways (the members' two-way rule: newsletters and cold
 * inbound name nobody), and the people they met. In memory only; the caller keeps the matches and drops
 * the rest.
 */
export async function readAllyGoogle(google: GoogleClientFactory, auth: GoogleAuth): Promise<TAllyMatch[]> {
  const gmail = google.gmail(auth);
  const { data: profile } = await patiently(() => gmail.users.getProfile({ userId: 'me' }));
  const owner = (profile.emailAddress ?? '').toLowerCase();
  const ownDomain = emailDomain(owner);
  // Colleagues of the ally (their own company's domain) are not the people the team wants to reach.
  const isColleague = (email: string) =>
    Boolean(ownDomain) && !isFreeEmailDomain(ownDomain) && emailDomain(email) === ownDomain;
  const known = new Map<string, Known>();
  const note = (email: string, found: Known) => {
    const address = email.trim().toLowerCase();
    if (!address.includes('@') || address === owner || isColleague(address)) return;
    const before = known.get(address);
    known.set(address, {
      name: before?.name ?? found.name,
      company: before?.company ?? found.company,
      position: before?.position ?? found.position,
    });
  };

  // The address book first: its names and organisations are the ally's own words.
  const people = google.people(auth);
  let pageToken: string | undefined;
  do {
    const { data }: { data: people_v1.Schema$ListConnectionsResponse } = await patiently(() =>
      people.people.connections.list({
        resourceName: 'people/me',
        personFields: 'names,emailAddresses,organizations',
        pageSize: 1000,
        pageToken,
      }),
    );
    for (const person of data.connections ?? []) {
      const organization = person.organizations?.find((org) => org.current) ?? person.organizations?.[0];
      for (const address of person.emailAddresses ?? []) {
        note(address.value ?? '', {
          name: person.names?.[0]?.displayName ?? null,
          company: organization?.name || null,
          position: organization?.title || null,
        });
      }
    }
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);

  // Mail headers: only correspondents the ally both wrote to and heard from.
  const ids: string[] = [];
  pageToken = undefined;
  do {
    const { data }: { data: gmail_v1.Schema$ListMessagesResponse } = await gmail.users.messages.list({
      userId: 'me',
      maxResults: 500,
      pageToken,
    });
    for (const message of data.messages ?? []) if (message.id) ids.push(message.id);
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken && ids.length < MAX_MESSAGES);
  const messages = await mapConcurrent(ids.slice(0, MAX_MESSAGES), FETCH_CONCURRENCY, async (id) => {
    try {
      const { data } = await patiently(() =>
        gmail.users.messages.get({
          userId: 'me',
          id,
          format: 'metadata',
          metadataHeaders: ['From', 'To', 'Cc', 'Date'],
        }),
      );
      return mailEvidence(data);
    } catch (error) {
      if (httpStatus(error) === 404) return null; // deleted since it was listed
      throw error;
    }
  });
  const mail = messages.filter((message) => message !== null);
  const { wrote, written } = correspondence(mail, { owner, blocklist: blocklistOf([]), isColleague });
  const answered = new Set(written);
  const twoWay = new Set(wrote.filter((email) => answered.has(email)));
  for (const message of mail) {
    for (const participant of message.participants) {
      if (twoWay.has(participant.email))
        note(participant.email, { name: participant.name, company: null, position: null });
    }
  }

  // Meetings of a few people: whom the ally met.
  const calendar = google.calendar(auth);
  const since = new Date(Date.now() - MEETINGS_SINCE_DAYS * 24 * 3600 * 1000).toISOString();
  pageToken = undefined;
  do {
    const { data }: { data: calendar_v3.Schema$Events } = await patiently(() =>
      calendar.events.list({ calendarId: 'primary', singleEvents: true, timeMin: since, maxResults: 2500, pageToken }),
    );
    for (const event of data.items ?? []) {
      const attendees = (event.attendees ?? []).filter((attendee) => attendee.email);
      if (event.status === 'cancelled' || attendees.length < 2 || attendees.length > MAX_RECIPIENTS) continue;
      for (const attendee of attendees) {
        note(attendee.email ?? '', { name: attendee.displayName ?? null, company: null, position: null });
      }
    }
    pageToken = data.nextPageToken ?? undefined;
  } while (pageToken);

  return [...known].map(([email, found]) => ({
    fullName: found.name?.trim() || email.slice(0, email.indexOf('@')),
    profileUrl: null,
    email,
    company: found.company,
    position: found.position,
  }));
}
