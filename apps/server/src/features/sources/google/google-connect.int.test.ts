import type { TMe } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approveGoogleConsent,
  bearer,
  createTestContext,
  nonceCookie,
  type TestContext,
} from '../../../../test/harness.ts';
import { safeRedirectPath } from './google.service.ts';
import { GOOGLE_SCOPES } from './google-client.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('POST /google/authenticate', () => {
  it('returns the consent address with offline access, every scope and a signed state', async () => {
    const admin = await ctx.registerAdmin();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/google/authenticate?redirectUrl=${encodeURIComponent('/sign-up/sync')}`,
      headers: bearer(admin.token),
    });
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().url);
    expect(`${url.origin}${url.pathname}`).toBe(`${ctx.config.google.sandboxUrl}/o/oauth2/v2/auth`);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(GOOGLE_SCOPES);
    expect(url.searchParams.get('redirect_uri')).toBe(`${ctx.config.publicUrl}/api/public/google/callback`);
    expect(url.searchParams.get('login_hint')).toBe(admin.email);

    const forged = await ctx.app.inject({ url: '/api/public/google/callback?code=abc&state=forged.state' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'This Google sign-in link has expired. Connect again from the app.',
    });
    const denied = await ctx.app.inject({
      url: `/api/public/google/callback?error=access_denied&state=${url.searchParams.get('state')}`,
      headers: { cookie: nonceCookie(response) },
    });
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe(`${ctx.config.publicUrl}/sign-up/sync?google=denied`);
  });

  it('binds the consent to the browser that started it: approved in another browser, nothing is connected', async () => {
    const victim = await ctx.registerAdmin();
    const stranger = await ctx.registerAdmin();
    const start = await ctx.app.inject({
      method: 'POST',
      url: '/api/google/authenticate?redirectUrl=%2Fnetwork',
      headers: bearer(victim.token),
    });
    const setCookie = String(start.headers['set-cookie']);
    expect(setCookie).toMatch(/^warmpath_google_oauth=[\w-]+; Max-Age=900; Path=\/api\/public\/google\/callback;/);
    expect(setCookie).toContain('HttpOnly; SameSite=Lax');
    // The consent link is forwarded and approved by someone else, in their own browser.
    const callback = await approveGoogleConsent(start.json<{ url: string }>().url, stranger.email);
    const path = `${callback.pathname}${callback.search}`;
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: '/api/google/authenticate?redirectUrl=%2Fnetwork',
      headers: bearer(stranger.token),
    });
    for (const cookie of [undefined, nonceCookie(theirs)]) {
      const refused = await ctx.app.inject({ url: path, headers: cookie ? { cookie } : {} });
      expect(refused.statusCode).toBe(302);
      expect(refused.headers.location).toBe(`${ctx.config.publicUrl}/network?google=other-browser`);
      expect(String(refused.headers['set-cookie'])).toMatch(/^warmpath_google_oauth=; Max-Age=0;/);
    }
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(victim.token) });
    expect(me.json<TMe>()).toMatchObject({ isGoogleConnected: false, googleAccountEmail: null });

    // In the browser that started it, the same consent connects, and says which account it was.
    const back = await ctx.app.inject({ url: path, headers: { cookie: nonceCookie(start) } });
    expect(back.headers.location).toBe(`${ctx.config.publicUrl}/network?google=connected`);
    const connected = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(victim.token) });
    expect(connected.json<TMe>()).toMatchObject({ isGoogleConnected: true, googleAccountEmail: stranger.email });
  });
});

describe('safeRedirectPath', () => {
  it('keeps paths of the app and nothing else', () => {
    expect(safeRedirectPath('/network?x=1')).toBe('/network?x=1');
    for (const bad of ['https://evil.test/', '//evil.test', '/\\evil.test', 'javascript:alert(1)', undefined]) {
      expect(safeRedirectPath(bad)).toBe('/');
    }
  });
});
