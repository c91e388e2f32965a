import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionCache } from './session-cache.ts';

const identity = { workspaceId: 'w', userId: 'u', role: 'member' as const };
afterEach(() => vi.useRealTimers());

describe('createSessionCache', () => {
  it('keeps a member memberTtlMs at most, and a token no longer than it is valid', () => {
    vi.useFakeTimers();
    const cache = createSessionCache({ memberTtlMs: 5000, tokenTtlMs: 60_000 });
    cache.remember('s', identity);
    cache.verified('t', { subject: 's', email: null }, Date.now() / 1000 + 10);
    vi.advanceTimersByTime(4999);
    expect(cache.identity('s')).toEqual(identity);
    vi.advanceTimersByTime(2);
    expect(cache.identity('s')).toBeUndefined();
    expect(cache.caller('t')).toEqual({ subject: 's', email: null });
    vi.advanceTimersByTime(5000);
    expect(cache.caller('t')).toBeUndefined();
  });

  it('forgets a changed member, everyone after a lost notice, and the oldest past its bound', () => {
    const cache = createSessionCache({ max: 2 });
    cache.remember('a', identity);
    cache.remember('b', { ...identity, userId: 'v' });
    cache.forgetMember('w', 'u');
    expect(cache.identity('a')).toBeUndefined();
    expect(cache.identity('b')).toBeDefined();
    cache.remember('c', identity);
    cache.remember('d', identity);
    expect(cache.identity('b')).toBeUndefined();
    expect(cache.identity('d')).toBeDefined();
    cache.forgetMembers();
    expect(cache.identity('d')).toBeUndefined();
  });
});
