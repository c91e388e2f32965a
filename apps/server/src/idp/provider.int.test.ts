import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';

let ctx: TestContext;
const opened: FastifyInstance[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  for (const app of opened) await app.close();
  await ctx.close();
});

/**
 * The app with the built-in provider, listening on loopback: the provider is served beside Fastify
 * (app.ts), so only a real connection reaches it, not `inject`.
 */
async function serve(env: Record<string, string> = {}) {
  const { app, config } = await ctx.appWith({ idp: true, env });
  opened.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, config };
}

/** Cookies as a browser keeps them (paths aside): what the provider set, sent back. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    keep(answer: Response) {
      for (const line of answer.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const index = pair.indexOf('=');
        cookies.set(pair.slice(0, index), pair.slice(index + 1));
      }
      return answer;
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
}

/** The web app's sign-in request: authorization code with PKCE, for the registered callback. */
function authorizePath(publicUrl: string) {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const params = new URLSearchParams({
    client_id: 'warmpath-web',
    redirect_uri: `${publicUrl}/auth/callback`,
    response_type: 'code',
    scope: 'openid email profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'web-state',
  });
  return `/idp/auth?${params}`;
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>/i;

describe('the built-in identity provider', () => {
  it('signs in on a page with the security headers and no inline script, with Lax cookies over http', async () => {
    const { base, config } = await serve();
    const jar = cookieJar();
    const start = jar.keep(await fetch(`${base}${authorizePath(config.publicUrl)}`, { redirect: 'manual' }));
    expect(start.status).toBe(303);
    const interaction = start.headers.get('location') ?? '';
    expect(interaction).toMatch(/^\/idp\/interaction\/[\w-]+$/);
    for (const cookie of start.headers.getSetCookie()) {
      expect(cookie).toMatch(/samesite=lax/i);
      expect(cookie).not.toMatch(/;\s*secure/i);
    }

    const page = await fetch(`${base}${interaction}`, { headers: { cookie: jar.header() } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('permissions-policy')).toContain('microphone=()');
    const html = await page.text();
    expect(html).toContain('Local sign-in');
    expect(html).not.toMatch(INLINE_SCRIPT);

    const email = `idp-${randomUUID().slice(0, 8)}@example.test`;
    const submitted = jar.keep(
      await fetch(`${base}${interaction}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, name: 'Idp Person' }),
      }),
    );
    expect(submitted.status).toBe(303);
    const resumed = jar.keep(
      await fetch(new URL(submitted.headers.get('location') ?? '', base), {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      }),
    );
    expect(resumed.headers.get('location')).toMatch(/^http:\/\/localhost:3999\/auth\/callback\?code=/);
    // The session cookie is Lax too: the library's SameSite=None would need Secure, and nothing here is cross-site.
    const session = resumed.headers.getSetCookie().find((cookie) => cookie.startsWith('_session='));
    expect(session).toMatch(/samesite=lax/i);

    // Signing out, with that session: the page submits itself with a script from a file.
    const signOut = await fetch(`${base}/idp/session/end`, { headers: { cookie: jar.header() } });
    expect(signOut.status).toBe(200);
    const signOutHtml = await signOut.text();
    expect(signOutHtml).toContain('<script src="/idp/sign-out.js"></script>');
    expect(signOutHtml).not.toMatch(INLINE_SCRIPT);
    const script = await fetch(`${base}/idp/sign-out.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toBe('document.forms[0].submit();\n');
  });

  it("allows the library's own self-submitting form by its hash only, never any inline script", async () => {
    const { base } = await serve();
    // Signing out without a session: oidc-provider's form_post page, whose script it allows by hash.
    const page = await fetch(`${base}/idp/session/end`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(INLINE_SCRIPT);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('ignores forwarded host and protocol unless TRUST_PROXY names the proxy', async () => {
    const forwarded = { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' };
    const untrusting = await serve();
    const discovery = await fetch(`${untrusting.base}/idp/.well-known/openid-configuration`, { headers: forwarded });
    expect(JSON.stringify(await discovery.json())).not.toContain('evil.test');
    const start = await fetch(`${untrusting.base}${authorizePath(untrusting.config.publicUrl)}`, {
      redirect: 'manual',
      headers: forwarded,
    });
    for (const cookie of start.headers.getSetCookie()) expect(cookie).not.toMatch(/;\s*secure/i);

    // Behind a TLS proxy on this machine, named by TRUST_PROXY: its headers count, the cookies are Secure.
    const behindProxy = await serve({ PUBLIC_URL: 'https://localhost:8443', TRUST_PROXY: 'loopback' });
    const secure = await fetch(`${behindProxy.base}${authorizePath(behindProxy.config.publicUrl)}`, {
      redirect: 'manual',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'localhost:8443' },
    });
    expect(secure.status).toBe(303);
    const cookies = secure.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*secure/i);
      expect(cookie).toMatch(/samesite=lax/i);
    }
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('limits sign-in per e-mail and per address, and the token endpoint per address, with 429 and Retry-After', async () => {
    const { base } = await serve({
      RATE_LIMIT_SIGN_IN_PER_ADDRESS: '5/60',
      RATE_LIMIT_SIGN_IN_PER_USER: '2/60',
      RATE_LIMIT_TOKEN_PER_ADDRESS: '2/60',
    });
    const signIn = (email: string) =>
      fetch(`${base}/idp/interaction/made-up`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, name: '' }),
      });
    // The same e-mail twice, then refused; another e-mail from the same address still gets through.
    for (let i = 0; i < 2; i++) expect((await signIn('target@example.test')).status).not.toBe(429);
    const perUser = await signIn('TARGET@example.test');
    expect(perUser.status).toBe(429);
    expect(Number(perUser.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await perUser.text()).toContain('Too many sign-in attempts. Try again in');
    expect((await signIn('other@example.test')).status).not.toBe(429);
    expect((await signIn('third@example.test')).status).not.toBe(429);
    // Five from this address: the sixth is refused, whatever the e-mail.
    const perAddress = await signIn('fourth@example.test');
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const exchange = () =>
      fetch(`${base}/idp/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'guess', client_id: 'warmpath-web' }),
      });
    for (let i = 0; i < 2; i++) expect((await exchange()).status).not.toBe(429);
    const refused = await exchange();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
  });
});
