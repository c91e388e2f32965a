import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { mintAccessToken } from '../idp/provider.ts';

let ctx: TestContext;
let web: FastifyInstance;
let webDist: string;
const opened: FastifyInstance[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  // A built web app as Vite leaves it: index.html loading its script from a file.
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-web-'));
  await fs.mkdir(path.join(webDist, 'assets'));
  await fs.writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
  );
  await fs.writeFile(path.join(webDist, 'assets/index.js'), 'console.log("app");\n');
  web = (await ctx.appWith({ webDist })).app;
  opened.push(web);
});
afterAll(async () => {
  for (const app of opened) await app.close();
  await ctx.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

/** The headers every answer must carry, whatever it is. */
function expectBrowserHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['permissions-policy'], what).toContain('camera=()');
  expect(headers['x-frame-options'], what).toBe('DENY');
  // Served over http (localhost): no HSTS, which would break the next visit over http.
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

describe('security headers', () => {
  it('are on the pages, the static files, and the API answers, errors included', async () => {
    const admin = await ctx.registerAdmin();
    const answers = {
      page: await web.inject({ url: '/network' }),
      'static file': await web.inject({ url: '/assets/index.js' }),
      'API answer': await web.inject({ url: '/api/users/query/me', headers: bearer(admin.token) }),
      'public API answer': await web.inject({ url: '/api/public/countries' }),
      'API error': await web.inject({ url: '/api/users/query/me' }),
      'unknown API route': await web.inject({ url: '/api/nothing-here', headers: bearer(admin.token) }),
      'API docs': await web.inject({ url: '/api/docs' }),
    };
    expect(answers.page.statusCode).toBe(200);
    expect(answers.page.headers['content-type']).toMatch(/text\/html/);
    expect(answers['static file'].statusCode).toBe(200);
    expect(answers['API answer'].statusCode).toBe(200);
    expect(answers['API error'].statusCode).toBe(401);
    expect(answers['unknown API route'].statusCode).toBe(404);
    for (const [what, answer] of Object.entries(answers)) expectBrowserHeaders(answer.headers, what);
  });

  it('keep answers for a signed-in caller out of every cache, and let public ones be cached', async () => {
    const admin = await ctx.registerAdmin();
    const me = await web.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await web.inject({ url: '/api/users/query/me', headers: bearer('not-a-token') });
    expect(refused.headers['cache-control']).toBe('no-store');
    const countries = await web.inject({ url: '/api/public/countries' });
    expect(countries.headers['cache-control']).toBe('public, max-age=86400');
    const snippet = await web.inject({ url: '/api/public/snippet.js' });
    expect(snippet.headers['cache-control']).not.toBe('no-store');
  });

  it("leave the tracking snippet and endpoint usable from customers' sites", async () => {
    const snippet = await web.inject({
      url: '/api/public/snippet.js',
      headers: { origin: 'https://customer.example' },
    });
    expect(snippet.statusCode).toBe(200);
    // Loaded by <script src> on another site: a JavaScript type (nosniff demands it), and nothing that
    // forbids cross-origin use.
    expect(snippet.headers['content-type']).toMatch(/^text\/javascript/);
    expect(snippet.headers['cross-origin-resource-policy']).toBeUndefined();
    expect(snippet.headers['cross-origin-embedder-policy']).toBeUndefined();
  });

  it('allow the external identity provider and PostHog when configured, and HSTS over https', async () => {
    const { app, config } = await ctx.appWith({
      env: {
        PUBLIC_URL: 'https://app.example.com',
        OIDC_ISSUER: 'https://tenant.eu.auth0.com/',
        POSTHOG_KEY: 'phc_test',
      },
    });
    opened.push(app);
    const page = await app.inject({ url: '/api/public/config' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self' https:\/\/tenant\.eu\.auth0\.com https:\/\/app\.posthog\.com/);
    expect(csp).toContain('upgrade-insecure-requests');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(config.https).toBe(true);

    const local = await web.inject({ url: '/api/public/config' });
    expect(String(local.headers['content-security-policy'])).toMatch(/connect-src 'self';/);
  });

  it('keep a personal answer out of caches behind https too, with HSTS', async () => {
    const { app, config } = await ctx.appWith({ env: { PUBLIC_URL: 'https://localhost:8443', TRUST_PROXY: 'true' } });
    opened.push(app);
    const token = await mintAccessToken(config, ctx.database.db, { email: `hsts-${Date.now()}@example.test` });
    const answer = await app.inject({ url: '/api/users/query/me', headers: bearer(token) });
    // Not a member yet, but authenticated: the answer is still personal.
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});
