import { DAYS_IN_MONTH } from '@warmpath/shared';

// The DATE column of past and skipped actions (spec sections 2 and 9): how long ago it was sent, in the
// largest whole unit; a month is 30 days.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const UNITS = [
  { name: 'year', ms: 365 * DAY_MS },
  { name: 'month', ms: DAYS_IN_MONTH * DAY_MS },
  { name: 'week', ms: 7 * DAY_MS },
  { name: 'day', ms: DAY_MS },
  { name: 'hour', ms: HOUR_MS },
  { name: 'minute', ms: MINUTE_MS },
] as const;

/** 'Sent 3 days ago', 'Sent 1 month ago'; under a minute (or a clock running ahead) 'Sent just now'. */
export function formatSentTime(sentAt: Date, now: Date): string {
  const elapsed = now.getTime() - sentAt.getTime();
  for (const unit of UNITS) {
    const count = Math.floor(elapsed / unit.ms);
    if (count >= 1) return `Sent ${count} ${unit.name}${count === 1 ? '' : 's'} ago`;
  }
  return 'Sent just now';
}
