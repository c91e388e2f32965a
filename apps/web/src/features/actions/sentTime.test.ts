import { describe, expect, it } from 'vitest';
import { formatSentTime } from './sentTime.ts';

const now = new Date('2025-06-15T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => formatSentTime(new Date(now.getTime() - ms), now);

describe('formatSentTime', () => {
  it.each([
    [0, 'Sent just now'],
    [59 * SECOND, 'Sent just now'],
    [MINUTE, 'Sent 1 minute ago'],
    [2 * MINUTE, 'Sent 2 minutes ago'],
    [HOUR - 1, 'Sent 59 minutes ago'],
    [HOUR, 'Sent 1 hour ago'],
    [DAY - 1, 'Sent 23 hours ago'],
    [DAY, 'Sent 1 day ago'],
    [7 * DAY - 1, 'Sent 6 days ago'],
    [7 * DAY, 'Sent 1 week ago'],
    [14 * DAY, 'Sent 2 weeks ago'],
    [30 * DAY - 1, 'Sent 4 weeks ago'],
    [30 * DAY, 'Sent 1 month ago'],
    [60 * DAY, 'Sent 2 months ago'],
    [365 * DAY - 1, 'Sent 12 months ago'],
    [365 * DAY, 'Sent 1 year ago'],
    [3 * 365 * DAY, 'Sent 3 years ago'],
  ])('%i ms ago reads %s', (elapsed, expected) => {
    expect(ago(elapsed)).toBe(expected);
  });

  it('says just now for a time ahead of the clock', () => {
    expect(ago(-5 * MINUTE)).toBe('Sent just now');
  });

  it('counts a month as 30 days, not a calendar month', () => {
    // 31 days: a calendar month and a day, but one 30-day month.
    expect(formatSentTime(new Date('2025-01-01T00:00:00Z'), new Date('2025-02-01T00:00:00Z'))).toBe('Sent 1 month ago');
    // February to March: 28 days, four weeks, not a month.
    expect(formatSentTime(new Date('2025-02-01T00:00:00Z'), new Date('2025-03-01T00:00:00Z'))).toBe('Sent 4 weeks ago');
  });
});
