import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';

let ctx: TestContext;
let app: FastifyInstance;

// Low limits, so that a few requests prove the refusal; the defaults are far above any test's.
beforeAll(async () => {
  ctx = await createTestContext();
  ({ app } = await ctx.appWith({
    env: {
      RATE_LIMIT_PUBLIC_PER_ADDRESS: '3/60',
      RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: '3/60',
      RATE_LIMIT_UPLOAD_PER_ADDRESS: '5/60',
      RATE_LIMIT_UPLOAD_PER_USER: '2/60',
    },
  }));
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

/** Requests as from one client address (Fastify's request.ip). */
const from = (remoteAddress: string) => ({ remoteAddress });

function expectTooMany(answer: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) {
  expect(answer.statusCode).toBe(429);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(answer.json()).toMatchObject({ code: 'LIMIT_REACHED' });
}

const uploadConnections = (token: string, remoteAddress: string) => {
  const { body, contentType } = multipartBody({}, [{ filename: 'Connections.csv', content: 'First Name,Last Name\n' }]);
  return app.inject({
    method: 'POST',
    url: '/api/linkedin/command/upload-connections',
    headers: { ...bearer(token), 'content-type': contentType },
    payload: body,
    ...from(remoteAddress),
  });
};

describe('rate limits', () => {
  it('answer 429 with Retry-After once an address has used its public requests, and only that address', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: '/api/public/countries', ...from('203.0.113.1') })).statusCode).toBe(200);
    }
    expectTooMany(await app.inject({ url: '/api/health', ...from('203.0.113.1') }));
    expect((await app.inject({ url: '/api/public/countries', ...from('203.0.113.2') })).statusCode).toBe(200);
    // Tracking has its own limits, per key and per address: the public one does not count it.
    const track = await app.inject({
      method: 'POST',
      url: '/api/public/track',
      headers: { 'content-type': 'text/plain', origin: 'https://customer.example' },
      payload: JSON.stringify({ key: 'unknown', events: [] }),
      ...from('203.0.113.1'),
    });
    expect(track.statusCode).not.toBe(429);
  });

  it('make an address that keeps sending bad tokens wait, before any of its tokens is checked', async () => {
    const admin = await ctx.registerAdmin();
    for (const token of ['forged', 'also.forged.token', '']) {
      const answer = await app.inject({
        url: '/api/users/query/me',
        headers: token ? bearer(token) : {},
        ...from('198.51.100.7'),
      });
      expect(answer.statusCode).toBe(401);
    }
    // Even a good token waits now, from that address; another address is not affected.
    expectTooMany(
      await app.inject({ url: '/api/users/query/me', headers: bearer(admin.token), ...from('198.51.100.7') }),
    );
    const elsewhere = await app.inject({
      url: '/api/users/query/me',
      headers: bearer(admin.token),
      ...from('198.51.100.8'),
    });
    expect(elsewhere.statusCode).toBe(200);
    // Good answers never count: many of them from one address are fine.
    for (let i = 0; i < 5; i++) {
      const ok = await app.inject({
        url: '/api/users/query/me',
        headers: bearer(admin.token),
        ...from('198.51.100.9'),
      });
      expect(ok.statusCode).toBe(200);
    }
  });

  it('limit uploads per user and per address', async () => {
    const admin = await ctx.registerAdmin();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    // Per user: the third file of the admin is refused, even from a new address.
    for (const address of ['192.0.2.1', '192.0.2.2']) {
      expect((await uploadConnections(admin.token, address)).statusCode).not.toBe(429);
    }
    expectTooMany(await uploadConnections(admin.token, '192.0.2.3'));
    // Per address: five uploads from one address, whoever sends them.
    const viewer = await ctx.addUser(admin.me.workspaceId, 'viewer', admin.domain);
    for (const token of [member.token, member.token, viewer.token, viewer.token]) {
      expect((await uploadConnections(token, '192.0.2.3')).statusCode).not.toBe(429);
    }
    const third = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    expectTooMany(await uploadConnections(third.token, '192.0.2.3'));
    expect((await uploadConnections(third.token, '192.0.2.4')).statusCode).not.toBe(429);
  });
});
