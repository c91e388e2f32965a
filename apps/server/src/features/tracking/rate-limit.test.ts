import { describe, expect, it } from 'vitest';
import { createTokenBuckets } from './rate-limit.ts';

describe('token buckets', () => {
  it('lets a burst through, then the rate, and says how long to wait', () => {
    const buckets = createTokenBuckets({ perSecond: 10, burst: 20 });
    expect(buckets.take('a', 20, 0)).toBe(0);
    expect(buckets.take('a', 1, 0)).toBe(1);
    // Half a second refills five tokens.
    expect(buckets.take('a', 5, 500)).toBe(0);
    expect(buckets.take('a', 1, 500)).toBe(1);
    // Refused takes take nothing: 15 tokens are 1.5 s away, so 2 whole seconds.
    expect(buckets.take('a', 15, 500)).toBe(2);
    expect(buckets.take('a', 15, 2000)).toBe(0);
  });

  it('keeps ids apart and never holds more than the burst', () => {
    const buckets = createTokenBuckets({ perSecond: 10, burst: 20 });
    expect(buckets.take('a', 20, 0)).toBe(0);
    expect(buckets.take('b', 20, 0)).toBe(0);
    expect(buckets.take('a', 21, 1_000_000)).toBeGreaterThan(0);
    expect(buckets.take('a', 20, 1_000_000)).toBe(0);
  });

  it('forgets refilled buckets and holds at most maxIds', () => {
    const buckets = createTokenBuckets({ perSecond: 10, burst: 20 }, { maxIds: 100 });
    for (let i = 0; i < 1000; i++) buckets.take(`address-${i}`, 1, 20_000);
    expect(buckets.size()).toBe(100);
    // Ten seconds on, every bucket refilled: the sweep drops them all but the one just taken.
    buckets.take('late', 1, 40_000);
    expect(buckets.size()).toBe(1);
  });
});
