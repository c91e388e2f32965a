import type { FastifyReply } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * The one rule for rate limits: token buckets in memory, one per id, and a refusal that is a 429 with
 * `Retry-After`. Tracking, sign-in, token exchange, public routes, bad tokens and uploads all use it.
 */
export type BucketLimit = {
  /** Tokens added per second. */
  perSecond: number;
  /** The most a bucket holds: how far above the rate a short burst may go. */
  burst: number;
};

type Bucket = { tokens: number; at: number };

/** How often buckets that refilled completely are forgotten: one that is full is the same as none. */
const SWEEP_EVERY_MS = 10_000;

/**
 * Token buckets in memory, one per id (a tracking key, a client address). A bucket that filled up
 * again is dropped at the next sweep, and the map never holds more than `maxIds` (the oldest go
 * first), so a flood of distinct addresses cannot grow memory without end.
 */
export function createTokenBuckets(limit: BucketLimit, { maxIds = 100_000 }: { maxIds?: number } = {}) {
  const buckets = new Map<string, Bucket>();
  let sweptAt = 0;

  const sweep = (now: number) => {
    sweptAt = now;
    for (const [id, bucket] of buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond >= limit.burst) buckets.delete(id);
    }
  };

  return {
    /**
     * Takes `count` tokens from `id`'s bucket: 0 when they were there, else the whole seconds to wait
     * until they will be (nothing is taken then).
     */
    take(id: string, count = 1, now = performance.now()): number {
      if (now - sweptAt >= SWEEP_EVERY_MS) sweep(now);
      let bucket = buckets.get(id);
      if (!bucket) {
        if (buckets.size >= maxIds) {
          const oldest = buckets.keys().next().value;
          if (oldest !== undefined) buckets.delete(oldest);
        }
        bucket = { tokens: limit.burst, at: now };
        buckets.set(id, bucket);
      } else {
        bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
        bucket.at = now;
      }
      if (bucket.tokens >= count) {
        bucket.tokens -= count;
        return 0;
      }
      return Math.max(1, Math.ceil((count - bucket.tokens) / limit.perSecond));
    },
    /** The whole seconds until `id` has `count` tokens again, without taking any: 0 when it has them now. */
    wait(id: string, count = 1, now = performance.now()): number {
      const bucket = buckets.get(id);
      if (!bucket) return 0;
      const tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
      return tokens >= count ? 0 : Math.max(1, Math.ceil((count - tokens) / limit.perSecond));
    },
    /** How many ids have a bucket now. */
    size: () => buckets.size,
  };
}
export type TokenBuckets = ReturnType<typeof createTokenBuckets>;

/** Refuses the request: 429 with the seconds to wait in `Retry-After` (the error handler writes the body). */
export function refuseTooMany(reply: FastifyReply, seconds: number, message: string): never {
  reply.header('retry-after', String(seconds));
  throw new AppError('LIMIT_REACHED', message);
}

/**
 * A limit written as `<requests>/<seconds>`, e.g. `60/60`: up to that many at once, refilled evenly
 * over the window. What the RATE_LIMIT_* settings hold.
 */
export function parseBucketLimit(text: string): BucketLimit | null {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*s?\s*$/.exec(text);
  if (!match) return null;
  const requests = Number(match[1]);
  const seconds = Number(match[2]);
  if (requests < 1 || seconds < 1) return null;
  return { perSecond: requests / seconds, burst: requests };
}
