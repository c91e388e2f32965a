import { type calendar_v3, calendar as calendarApi } from '@googleapis/calendar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGoogleSandbox } from './server.ts';
import { connect, rejection, startSandbox } from './testing.ts';

const EMAIL = 'sam.lee@northwind.io';
let running: RunningGoogleSandbox;
let calendar: calendar_v3.Calendar;

beforeAll(async () => {
  running = await startSandbox();
  const { client } = await connect(running, EMAIL);
  calendar = calendarApi({ version: 'v3', auth: client, rootUrl: running.rootUrl });
});
afterAll(async () => {
  await running.close();
});

/** A sync as the product runs it: page through, keep the sync token of the last page. */
async function sync(syncToken?: string) {
  const items: calendar_v3.Schema$Event[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const { data } = await calendar.events.list(
      { calendarId: 'primary', singleEvents: true, maxResults: 100, pageToken, syncToken },
      { retry: false },
    );
    expect(data.kind).toBe('calendar#events');
    items.push(...(data.items ?? []));
    if (!data.nextPageToken) return { items, nextSyncToken: data.nextSyncToken ?? '' };
    expect(data.nextSyncToken).toBeUndefined();
    pageToken = data.nextPageToken;
  }
}

describe('Calendar events', () => {
  it('lists the calendar in pages, ending with a sync token', async () => {
    const { items, nextSyncToken } = await sync();
    expect(nextSyncToken).toBeTruthy();
    expect(items.length).toBeGreaterThan(500);
    expect(new Set(items.map((event) => event.id)).size).toBe(items.length);
    expect(items.every((event) => event.status !== 'cancelled')).toBe(true);
    const meeting = items.find((event) => (event.attendees?.length ?? 0) > 2);
    expect(meeting).toMatchObject({
      kind: 'calendar#event',
      status: 'confirmed',
      start: { dateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/) },
      organizer: { email: expect.stringContaining('@') },
    });
    expect(meeting?.summary).toBeTruthy();
    expect(meeting?.updated).toMatch(/Z$/);
    expect(meeting?.attendees?.filter((attendee) => attendee.self)).toHaveLength(1);
    expect(meeting?.attendees?.filter((attendee) => attendee.organizer).length).toBeLessThanOrEqual(1);
    expect(items.some((event) => (event.attendees?.length ?? 0) > 20)).toBe(true);
    expect(items.some((event) => event.start?.date && !event.start.dateTime)).toBe(true);
    expect(items.some((event) => event.attendees?.some((attendee) => attendee.resource))).toBe(true);

    const deleted = await calendar.events.list({
      calendarId: 'primary',
      singleEvents: true,
      maxResults: 2500,
      showDeleted: true,
    });
    expect(deleted.data.items?.some((event) => event.status === 'cancelled')).toBe(true);
  });

  it('returns only what changed since a sync token: new meetings, then a cancellation', async () => {
    const first = await sync();
    const quiet = await sync(first.nextSyncToken);
    expect(quiet.items).toEqual([]);

    const response = await fetch(`${running.url}/_control/meetings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: EMAIL,
        summary: 'Partner sync: Acme + Globex',
        attendees: [{ name: 'Ana García', email: 'ana@acme.com' }, 'wile@globex.com'],
      }),
    });
    const { events } = (await response.json()) as { events: { id: string }[] };
    running.sandbox.addMeetings(EMAIL);
    const second = await sync(quiet.nextSyncToken);
    expect(second.items).toHaveLength(2);
    expect(second.items[0]).toMatchObject({
      id: events[0]?.id,
      summary: 'Partner sync: Acme + Globex',
      status: 'confirmed',
    });
    expect(second.items[0]?.attendees?.map((attendee) => attendee.email)).toEqual([
      EMAIL,
      'ana@acme.com',
      'wile@globex.com',
    ]);

    running.sandbox.cancelMeeting(EMAIL, events[0]?.id ?? '');
    const third = await sync(second.nextSyncToken);
    expect(third.items).toEqual([expect.objectContaining({ id: events[0]?.id, status: 'cancelled' })]);
  });

  it('answers an unknown or invalidated sync token with 410 fullSyncRequired', async () => {
    const { nextSyncToken } = await sync();
    const response = await fetch(`${running.url}/_control/calendar/invalidate-sync-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL }),
    });
    expect(response.status).toBe(200);
    const gone = await rejection(sync(nextSyncToken));
    expect(gone.status).toBe(410);
    expect(gone.data).toMatchObject({
      error: {
        code: 410,
        message: 'Sync token is no longer valid, a full sync is required.',
        errors: [{ domain: 'global', reason: 'fullSyncRequired' }],
      },
    });
    expect((await rejection(sync('not-a-token'))).status).toBe(410);
  });

  it('refuses a sync token combined with a time filter', async () => {
    const { nextSyncToken } = await sync();
    const refused = await rejection(
      calendar.events.list(
        { calendarId: 'primary', syncToken: nextSyncToken, timeMin: new Date().toISOString() },
        { retry: false },
      ),
    );
    expect(refused.status).toBe(400);
  });

  it('filters by time and orders by start time', async () => {
    const timeMin = new Date().toISOString();
    const { data } = await calendar.events.list({
      calendarId: 'primary',
      singleEvents: true,
      orderBy: 'startTime',
      timeMin,
    });
    const starts = (data.items ?? []).map((event) => Date.parse(event.start?.dateTime ?? event.start?.date ?? ''));
    expect(starts.length).toBeGreaterThan(0);
    expect(starts).toEqual(starts.slice().sort((a, b) => a - b));
    for (const event of data.items ?? []) {
      expect(Date.parse(event.end?.dateTime ?? event.end?.date ?? '')).toBeGreaterThan(Date.parse(timeMin));
    }
  });

  it('answers another calendar with 404', async () => {
    const missing = await rejection(calendar.events.list({ calendarId: 'someone@else.com' }, { retry: false }));
    expect(missing.status).toBe(404);
  });
});
