import type { TTeammate } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, registration, type TestContext } from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Call = { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object };

async function setUpTeam() {
  const admin = await ctx.registerAdmin();
  const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
  const viewer = await ctx.addUser(admin.me.workspaceId, 'viewer', admin.domain);
  const outsider = await ctx.registerAdmin();
  const teammates = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) })).json<
    TTeammate[]
  >();
  const idOf = (email: string) => teammates.find((teammate) => teammate.email === email)?.id ?? '';
  return { admin, member, viewer, outsider, idOf };
}

describe('the role matrix of users and workspace routes', () => {
  it('gives each role exactly what the spec allows, and another workspace nothing of ours', async () => {
    const team = await setUpTeam();
    const viewerId = team.idOf(team.viewer.email);
    const calls: Record<string, Call> = {
      listUsers: { method: 'GET', url: '/api/users/query' },
      workspace: { method: 'GET', url: '/api/workspace/query' },
      updateWorkspace: {
        method: 'PUT',
        url: '/api/workspace/command/update',
        payload: { name: 'Renamed', domains: [team.admin.domain], allowDomainJoin: false },
      },
      changeRole: { method: 'PUT', url: `/api/users/command/change-role/${viewerId}`, payload: { role: 'member' } },
    };
    const expected: Record<string, Record<string, number>> = {
      admin: { listUsers: 200, workspace: 200, updateWorkspace: 200, changeRole: 200 },
      member: { listUsers: 200, workspace: 200, updateWorkspace: 403, changeRole: 403 },
      viewer: { listUsers: 200, workspace: 200, updateWorkspace: 403, changeRole: 403 },
    };
    const tokens = { admin: team.admin.token, member: team.member.token, viewer: team.viewer.token };
    for (const [role, token] of Object.entries(tokens)) {
      for (const [name, call] of Object.entries(calls)) {
        const response = await ctx.app.inject({ ...call, headers: bearer(token) });
        expect(response.statusCode, `${role} ${name}`).toBe(expected[role]?.[name]);
      }
    }

    // Another workspace's admin sees only their own workspace, and cannot touch our users.
    const theirs = await ctx.app.inject({ url: '/api/users/query', headers: bearer(team.outsider.token) });
    expect(theirs.json().map((teammate: TTeammate) => teammate.email)).toEqual([team.outsider.email]);
    const hijack = await ctx.app.inject({
      ...calls.changeRole,
      payload: { role: 'admin' },
      headers: bearer(team.outsider.token),
    } as Call & { headers: Record<string, string> });
    expect(hijack.statusCode).toBe(404);
    expect(hijack.json()).toEqual({ code: 'NOT_FOUND', message: 'Teammate not found' });
    const remove = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete/${viewerId}`,
      headers: bearer(team.outsider.token),
    });
    expect(remove.statusCode).toBe(404);
  });
});

describe('users page', () => {
  it('lists teammates with status and connections, searchable by name or e-mail', async () => {
    const team = await setUpTeam();
    const all = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(team.admin.token) })).json();
    expect(all).toHaveLength(3);
    expect(all.find((teammate: TTeammate) => teammate.email === team.admin.email)).toMatchObject({
      fullName: 'Ada Admin',
      role: 'admin',
      status: 'Activated',
      isGoogleConnected: false,
      isLinkedinConnected: false,
    });
    const found = await ctx.app.inject({
      url: `/api/users/query?searchTerm=${encodeURIComponent(team.viewer.email.slice(0, 8))}`,
      headers: bearer(team.admin.token),
    });
    expect(found.json().map((teammate: TTeammate) => teammate.email)).toEqual([team.viewer.email]);
    const wildcard = await ctx.app.inject({
      url: '/api/users/query?searchTerm=%25',
      headers: bearer(team.admin.token),
    });
    expect(wildcard.json()).toEqual([]);
  });

  it('changes roles and removes users, never the last admin, never your own row', async () => {
    const team = await setUpTeam();
    const adminId = team.admin.me.id;
    const memberId = team.idOf(team.member.email);
    const as = bearer(team.admin.token);

    const self = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/command/change-role/${adminId}`,
      headers: as,
      payload: { role: 'viewer' },
    });
    expect(self.statusCode).toBe(403);

    const promoted = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/command/change-role/${memberId}`,
      headers: as,
      payload: { role: 'admin', email: team.member.email },
    });
    expect(promoted.json()).toMatchObject({ id: memberId, role: 'admin' });

    // Now two admins: the new one may demote the first; then the last admin stays.
    const demoted = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/command/change-role/${adminId}`,
      headers: bearer(team.member.token),
      payload: { role: 'member' },
    });
    expect(demoted.json()).toMatchObject({ role: 'member' });
    const lastAdminRemoval = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete/${memberId}`,
      headers: bearer(team.member.token),
    });
    expect(lastAdminRemoval.statusCode).toBe(403);
    expect(lastAdminRemoval.json().code).toBe('FORBIDDEN');

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete/${adminId}`,
      headers: bearer(team.member.token),
    });
    expect(removed.statusCode).toBe(204);
    const gone = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(team.admin.token) });
    expect(gone.statusCode).toBe(403);
    expect(gone.json().code).toBe('NOT_REGISTERED');
  });
});

describe('the last admin', () => {
  it('survives two admins demoting each other at the same moment', async () => {
    const team = await setUpTeam();
    const secondAdmin = await ctx.addUser(team.admin.me.workspaceId, 'admin', team.admin.domain);
    const secondId = await setUpIds(team.admin.token, secondAdmin.email);
    const demote = (token: string, id: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/users/command/change-role/${id}`,
        headers: bearer(token),
        payload: { role: 'member' },
      });
    const results = await Promise.all([
      demote(team.admin.token, secondId),
      demote(secondAdmin.token, team.admin.me.id),
    ]);
    // The loser is refused either by its role check (it was demoted first: 403) or by the admin lock (409).
    const [won, lost] = results.map((response) => response.statusCode).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const admins = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(team.member.token) }))
      .json<TTeammate[]>()
      .filter((teammate) => teammate.role === 'admin');
    expect(admins).toHaveLength(1);
  });
});

async function setUpIds(token: string, email: string) {
  const teammates = (await ctx.app.inject({ url: '/api/users/query', headers: bearer(token) })).json<TTeammate[]>();
  return teammates.find((teammate) => teammate.email === email)?.id ?? '';
}

describe('workspace settings', () => {
  it('updates the name, domains (up to 10) and the join flag, refusing foreign domains', async () => {
    const team = await setUpTeam();
    const update = (payload: object) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/workspace/command/update',
        headers: bearer(team.admin.token),
        payload,
      });

    const ok = await update({
      id: team.admin.me.workspaceId,
      name: 'Acme Europe',
      domains: [team.admin.domain],
      allowDomainJoin: true,
      selectedHubspotExclusionLists: [],
    });
    expect(ok.json()).toMatchObject({ name: 'Acme Europe', domains: [team.admin.domain], allowDomainJoin: true });

    const tooMany = await update({
      name: 'Acme',
      domains: Array.from({ length: 11 }, (_, i) => `d${i}.test`),
      allowDomainJoin: false,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringContaining('Max 10 tags') });

    const free = ['gmail.com', 'orange.fr', 'web.de', 'pm.me'];
    const gmail = await update({ name: 'Acme', domains: [team.admin.domain, ...free], allowDomainJoin: true });
    expect(gmail.statusCode).toBe(403);
    expect(gmail.json().message).toContain(`The following domains are not whitelisted: ${free.join(', ')}`);
    const stolen = await update({ name: 'Acme', domains: [team.outsider.domain], allowDomainJoin: false });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().code).toBe('DOMAIN_NOT_WHITELISTED');

    // With the join flag on, a newcomer of the domain is told which workspace to join.
    const newcomerEmail = `newcomer@${team.admin.domain}`;
    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/check-domain',
      headers: bearer(await ctx.tokenFor(newcomerEmail)),
      payload: { firstName: 'N', lastName: 'C', email: newcomerEmail },
    });
    expect(check.json().joinableWorkspace).toEqual({ id: team.admin.me.workspaceId, name: 'Acme Europe' });

    // Registering, the newcomer joins that workspace as a member instead of creating another.
    const newcomerToken = await ctx.tokenFor(newcomerEmail, 'New Comer');
    const joined = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/create-workspace-admin',
      headers: bearer(newcomerToken),
      payload: registration(newcomerToken, {
        email: newcomerEmail,
        workspaceName: 'Another Acme',
        workspaceDomains: [team.admin.domain],
      }),
    });
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ workspaceId: team.admin.me.workspaceId, role: 'member' });
    const listed = await ctx.app.inject({ url: '/api/users/query', headers: bearer(team.admin.token) });
    expect(listed.json()).toContainEqual(expect.objectContaining({ email: newcomerEmail, status: 'Joined' }));
  });
});

describe('onboarding progress', () => {
  it('only moves forward, and completing it is what the redirect rules read', async () => {
    const team = await setUpTeam();
    const advance = async (step: string) =>
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/users/command/advance-onboarding',
          headers: bearer(team.viewer.token),
          payload: { step },
        })
      ).json();
    expect(await advance('ACCOUNTS_IMPORT_DONE')).toMatchObject({ onboardingStep: 'ACCOUNTS_IMPORT_DONE' });
    expect(await advance('EXTERNALS_DONE')).toMatchObject({ onboardingStep: 'ACCOUNTS_IMPORT_DONE' });
    expect(await advance('COMPLETED')).toMatchObject({
      onboardingStep: 'ACCOUNTS_IMPORT_DONE',
      hasCompletedOnboarding: true,
    });
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(team.viewer.token) });
    expect(me.json().hasCompletedOnboarding).toBe(true);
  });
});
