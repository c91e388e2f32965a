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
    /** How many ids have a bucket now. */
    size: () => buckets.size,
  };
}
export type TokenBuckets = ReturnType<typeof createTokenBuckets>;
