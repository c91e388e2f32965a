import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOAuthFlow, createStateSigner, readCookie } from './signed-state.ts';

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

describe('createOAuthFlow', () => {
  const key = randomBytes(32);
  const flow = (secure = false) =>
    createOAuthFlow(key, { purpose: 'google-oauth', callbackPath: '/api/public/google/callback', secure });
  /** What the browser sends back: the `name=value` of a Set-Cookie header. */
  const sent = (cookie: string) => cookie.split(';')[0];

  it('binds the state to the browser that started it with a short-lived, HttpOnly, Lax cookie', () => {
    const { state, cookie } = flow().start({ userId: 'u1' });
    expect(cookie).toMatch(
      /^warmpath_google_oauth=[\w-]{43}; Max-Age=900; Path=\/api\/public\/google\/callback; HttpOnly; SameSite=Lax$/,
    );
    expect(flow(true).start({}).cookie).toMatch(/; Secure$/);
    // The state carries a hash of the nonce, never the nonce itself.
    expect(state).not.toContain(sent(cookie)?.split('=')[1]);

    expect(flow().finish(state, `other=1; ${sent(cookie)}`)).toMatchObject({ status: 'ok', value: { userId: 'u1' } });
    expect(flow().finish(state, undefined)).toMatchObject({ status: 'other-browser', value: { userId: 'u1' } });
    const another = flow().start({ userId: 'u2' }).cookie;
    expect(flow().finish(state, sent(another))).toMatchObject({ status: 'other-browser' });
    expect(flow().finish(`${state}x`, sent(cookie))).toEqual({ status: 'invalid' });
    expect(flow().finish(undefined, sent(cookie))).toEqual({ status: 'invalid' });
    // A state of the old kind, signed but without a nonce, binds nothing: refused.
    expect(flow().finish(createStateSigner(key, 'google-oauth').sign({ userId: 'u1' }, 60), sent(cookie))).toEqual({
      status: 'invalid',
    });
    expect(flow().clearCookie).toBe(
      'warmpath_google_oauth=; Max-Age=0; Path=/api/public/google/callback; HttpOnly; SameSite=Lax',
    );
  });

  it('reads one cookie from a Cookie header', () => {
    expect(readCookie('a=1; b=2=3;c=4', 'b')).toBe('2=3');
    expect(readCookie('ab=1', 'a')).toBeNull();
    expect(readCookie(undefined, 'a')).toBeNull();
  });
});
