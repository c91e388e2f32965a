import { MESSAGES, type TTeammate, untargetedScheme } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function adminWithGoogle() {
  const admin = await ctx.registerAdmin();
  await ctx.recordGoogleConnection(admin.me.workspaceId, admin.me.id, admin.email);
  return admin;
}

const invite = (token: string, teammates: { email: string; role: string }[]) =>
  ctx.app.inject({ method: 'POST', url: '/api/teammates/invite', headers: bearer(token), payload: { teammates } });

describe('invitations', () => {
  it('need the admin to have connected Google, since the e-mail leaves from their account', async () => {
    const admin = await ctx.registerAdmin();
    const response = await invite(admin.token, [{ email: `new@${admin.domain}`, role: 'member' }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'NOT_CONNECTED', message: MESSAGES.mustConnectGoogle });
    const listed = await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) });
    expect(listed.json()).toHaveLength(1);
  });

  it('queue one e-mail per invitee with the registration link, and list them as Invited', async () => {
    const admin = await adminWithGoogle();
    const response = await invite(admin.token, [
      { email: `Bea@${admin.domain}`, role: 'viewer' },
      { email: `carl@${admin.domain}`, role: 'admin' },
      { email: `bea@${admin.domain}`, role: 'member' },
    ]);
    expect(response.statusCode).toBe(200);
    const invited = response.json().invited;
    expect(invited.map((i: { email: string; role: string }) => [i.email, i.role])).toEqual([
      [`bea@${admin.domain}`, 'member'],
      [`carl@${admin.domain}`, 'admin'],
    ]);
    const outbox = await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute(`select purpose, message from outbox order by message->'to'->>0`),
    );
    expect(outbox.rows).toHaveLength(2);
    expect(outbox.rows[0]).toMatchObject({
      purpose: 'invitation',
      message: {
        to: [`bea@${admin.domain}`],
        text: expect.stringContaining(`${ctx.config.publicUrl}/sign-up/register-invite/${invited[0].id}`),
      },
    });
    const listed = await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) });
    expect(
      listed
        .json()
        .filter((t: TTeammate) => t.status === 'Invited')
        .map((t: TTeammate) => t.email),
    ).toEqual([`bea@${admin.domain}`, `carl@${admin.domain}`]);
    // Inviting again renews the invitation instead of adding a second one.
    await invite(admin.token, [{ email: `bea@${admin.domain}`, role: 'viewer' }]);
    const again = await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) });
    expect(again.json().filter((t: TTeammate) => t.status === 'Invited')).toHaveLength(2);

    const members = await invite(admin.token, [{ email: admin.email, role: 'member' }]);
    expect(members.statusCode).toBe(409);
    expect(members.json()).toEqual({
      code: 'ALREADY_EXISTS',
      message: `${admin.email} already belong to the workspace`,
    });
  });

  it('are accepted once, by the invited address, and give the invited role', async () => {
    const admin = await adminWithGoogle();
    const email = `dana@${admin.domain}`;
    const [{ id }] = (await invite(admin.token, [{ email, role: 'viewer' }])).json().invited;
    const dana = await ctx.tokenFor(email, 'Dana Scully');

    const info = await ctx.app.inject({
      url: `/api/teammates/query/invited-user-teammates/${id}`,
      headers: bearer(dana),
    });
    expect(info.json()).toMatchObject({
      inviteId: id,
      email,
      role: 'viewer',
      status: 'pending',
      workspaceName: 'Acme',
      members: [{ name: 'Ada Admin', avatar: null }],
    });

    const accept = (token: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/teammates/accept-invitation',
        headers: bearer(token),
        payload: { firstName: 'Dana', lastName: 'Scully', inviteId: id },
      });
    const stranger = await ctx.tokenFor(`eve@${ctx.uniqueDomain()}`);
    // Whoever else holds the link sees neither the workspace nor its members.
    const peek = await ctx.app.inject({
      url: `/api/teammates/query/invited-user-teammates/${id}`,
      headers: bearer(stranger),
    });
    expect(peek.statusCode).toBe(403);
    expect(peek.json()).toEqual({
      code: 'WRONG_ACCOUNT',
      message: `This invitation is for ${email}. Sign in with that address.`,
    });
    const wrongAccount = await accept(stranger);
    expect(wrongAccount.statusCode).toBe(403);
    expect(wrongAccount.json()).toEqual({
      code: 'WRONG_ACCOUNT',
      message: `This invitation is for ${email}. Sign in with that address.`,
    });

    const accepted = await accept(dana);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ role: 'viewer', workspaceId: admin.me.workspaceId, firstName: 'Dana' });
    const twice = await accept(dana);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ code: 'INVITATION_USED', message: 'This invitation has already been used.' });
    const status = await ctx.app.inject({
      url: `/api/teammates/query/invited-user-teammates/${id}`,
      headers: bearer(dana),
    });
    expect(status.json().status).toBe('accepted');
    const listed = await ctx.app.inject({ url: '/api/users/query', headers: bearer(admin.token) });
    expect(listed.json()).toContainEqual(expect.objectContaining({ email, status: 'Accepted', role: 'viewer' }));
  });

  it('refuse expired, revoked and unknown invitations with clear messages', async () => {
    const admin = await adminWithGoogle();
    const expiredEmail = `old@${admin.domain}`;
    const [expired] = (await invite(admin.token, [{ email: expiredEmail, role: 'member' }])).json().invited;
    await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute(`update invites set expires_at = now() - interval '1 minute' where id = '${expired.id}'`),
    );
    const old = await ctx.tokenFor(expiredEmail);
    const acceptExpired = await ctx.app.inject({
      method: 'POST',
      url: '/api/teammates/accept-invitation',
      headers: bearer(old),
      payload: { firstName: 'O', lastName: 'L', inviteId: expired.id },
    });
    expect(acceptExpired.statusCode).toBe(410);
    expect(acceptExpired.json()).toEqual({
      code: 'INVITATION_EXPIRED',
      message: 'This invitation has expired. Ask your admin for a new one.',
    });

    const revokedEmail = `gone@${admin.domain}`;
    const [revoked] = (await invite(admin.token, [{ email: revokedEmail, role: 'member' }])).json().invited;
    const removal = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete/${revoked.id}`,
      headers: bearer(admin.token),
    });
    expect(removal.statusCode).toBe(204);
    const acceptRevoked = await ctx.app.inject({
      method: 'POST',
      url: '/api/teammates/accept-invitation',
      headers: bearer(await ctx.tokenFor(revokedEmail)),
      payload: { firstName: 'G', lastName: 'N', inviteId: revoked.id },
    });
    expect(acceptRevoked.statusCode).toBe(409);
    expect(acceptRevoked.json().code).toBe('INVITATION_USED');

    const unknown = await ctx.app.inject({
      url: '/api/teammates/query/invited-user-teammates/00000000-0000-4000-8000-000000000000',
      headers: bearer(old),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
  });

  it("pre-fill the invitee's targeting from the inviting admin's scheme", async () => {
    const admin = await adminWithGoogle();
    const scheme = {
      ...untargetedScheme(),
      countries: ['FR'],
      companySize: ['11 - 50'],
      companyType: ['BtoB'],
      jobDepartments: ['Sales'],
    };
    await ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/set-targeted-accounts-preferences',
      headers: bearer(admin.token),
      payload: scheme,
    });
    const email = `fay@${admin.domain}`;
    const [{ id }] = (await invite(admin.token, [{ email, role: 'member' }])).json().invited;
    const fay = await ctx.tokenFor(email);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/teammates/accept-invitation',
      headers: bearer(fay),
      payload: { firstName: 'Fay', lastName: 'W', inviteId: id },
    });
    const prefill = await ctx.app.inject({
      url: `/api/users/query/admin-targeting-schemes?inviteId=${id}`,
      headers: bearer(fay),
    });
    expect(prefill.json()).toEqual(scheme);
  });

  it('are for admins only', async () => {
    const admin = await adminWithGoogle();
    const member = await ctx.addUser(admin.me.workspaceId, 'member', admin.domain);
    const refused = await invite(member.token, [{ email: `x@${admin.domain}`, role: 'member' }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'FORBIDDEN', message: 'Your role does not allow this' });
  });
});
