import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStateSigner } from './signed-state.ts';

describe('createStateSigner', () => {
  const key = randomBytes(32);
  afterEach(() => vi.useRealTimers());

  it('returns what it signed, and nothing for altered, foreign or expired states', () => {
    const signer = createStateSigner(key, 'google-oauth');
    const state = signer.sign({ userId: 'u1', redirectUrl: '/network' }, 600);
    expect(signer.verify(state)).toMatchObject({ userId: 'u1', redirectUrl: '/network' });

    const [payload, signature] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ userId: 'u2', exp: Date.now() + 1e6 })).toString('base64url');
    expect(signer.verify(`${forged}.${signature}`)).toBeNull();
    expect(signer.verify(`${payload}.x${signature}`)).toBeNull();
    expect(createStateSigner(key, 'other-purpose').verify(state)).toBeNull();

    vi.useFakeTimers();
    vi.setSystemTime(Date.now() + 601_000);
    expect(signer.verify(state)).toBeNull();
  });
});
