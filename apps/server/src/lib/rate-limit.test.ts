import { describe, expect, it } from 'vitest';
import { createTokenBuckets, parseBucketLimit } from './rate-limit.ts';

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

  it('tells how long until tokens are back without taking any', () => {
    const buckets = createTokenBuckets({ perSecond: 1, burst: 3 });
    expect(buckets.wait('a', 1, 0)).toBe(0);
    expect(buckets.take('a', 3, 0)).toBe(0);
    expect(buckets.wait('a', 1, 0)).toBe(1);
    expect(buckets.wait('a', 1, 0)).toBe(1);
    expect(buckets.wait('a', 1, 1000)).toBe(0);
    expect(buckets.wait('a', 3, 1000)).toBe(2);
  });
});

describe('parseBucketLimit', () => {
  it('reads <requests>/<seconds> and nothing else', () => {
    expect(parseBucketLimit('60/60')).toEqual({ burst: 60, perSecond: 1 });
    expect(parseBucketLimit(' 10 / 600s ')).toEqual({ burst: 10, perSecond: 10 / 600 });
    for (const bad of ['', '60', '0/60', '60/0', 'ten/60', '-1/60', '1.5/60'])
      expect(parseBucketLimit(bad), bad).toBeNull();
  });
});
