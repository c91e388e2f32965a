/** Date formatting the way Google's APIs and mail headers write dates. */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function formatOffset(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(absolute / 60))}${separator}${pad(absolute % 60)}`;
}

/** An RFC 5322 date, e.g. `Tue, 14 Jan 2025 09:32:11 +0100`, at the sender's UTC offset. */
export function rfc5322Date(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * MINUTE);
  return `${DAYS[local.getUTCDay()]}, ${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${formatOffset(offsetMinutes, '')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const offsets = new Map<string, number>();

/** The UTC offset of a time zone at an instant, in minutes (cached per zone and hour). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const key = `${timeZone}@${Math.floor(ms / HOUR)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = computeOffset(Math.floor(ms / HOUR) * HOUR, timeZone);
    if (offsets.size > 200_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function computeOffset(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / MINUTE);
}

/** RFC 3339 with the zone's offset, e.g. `2025-01-14T10:00:00+01:00` (how Calendar writes dateTime). */
export function rfc3339InZone(ms: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(ms, timeZone);
  const local = new Date(ms + offset * MINUTE);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${offset === 0 ? 'Z' : formatOffset(offset, ':')}`;
}

/** A calendar date `YYYY-MM-DD` in a time zone. */
export function dateInZone(ms: number, timeZone: string): string {
  return rfc3339InZone(ms, timeZone).slice(0, 10);
}

/**
 * The instant of a wall-clock time in a time zone, with the zone's offset at noon UTC that day (exact
 * for working hours except on a changeover day east of Asia; good enough for generated meetings).
 */
export function wallTimeToUtc(dayMs: number, minutesOfDay: number, timeZone: string): number {
  const day = Math.floor(dayMs / DAY) * DAY;
  return day + minutesOfDay * MINUTE - zoneOffsetMinutes(day + 12 * HOUR, timeZone) * MINUTE;
}

/** RFC 3339 in UTC with milliseconds, as Google writes `updated` and `created`. */
export const isoUtc = (ms: number) => new Date(ms).toISOString();

export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY) * DAY;
