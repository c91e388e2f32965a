import { describe, expect, it } from 'vitest';
import {
  attemptOutcome,
  isPermanentFailure,
  isSuccessStatus,
  nextAttemptDelayMs,
  RETRY_SCHEDULE_MS,
  shouldDisableEndpoint,
} from './retry-schedule.ts';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('nextAttemptDelayMs', () => {
  it("follows the specification's schedule, then stops", () => {
    const delays = Array.from({ length: 11 }, (_, attemptsMade) => nextAttemptDelayMs(attemptsMade));
    expect(delays).toEqual([0, 5 * s, 5 * min, 30 * min, 2 * h, 5 * h, 10 * h, 14 * h, 20 * h, 24 * h, null]);
    expect(nextAttemptDelayMs(50)).toBeNull();
  });

  it("adds up to the specification's 'time since start' column: the last attempt at 75:35:05", () => {
    const startOffsets = RETRY_SCHEDULE_MS.map((_, i) => RETRY_SCHEDULE_MS.slice(0, i + 1).reduce((a, b) => a + b, 0));
    expect(startOffsets[3]).toBe(35 * min + 5 * s);
    expect(startOffsets.at(-1)).toBe(75 * h + 35 * min + 5 * s);
  });

  it.each([-1, 1.5, Number.NaN])('refuses %s attempts', (n) => {
    expect(() => nextAttemptDelayMs(n)).toThrow(RangeError);
  });
});

describe('statuses', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [199, 'retry'],
    [301, 'retry'],
    [302, 'retry'],
    [304, 'retry'],
    [400, 'retry'],
    [404, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [502, 'retry'],
    [503, 'retry'],
    [504, 'retry'],
    [410, 'gone'],
  ] as const)('%i is %s', (status, outcome) => {
    expect(attemptOutcome({ status })).toBe(outcome);
  });

  it('retries network errors, time-outs and refused targets, even after a 2xx status line', () => {
    expect(attemptOutcome({ status: null, error: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe('retry');
    expect(attemptOutcome({ status: null, error: 'timed out after 30000 ms' })).toBe('retry');
    expect(attemptOutcome({ status: 200, error: 'timed out after 30000 ms' })).toBe('retry');
    expect(attemptOutcome({ status: 410, error: 'timed out after 30000 ms' })).toBe('gone');
  });

  it('isSuccessStatus and isPermanentFailure', () => {
    expect(isSuccessStatus(200)).toBe(true);
    expect(isSuccessStatus(null)).toBe(false);
    expect(isSuccessStatus(302)).toBe(false);
    expect(isPermanentFailure(410)).toBe(true);
    expect(isPermanentFailure(404)).toBe(false);
    expect(isPermanentFailure(null)).toBe(false);
  });
});

describe('shouldDisableEndpoint', () => {
  const first = new Date('2025-03-01T10:00:00Z');
  it('after 5 days of continuous failure, not before', () => {
    expect(shouldDisableEndpoint(first, new Date('2025-03-01T10:00:00Z'))).toBe(false);
    expect(shouldDisableEndpoint(first, new Date('2025-03-06T09:59:59.999Z'))).toBe(false);
    expect(shouldDisableEndpoint(first, new Date('2025-03-06T10:00:00Z'))).toBe(true);
    expect(shouldDisableEndpoint(first, new Date('2025-03-20T00:00:00Z'))).toBe(true);
  });
});
