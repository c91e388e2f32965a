const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The Standard Webhooks example schedule: the delay before attempt n+1, by n attempts already made
 * (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over about 75.5 h).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** An endpoint failing without a single success for this long is disabled and its admins told. */
export const DISABLE_AFTER_MS = 5 * DAY;

/**
 * How long to wait before the next attempt of a message, given how many attempts were already made
 * (0 before the first); null when the schedule is exhausted and the message has failed for good.
 */
export function nextAttemptDelayMs(attemptsMade: number): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a whole number >= 0, got ${attemptsMade}`);
  }
  return RETRY_SCHEDULE_MS[attemptsMade] ?? null;
}

/** 2xx, and only 2xx, is a delivery; a 3xx is a failure since redirects are never followed. */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

/** 410 Gone: the receiver no longer wants these webhooks; the endpoint is disabled, not retried. */
export function isPermanentFailure(status: number | null): boolean {
  return status === 410;
}

/**
 * What one attempt means for its message: 'delivered' (2xx with no transport error), 'gone' (410:
 * disable the endpoint) or 'retry' (any other status, 3xx included, a network error, a refused
 * target, a time-out: the next attempt follows the schedule, or the message fails once it is spent).
 */
export function attemptOutcome(attempt: { status: number | null; error?: string }): 'delivered' | 'gone' | 'retry' {
  if (isPermanentFailure(attempt.status)) return 'gone';
  if (attempt.error === undefined && isSuccessStatus(attempt.status)) return 'delivered';
  return 'retry';
}

/** Whether an endpoint that has failed continuously since `firstFailureAt` must now be disabled. */
export function shouldDisableEndpoint(firstFailureAt: Date, now: Date): boolean {
  return now.getTime() - firstFailureAt.getTime() >= DISABLE_AFTER_MS;
}
