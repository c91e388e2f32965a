import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';
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
    });
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe(`${ctx.config.publicUrl}/sign-up/sync?google=denied`);
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
