import { MESSAGES, type TErrorCode } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWLISTED_DOMAIN,
  bearer,
  createTestContext,
  registration,
  type TestContext,
} from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function register(token: string, payload: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/users/command/create-workspace-admin',
    headers: bearer(token),
    payload: registration(token, payload),
  });
}

describe('POST /users/command/create-workspace-admin', () => {
  it('creates the workspace and its first admin, who then loads as me', async () => {
    const domain = ctx.uniqueDomain();
    const email = `Jane.Doe@${domain.toUpperCase()}`;
    const token = await ctx.tokenFor(email, 'Jane Doe');
    const response = await register(token, {
      firstName: '  Jane ',
      lastName: 'Doe',
      email,
      workspaceName: 'Doe & Co',
      workspaceDomains: [domain],
    });
    expect(response.statusCode).toBe(201);
    const me = response.json();
    expect(me).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      email: email.toLowerCase(),
      role: 'admin',
      onboardingStep: 'SIGNUP_DONE',
      hasCompletedOnboarding: false,
      isGoogleConnected: false,
      isLinkedinConnected: false,
      isTargetedAccountsSet: false,
      webhookUrl: null,
    });
    const again = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(token) });
    expect(again.json()).toEqual(me);
  });

  it('refuses free e-mail providers and foreign domains with the whitelist message', async () => {
    const domain = ctx.uniqueDomain();
    const token = await ctx.tokenFor(`bob@${domain}`);
    const response = await register(token, {
      email: `bob@${domain}`,
      workspaceDomains: [domain, 'gmail.com', 'someone-else.test'],
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('DOMAIN_NOT_WHITELISTED');
    expect(response.json().message).toContain(MESSAGES.domainsNotWhitelisted);
    expect(response.json().message).toContain('gmail.com, someone-else.test');

    const carol = `carol${Date.now()}@gmail.com`;
    const fromGmail = await register(await ctx.tokenFor(carol), { email: carol, workspaceDomains: ['gmail.com'] });
    expect(fromGmail.statusCode).toBe(403);
    expect(fromGmail.json().message).toContain(`${MESSAGES.domainsNotWhitelisted}: gmail.com`);
  });

  it('refuses every free mailbox as the own domain, not only the best known', async () => {
    for (const domain of ['orange.fr', 'web.de', 'pm.me', 'gmail.com']) {
      const email = `erin${Date.now()}@${domain}`;
      const response = await register(await ctx.tokenFor(email), { email, workspaceDomains: [domain] });
      expect(response.statusCode, domain).toBe(403);
      expect(response.json().message).toContain(`${MESSAGES.domainsNotWhitelisted}: ${domain}`);
    }
    const company = ctx.uniqueDomain();
    const accepted = await register(await ctx.tokenFor(`erin@${company}`), {
      email: `erin@${company}`,
      workspaceDomains: [company],
    });
    expect(accepted.statusCode).toBe(201);
  });

  it("accepts a domain on the operator's allow-list", async () => {
    const domain = ctx.uniqueDomain();
    const token = await ctx.tokenFor(`dan@${domain}`);
    const response = await register(token, { email: `dan@${domain}`, workspaceDomains: [domain, ALLOWLISTED_DOMAIN] });
    expect(response.statusCode).toBe(201);
  });

  it('refuses bad payloads with a clear message', async () => {
    const domain = ctx.uniqueDomain();
    const token = await ctx.tokenFor(`erin@${domain}`);
    const cases: [Record<string, unknown>, number, TErrorCode, string][] = [
      [{ email: `erin@${domain}`, firstName: '   ' }, 400, 'VALIDATION_FAILED', 'First name is required'],
      [{ email: `erin@${domain}`, workspaceName: '' }, 400, 'VALIDATION_FAILED', 'Company name is required'],
      [{ email: `erin@${domain}`, workspaceDomains: [] }, 400, 'VALIDATION_FAILED', 'At least one domain is required'],
      [
        { email: `erin@${domain}`, workspaceDomains: ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test'] },
        400,
        'VALIDATION_FAILED',
        'Max 5 tags',
      ],
      [{ email: 'not-an-email' }, 400, 'VALIDATION_FAILED', 'Email must be a valid email address'],
      [{ email: `someone.else@${domain}`, workspaceDomains: [domain] }, 403, 'WRONG_ACCOUNT', 'does not match'],
      [
        { email: `erin@${domain}`, workspaceDomains: [domain], idpId: 'another-subject' },
        403,
        'WRONG_ACCOUNT',
        'does not match',
      ],
    ];
    for (const [payload, status, code, message] of cases) {
      const response = await register(token, { workspaceDomains: [domain], ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json()).toEqual({ code, message: expect.stringContaining(message) });
    }
  });

  it('refuses a second registration and a domain another workspace owns', async () => {
    const admin = await ctx.registerAdmin();
    const twice = await register(admin.token, { email: admin.email, workspaceDomains: [admin.domain] });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ALREADY_REGISTERED');

    const colleague = await ctx.tokenFor(`colleague@${admin.domain}`);
    const taken = await register(colleague, { email: `colleague@${admin.domain}`, workspaceDomains: [admin.domain] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 'DOMAIN_TAKEN', message: expect.stringContaining(admin.domain) });
  });
});

describe('POST /users/command/check-domain', () => {
  const check = (token: string, email: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/check-domain',
      headers: bearer(token),
      payload: { firstName: 'F', lastName: 'L', email },
    });

  it('tells whether the domain is whitelisted and which workspace lets it join', async () => {
    const open = await ctx.registerAdmin();
    const newcomerEmail = `newcomer@${open.domain}`;
    const newcomer = await ctx.tokenFor(newcomerEmail);
    expect((await check(newcomer, newcomerEmail)).json()).toEqual({
      domain: open.domain,
      isWhitelisted: true,
      joinableWorkspace: null,
    });

    const joinableDomain = ctx.uniqueDomain();
    const founder = await ctx.tokenFor(`founder@${joinableDomain}`);
    const created = await register(founder, {
      email: `founder@${joinableDomain}`,
      workspaceName: 'Open Co',
      workspaceDomains: [joinableDomain],
      allowDomainJoin: true,
    });
    const joinerEmail = `joiner@${joinableDomain}`;
    const joiner = await ctx.tokenFor(joinerEmail);
    expect((await check(joiner, joinerEmail)).json()).toEqual({
      domain: joinableDomain,
      isWhitelisted: true,
      joinableWorkspace: { id: created.json().workspaceId, name: 'Open Co' },
    });
  });

  it('never whitelists a free mailbox, and refuses bad input', async () => {
    for (const domain of ['gmail.com', 'orange.fr', 'web.de', 'pm.me']) {
      const email = `frank${Date.now()}@${domain}`;
      expect((await check(await ctx.tokenFor(email), email)).json()).toMatchObject({
        isWhitelisted: false,
        joinableWorkspace: null,
      });
    }
    const email = `frank${Date.now()}@gmail.com`;
    const token = await ctx.tokenFor(email);
    expect((await check(token, 'nope')).statusCode).toBe(400);
    expect((await check(token, `other@${ctx.uniqueDomain()}`)).statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  it("never shows one workspace's users to another, whatever the request says", async () => {
    const first = await ctx.registerAdmin();
    const second = await ctx.registerAdmin();
    const me = await ctx.app.inject({
      url: `/api/users/query/me?workspaceId=${second.me.workspaceId}&id=${second.me.id}`,
      headers: { ...bearer(first.token), 'x-workspace-id': second.me.workspaceId },
    });
    expect(me.json()).toMatchObject({ id: first.me.id, workspaceId: first.me.workspaceId });
    expect(JSON.stringify(me.json())).not.toContain(second.email);
  });
});
