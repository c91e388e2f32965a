import type {
  TAccount,
  TAccountsPage,
  TAssignableAccountUsers,
  TClient,
  TClientsPage,
  TClientTags,
  TCrmClientsPage,
  TMe,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';
import { multipartBody } from '../../../../test/multipart.ts';
import { recomputeDirty } from '../../../graph/graph.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });

function uploadCsv(token: string, url: string, content: string, fields: Record<string, string> = {}) {
  const { body, contentType } = multipartBody(fields, [{ filename: 'list.csv', content }]);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': contentType },
    payload: body,
  });
}

const allyForm = (domain: string, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Ally',
  email: `ada@${domain}`,
  companyName: 'Ally Co',
  companyDomain: domain,
  linkedinUrl: `https://www.linkedin.com/in/ada-${domain}`,
  tag: 'Investor',
  mapNetwork: true,
  ...overrides,
});

/** A workspace with an admin, a member, a viewer, one account and one ally. */
async function workspace() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const member = await ctx.addUser(ws, 'member', admin.domain);
  const viewer = await ctx.addUser(ws, 'viewer', admin.domain);
  const accountDomain = ctx.uniqueDomain();
  await uploadCsv(
    admin.token,
    '/api/accounts/command/upload-accounts',
    `Company name,Company domain\nTarget,${accountDomain}\n`,
  );
  const account = (await call(admin.token, 'GET', '/api/accounts/query')).json<TAccountsPage>().rows[0];
  const ally = await call(
    admin.token,
    'POST',
    '/api/clients/command/create-update-single-client',
    allyForm(ctx.uniqueDomain()),
  );
  if (!account || ally.statusCode !== 200) throw new Error(`fixture failed: ${ally.body}`);
  return { admin, ws, member, viewer, account, ally: ally.json<TClient>() };
}

describe('the add-client form', () => {
  it('creates with the flags of its list, and an update keeps identity and flags', async () => {
    const { admin, ally } = await workspace();
    expect(ally).toMatchObject({
      firstName: 'Ada',
      lastName: 'Ally',
      tag: 'Investor',
      source: 'manual',
      mapNetwork: true,
      trackJobChanges: false,
      contactOwner: null,
    });

    const newDomain = ctx.uniqueDomain();
    const updated = await call(admin.token, 'POST', '/api/clients/command/create-update-single-client', {
      ...allyForm(newDomain, { firstName: 'Changed', email: `changed@${newDomain}` }),
      id: ally.id,
      companyName: 'New Co',
      contactOwner: admin.email,
      mapNetwork: false,
      trackJobChanges: true,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<TClient>()).toMatchObject({
      id: ally.id,
      firstName: 'Ada',
      email: ally.email,
      companyName: 'New Co',
      companyDomain: newDomain,
      contactOwner: admin.email,
      tag: 'Investor',
      mapNetwork: true,
      trackJobChanges: false,
    });
  });

  it('adds an existing ally to job-change tracking instead of duplicating them', async () => {
    const { admin, ally } = await workspace();
    const again = await call(admin.token, 'POST', '/api/clients/command/create-update-single-client', {
      ...allyForm(ally.companyDomain ?? '', { email: ally.email, linkedinUrl: ally.linkedinUrl }),
      mapNetwork: false,
      trackJobChanges: true,
    });
    expect(again.json<TClient>()).toMatchObject({ id: ally.id, mapNetwork: true, trackJobChanges: true });
    const all = (await call(admin.token, 'GET', '/api/clients/query')).json<TClientsPage>();
    expect(all.pagination.totalCount).toBe(1);
  });

  it('answers bad input with the spec messages', async () => {
    const { admin } = await workspace();
    const response = await call(admin.token, 'POST', '/api/clients/command/create-update-single-client', {
      ...allyForm(ctx.uniqueDomain()),
      email: 'not-an-email',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'email: Email must be a valid email address',
    });
  });

  it('deletes a client, and suggests the workspace tags', async () => {
    const { admin, ally } = await workspace();
    const tags = (await call(admin.token, 'GET', '/api/clients/query/tags?searchTerm=inv')).json<TClientTags>();
    expect(tags.tags).toEqual(['Investor']);
    expect((await call(admin.token, 'DELETE', `/api/clients/command/delete-client/${ally.id}`)).statusCode).toBe(204);
    const deletedTwice = await call(admin.token, 'DELETE', `/api/clients/command/delete-client/${ally.id}`);
    expect(deletedTwice.statusCode).toBe(404);
    expect(deletedTwice.json()).toEqual({ code: 'NOT_FOUND', message: 'Client not found' });
    const allies = await call(admin.token, 'GET', '/api/clients/query/allies-to-map-network-from');
    expect(allies.json<TClientsPage>().rows).toEqual([]);
  });
});

describe('the allies list', () => {
  it('pages and searches, and shows an ally’s engagement and best link to a member', async () => {
    const network = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, network.ws);
    const page = await call(
      network.admin.token,
      'GET',
      '/api/clients/query/allies-to-map-network-from?page=1&pageSize=15',
    );
    const allies = page.json<TClientsPage>();
    expect(allies.pagination).toMatchObject({ page: 1, pageSize: 15, totalCount: 1, totalPages: 1 });
    expect(allies.rows[0]).toMatchObject({ email: network.people.ally, mapNetwork: true, engagement: 'MET' });
    expect(allies.rows[0]?.proximity).toBeGreaterThan(0);
    const none = await call(
      network.admin.token,
      'GET',
      '/api/clients/query/allies-to-map-network-from?searchTerm=nobody',
    );
    expect(none.json<TClientsPage>().pagination).toMatchObject({ totalCount: 0, totalPages: 1 });
  });
});

describe('account assignees', () => {
  it('lists the assignable users, assigns and removes', async () => {
    const { admin, member, account } = await workspace();
    const users = (
      await call(admin.token, 'GET', `/api/accounts/query/assignable-account-users/${account.id}`)
    ).json<TAssignableAccountUsers>();
    expect(users.assignedTo).toEqual([]);
    expect(users.assignable).toHaveLength(3);
    const memberUser = users.assignable.find((user) => user.name === 'Test member');
    const updated = await call(admin.token, 'POST', `/api/accounts/command/update-assignees/${account.id}`, {
      assigneeIds: [memberUser?.id, admin.me.id],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<TAccount>().assignedTo.map((user) => user.name)).toEqual(['Ada Admin', 'Test member']);
    const after = (
      await call(admin.token, 'GET', `/api/accounts/query/assignable-account-users/${account.id}`)
    ).json<TAssignableAccountUsers>();
    expect(after.assignable.map((user) => user.name)).toEqual(['Test viewer']);

    const removed = await call(admin.token, 'POST', `/api/accounts/command/update-assignees/${account.id}`, {
      assigneeIds: [admin.me.id],
    });
    expect(removed.json<TAccount>().assignedTo.map((user) => user.name)).toEqual(['Ada Admin']);
    const stranger = await ctx.registerAdmin();
    const foreign = await call(admin.token, 'POST', `/api/accounts/command/update-assignees/${account.id}`, {
      assigneeIds: [stranger.me.id],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Only users of the workspace can be assigned',
    });
    expect(member.email).toContain('member');
  });

  it("sets the caller's own accounts, which the network's 'My accounts' filter reads", async () => {
    const { admin, member, viewer, account } = await workspace();
    const memberId = (await call(member.token, 'GET', '/api/users/query/me')).json<TMe>().id;
    const set = await call(member.token, 'POST', '/api/users/command/set-my-accounts', { accountIds: [account.id] });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ accountIds: [account.id] });
    const assigned = (
      await call(admin.token, 'GET', `/api/accounts/query/assignable-account-users/${account.id}`)
    ).json<TAssignableAccountUsers>();
    expect(assigned.assignedTo.map((user) => user.id)).toEqual([memberId]);
    // Exactly these: an empty list leaves the member none, and touches nobody else's.
    await call(admin.token, 'POST', '/api/users/command/set-my-accounts', { accountIds: [account.id] });
    await call(member.token, 'POST', '/api/users/command/set-my-accounts', { accountIds: [] });
    const after = (
      await call(admin.token, 'GET', `/api/accounts/query/assignable-account-users/${account.id}`)
    ).json<TAssignableAccountUsers>();
    expect(after.assignedTo.map((user) => user.name)).toEqual(['Ada Admin']);

    const stranger = await workspace();
    const foreign = await call(member.token, 'POST', '/api/users/command/set-my-accounts', {
      accountIds: [stranger.account.id],
    });
    expect(foreign.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Only accounts of the workspace can be yours',
    });
    const refused = await call(viewer.token, 'POST', '/api/users/command/set-my-accounts', {
      accountIds: [account.id],
    });
    expect(refused.statusCode).toBe(403);
  });

  it('removes an account', async () => {
    const { admin, account } = await workspace();
    expect((await call(admin.token, 'DELETE', `/api/accounts/command/delete/${account.id}`)).statusCode).toBe(204);
    expect((await call(admin.token, 'GET', '/api/accounts/query')).json<TAccountsPage>().rows).toEqual([]);
  });

  it('shows the last intro or message about an account', async () => {
    const { admin, ws, account } = await workspace();
    await ctx.database.inWorkspace(ws, async (tx) => {
      const person = await tx.execute<{ id: string }>(sql`
        insert into people (workspace_id, full_name, company_id)
        select ${ws}, 'Prospect', company_id from accounts where id = ${account.id} returning id`);
      await tx.execute(sql`
        insert into actions (workspace_id, type, status, origin, prospect_id, acted_at)
        values (${ws}, 'ask-intro', 'completed', 'network', ${person.rows[0]?.id}, '2026-01-02T03:04:05Z')`);
    });
    const accounts = (await call(admin.token, 'GET', '/api/accounts/query?searchTerm=targ')).json<TAccountsPage>();
    expect(accounts.rows[0]?.lastActivity).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('roles and workspaces', () => {
  it('lets only admins change allies, tracked clients, CRM clients and assignments', async () => {
    const { admin, member, viewer, account, ally } = await workspace();
    const form = allyForm(ctx.uniqueDomain());
    const crm = 'Company name,Company domain\nAcme,acme.test\n';
    const accounts = `Company name,Company domain\nOther,${ctx.uniqueDomain()}\n`;
    for (const user of [member, viewer]) {
      const denied = [
        await call(user.token, 'POST', '/api/clients/command/create-update-single-client', form),
        await call(user.token, 'DELETE', `/api/clients/command/delete-client/${ally.id}`),
        await uploadCsv(user.token, '/api/crm-clients/command/upload-crm-clients', crm),
        await call(user.token, 'POST', `/api/accounts/command/update-assignees/${account.id}`, { assigneeIds: [] }),
        await call(user.token, 'DELETE', `/api/accounts/command/delete/${account.id}`),
        await call(user.token, 'GET', '/api/clients/query/allies-to-map-network-from'),
        await call(user.token, 'GET', '/api/clients/query/clients-for-job-changes-tracking'),
        await call(user.token, 'GET', '/api/crm-clients/query'),
        // Both lists at once: what the dedicated pages refuse, this does too (spec section 6).
        await call(user.token, 'GET', '/api/clients/query'),
      ];
      expect(denied.map((response) => response.statusCode)).toEqual(denied.map(() => 403));
      expect((await call(user.token, 'GET', '/api/accounts/query')).statusCode).toBe(200);
    }
    // Members import their accounts (onboarding asks everyone); viewers change nothing.
    expect((await uploadCsv(member.token, '/api/accounts/command/upload-accounts', accounts)).statusCode).toBe(200);
    expect((await uploadCsv(viewer.token, '/api/accounts/command/upload-accounts', accounts)).statusCode).toBe(403);
    expect((await uploadCsv(admin.token, '/api/crm-clients/command/upload-crm-clients', crm)).statusCode).toBe(200);

    // Clients: a member uploads theirs at onboarding's clients step (this file has no header: refused as a
    // file, not as a caller), and no more once onboarding is done; a viewer never.
    const clients = () => uploadCsv(member.token, '/api/clients/command/upload-clients', 'a\n', { mapNetwork: 'true' });
    expect((await clients()).statusCode).toBe(422);
    expect(
      (await uploadCsv(viewer.token, '/api/clients/command/upload-clients', 'a\n', { mapNetwork: 'true' })).statusCode,
    ).toBe(403);
    await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute(sql`update users set has_completed_onboarding = true where email = ${member.email}`),
    );
    const afterOnboarding = await clients();
    expect(afterOnboarding.statusCode).toBe(403);
    expect(afterOnboarding.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only admins can import clients once onboarding is done.',
    });
  });

  it('never shows another workspace’s lists or imports', async () => {
    const mine = await workspace();
    const other = await workspace();
    const crm = await uploadCsv(
      mine.admin.token,
      '/api/crm-clients/command/upload-crm-clients',
      'Company name,Company domain\nMine,mine.test\n',
    );
    const importId = crm.json<{ id: string }>().id;
    const token = other.admin.token;
    expect((await call(token, 'GET', '/api/accounts/query')).json<TAccountsPage>().rows.map((row) => row.id)).toEqual([
      other.account.id,
    ]);
    expect((await call(token, 'GET', '/api/clients/query')).json<TClientsPage>().rows.map((row) => row.id)).toEqual([
      other.ally.id,
    ]);
    expect((await call(token, 'GET', '/api/crm-clients/query')).json<TCrmClientsPage>().rows).toEqual([]);
    const attempts = [
      await call(token, 'GET', `/api/imports/query/${importId}`),
      await call(token, 'GET', `/api/imports/query/${importId}/rejected-rows`),
      await call(token, 'GET', `/api/accounts/query/assignable-account-users/${mine.account.id}`),
      await call(token, 'POST', `/api/accounts/command/update-assignees/${mine.account.id}`, { assigneeIds: [] }),
      await call(token, 'DELETE', `/api/accounts/command/delete/${mine.account.id}`),
      await call(token, 'DELETE', `/api/clients/command/delete-client/${mine.ally.id}`),
      await call(token, 'POST', '/api/clients/command/create-update-single-client', {
        ...allyForm(ctx.uniqueDomain()),
        id: mine.ally.id,
      }),
    ];
    expect(attempts.map((response) => response.statusCode)).toEqual(attempts.map(() => 404));
    expect((await call(mine.admin.token, 'GET', '/api/accounts/query')).json<TAccountsPage>().rows).toHaveLength(1);
  });
});

describe('the API document', () => {
  it('describes the lists and imports calls', async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/accounts/command/upload-accounts',
        '/api/accounts/command/update-assignees/{id}',
        '/api/clients/command/create-update-single-client',
        '/api/clients/query/allies-to-map-network-from',
        '/api/crm-clients/query',
        '/api/imports/query/{id}',
        '/api/imports/query/{id}/rejected-rows',
      ]),
    );
  });
});
