/** Calendar's API on the sandbox's state: events (paging, sync tokens, 410) and the calendar list. */
import { GoogleApiError } from './errors.ts';
import { SCOPES } from './oauth.ts';
import { booleanParam, integerParam, type Query, stringParam } from './params.ts';
import type { GoogleSandbox } from './sandbox.ts';

const CALENDAR = [
  SCOPES.calendar,
  SCOPES.calendarReadonly,
  SCOPES.calendarEvents,
  SCOPES.calendarEventsReadonly,
  SCOPES.calendarEventsOwned,
  SCOPES.calendarEventsOwnedReadonly,
];

export function calendarEvents(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  calendarId: string,
) {
  const { auth, state } = sandbox.authenticate(authorization, query, CALENDAR);
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

export function calendarList(sandbox: GoogleSandbox, authorization: string | undefined, query: Query) {
  const { auth, state } = sandbox.authenticate(authorization, query, CALENDAR);
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
