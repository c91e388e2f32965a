import { createHmac, generateKeyPairSync } from 'node:crypto';
import { exportJWK, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, subjectOf, type TestContext } from '../../test/harness.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<TestContext['registerAdmin']>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.registerAdmin();
});
afterAll(() => ctx.close());

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function signWithProviderKey(claims: Record<string, unknown>, build?: (jwt: SignJWT) => SignJWT) {
  const key = await importJWK(ctx.secrets.signingKey, 'RS256');
  const jwt = new SignJWT({ email: admin.email, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: ctx.secrets.signingKey.kid })
    .setSubject(subjectOf(admin.token))
    .setIssuer(ctx.config.oidc.issuer)
    .setAudience(ctx.config.oidc.audience)
    .setIssuedAt()
    .setExpirationTime('10m');
  return (build ? build(jwt) : jwt).sign(key);
}

async function signWithForeignKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return new SignJWT({ email: admin.email })
    .setProtectedHeader({ alg: 'RS256', kid: ctx.secrets.signingKey.kid })
    .setSubject(subjectOf(admin.token))
    .setIssuer(ctx.config.oidc.issuer)
    .setAudience(ctx.config.oidc.audience)
    .setExpirationTime('10m')
    .sign(await importJWK(jwk, 'RS256'));
}

function unsignedToken() {
  const claims = {
    sub: subjectOf(admin.token),
    iss: ctx.config.oidc.issuer,
    aud: ctx.config.oidc.audience,
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
}

/** The classic algorithm confusion: HS256 with the provider's public key as the HMAC secret. */
function hs256WithPublicKey() {
  const { n, e, kty } = ctx.secrets.signingKey;
  const claims = {
    sub: subjectOf(admin.token),
    iss: ctx.config.oidc.issuer,
    aud: ctx.config.oidc.audience,
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: ctx.secrets.signingKey.kid })}.${b64(claims)}`;
  const signature = createHmac('sha256', JSON.stringify({ e, kty, n })).update(input).digest('base64url');
  return `${input}.${signature}`;
}

describe('authentication', () => {
  it('accepts a token the built-in provider issued', async () => {
    const response = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe(admin.email);
  });

  const badRequests: [string, () => Promise<Record<string, string>> | Record<string, string>][] = [
    ['no Authorization header', () => ({})],
    ['a non-Bearer scheme', () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
    ['a malformed token', () => ({ authorization: 'Bearer not-a-jwt' })],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    [
      'an expired token',
      async () =>
        bearer(await signWithProviderKey({}, (jwt) => jwt.setExpirationTime(Math.floor(Date.now() / 1000) - 60))),
    ],
    [
      'a token not valid yet (nbf)',
      async () => bearer(await signWithProviderKey({}, (jwt) => jwt.setNotBefore(Math.floor(Date.now() / 1000) + 600))),
    ],
    ['a token signed by another key', async () => bearer(await signWithForeignKey())],
    ['an unsigned token (alg none)', () => bearer(unsignedToken())],
    ['an HS256 token signed with the public key', () => bearer(hs256WithPublicKey())],
    [
      'a token from another issuer',
      async () => bearer(await signWithProviderKey({}, (jwt) => jwt.setIssuer('https://evil.example/idp'))),
    ],
    [
      'a token for another audience',
      async () => bearer(await signWithProviderKey({}, (jwt) => jwt.setAudience('other'))),
    ],
    [
      'a token without expiry',
      async () => {
        const key = await importJWK(ctx.secrets.signingKey, 'RS256');
        const token = await new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: ctx.secrets.signingKey.kid })
          .setSubject(subjectOf(admin.token))
          .setIssuer(ctx.config.oidc.issuer)
          .setAudience(ctx.config.oidc.audience)
          .sign(key);
        return bearer(token);
      },
    ],
  ];

  it.each(badRequests)('refuses %s with 401 and nothing else', async (_name, headers) => {
    for (const url of ['/api/users/query/me', '/api/no-such-route']) {
      const response = await ctx.app.inject({ url, headers: await headers() });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'UNAUTHENTICATED', message: expect.any(String) });
    }
  });

  it('answers an unknown API path, once signed in, with NOT_FOUND', async () => {
    const response = await ctx.app.inject({ url: '/api/no-such-route?x=1', headers: bearer(admin.token) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'No route GET /api/no-such-route' });
  });

  it('serves public routes without a token', async () => {
    expect((await ctx.app.inject({ url: '/api/public/config' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('roles', () => {
  it('refuses a viewer any change to workspace data, and lets them change their own account', async () => {
    const viewer = await ctx.addUser(admin.me.workspaceId, 'viewer', admin.domain);
    const updateWorkspace = await ctx.app.inject({
      method: 'PUT',
      url: '/api/workspace/command/update',
      headers: bearer(viewer.token),
      payload: { name: 'Taken over', domains: [admin.domain], allowDomainJoin: true },
    });
    expect(updateWorkspace.statusCode).toBe(403);
    expect(updateWorkspace.json().code).toBe('FORBIDDEN');

    const ownName = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-me',
      headers: bearer(viewer.token),
      payload: { firstName: 'New', lastName: 'Name' },
    });
    expect(ownName.json()).toMatchObject({ firstName: 'New', lastName: 'Name', role: 'viewer' });
  });

  it("answers a role that cannot use a route before judging the request's body", async () => {
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    for (const payload of [{}, { emails: 'not a list' }]) {
      const invite = await ctx.app.inject({
        method: 'POST',
        url: '/api/teammates/invite',
        headers: bearer(member.token),
        payload,
      });
      expect(invite.statusCode).toBe(403);
      expect(invite.json().code).toBe('FORBIDDEN');
    }
    const asAdmin = await ctx.app.inject({
      method: 'POST',
      url: '/api/teammates/invite',
      headers: bearer(admin.token),
      payload: {},
    });
    expect(asAdmin.statusCode).toBe(400);
  });

  it('refuses workspace routes to a signed-in person who has not registered', async () => {
    const stranger = await ctx.tokenFor(`someone@${ctx.uniqueDomain()}`);
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(stranger) });
    expect(me.statusCode).toBe(403);
    expect(me.json()).toEqual({ code: 'NOT_REGISTERED', message: 'This account has not registered yet' });
    const update = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-me',
      headers: bearer(stranger),
      payload: { firstName: 'A', lastName: 'B' },
    });
    expect(update.statusCode).toBe(403);
    expect(update.json()).toEqual({ code: 'NOT_REGISTERED', message: 'You are not a member of a workspace' });
  });
});
