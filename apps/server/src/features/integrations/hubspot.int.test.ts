import { randomUUID } from 'node:crypto';
import {
  type EventData,
  OTHER_BROWSER_MESSAGES,
  type TCrmListCompaniesPage,
  type TCrmListOption,
  type THubspotConnection,
  type TMe,
  type TWorkspace,
} from '@warmpath/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestContext,
  deliverPending,
  deliveryDeps,
  nonceCookie,
  type TestContext,
} from '../../../test/harness.ts';
import { submitHubspotConsent } from '../../../test/hubspot-sandbox.ts';
import { deliveries, jobRuns } from '../../db/schema/index.ts';
import { createEventRecorder } from '../../events/record.ts';
import { recordInteractions, upsertPeopleByEmail } from '../../graph/evidence.repo.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { hubspotAccountDeps } from '../../integrations/hubspot/hubspot-account.ts';
import { findWorkspaceIntegration } from '../../integrations/integrations.repo.ts';
import { createSealer } from '../../lib/sealing.ts';
import { runHubspotSyncJob } from './hubspot-sync-runs.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Admin = Awaited<ReturnType<TestContext['registerAdmin']>>;

const get = <T>(token: string, url: string) =>
  ctx.app
    .inject({ url, headers: bearer(token) })
    .then((answer) => ({ status: answer.statusCode, body: answer.json<T>() }));

async function connectedAdmin(): Promise<Admin> {
  const admin = await ctx.registerAdmin();
  const answer = await ctx.connectHubspot(admin.token, admin.email);
  expect(answer.statusCode, answer.body).toBe(200);
  return admin;
}

/** The sandbox's portal of an admin, and one of its company lists by name. */
function portalList(email: string, name: string) {
  const portal = ctx.hubspot.state.portalFor(email).ready();
  const list = portal.lists.find((candidate) => candidate.name === name);
  if (!list) throw new Error(`no list ${name}`);
  const domainOf = (id: number) => String(portal.objects.companies.get(id)?.properties.domain ?? '');
  return { portal, list, domainOf };
}

/** Runs the sync the last request queued, as the worker would. */
async function runQueuedSync(workspaceId: string) {
  const [run] = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx
      .select({ id: jobRuns.id })
      .from(jobRuns)
      .where(and(eq(jobRuns.workspaceId, workspaceId), eq(jobRuns.kind, 'hubspot-sync'), eq(jobRuns.status, 'queued'))),
  );
  if (!run) throw new Error('no HubSpot sync queued');
  await runHubspotSyncJob(
    { ...hubspotAccountDeps(ctx.config, ctx.database, ctx.encryptionKey), jobs: ctx.jobs },
    { workspaceId, runId: run.id },
  );
}

async function chooseLists(admin: Admin, lists: { customers?: string[]; exclusions?: string[] }) {
  const workspace = await get<TWorkspace>(admin.token, '/api/workspace/query');
  return ctx.app.inject({
    method: 'PUT',
    url: '/api/workspace/command/update',
    headers: bearer(admin.token),
    payload: {
      ...workspace.body,
      ...(lists.customers ? { activeCrmClientExclusionLists: lists.customers } : {}),
      ...(lists.exclusions ? { selectedHubspotExclusionLists: lists.exclusions } : {}),
    },
  });
}

async function prospectsAt(workspaceId: string, domain: string) {
  const rows = await ctx.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ n: number }>(sql`
      select count(*)::int as n from network_rows r join companies c on c.workspace_id = r.workspace_id and c.id = r.company_id
       where r.workspace_id = ${workspaceId} and c.domain = ${domain}`),
  );
  return rows.rows[0]?.n ?? 0;
}

const accessToken = async (admin: Admin) => (await sealedTokens(admin.me.workspaceId)).accessToken;

async function sealedTokens(workspaceId: string) {
  const row = await ctx.database.inWorkspace(workspaceId, (tx) => findWorkspaceIntegration(tx, workspaceId, 'hubspot'));
  if (!row?.sealedTokens) throw new Error('HubSpot is not connected');
  return JSON.parse(createSealer(ctx.encryptionKey).open(row.sealedTokens)) as {
    accessToken: string;
    refreshToken: string;
  };
}

describe('connecting HubSpot', () => {
  it('connects an admin through the consent screen and a state only they can use', async () => {
    const admin = await connectedAdmin();
    const connection = await get<THubspotConnection>(admin.token, '/api/integrations/query/hubspot');
    expect(connection.body).toMatchObject({ reconnectRequired: false, notesEnabled: true });
    expect(connection.body.portal).toBe(ctx.hubspot.state.accessTokenInfo(await accessToken(admin)).hub_domain);
    const me = await get<TMe>(admin.token, '/api/users/query/me');
    expect(me.body.isHubspotConnected).toBe(true);

    // The consent's code and state, replayed by someone else or altered, connect nothing.
    const start = await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/command/connect-hubspot',
      headers: bearer(admin.token),
    });
    const authorize = new URL(start.json<{ url: string }>().url);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost:3999/hubspot-oauth-callback');
    expect(authorize.searchParams.get('scope')?.split(' ')).toContain('crm.lists.read');
    const other = await ctx.registerAdmin();
    const state = authorize.searchParams.get('state') ?? '';
    for (const [token, tried] of [
      [other.token, state],
      [admin.token, `${state.slice(0, -2)}xx`],
    ] as const) {
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/hubspot/integrate',
        headers: bearer(token),
        payload: { code: 'whatever', state: tried },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        'This HubSpot connection link has expired. Connect again from the app.',
      );
    }
    expect((await get<TMe>(other.token, '/api/users/query/me')).body.isHubspotConnected).toBe(false);
  });

  it('binds the consent to the browser that started it: approved in another browser, nothing is connected', async () => {
    const admin = await ctx.registerAdmin();
    const connect = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-hubspot',
        headers: bearer(admin.token),
      });
    const start = await connect();
    expect(String(start.headers['set-cookie'])).toMatch(
      /^warmpath_hubspot_oauth=[\w-]+; Max-Age=900; Path=\/api\/hubspot\/integrate; HttpOnly; SameSite=Lax$/,
    );
    const callback = await submitHubspotConsent(ctx.hubspot, start.json<{ url: string }>().url, { email: admin.email });
    const payload = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') };
    // Even the same user, in a browser that did not start this consent (no nonce, or another flow's).
    for (const cookie of [undefined, nonceCookie(await connect())]) {
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/hubspot/integrate',
        headers: { ...bearer(admin.token), ...(cookie ? { cookie } : {}) },
        payload,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ code: 'VALIDATION_FAILED', message: OTHER_BROWSER_MESSAGES.hubspot });
    }
    expect((await get<TMe>(admin.token, '/api/users/query/me')).body.isHubspotConnected).toBe(false);

    const connected = await ctx.app.inject({
      method: 'POST',
      url: '/api/hubspot/integrate',
      headers: { ...bearer(admin.token), cookie: nonceCookie(start) },
      payload,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    // The card says which portal was connected.
    expect(connected.json<THubspotConnection>().portal).toBe(
      ctx.hubspot.state.accessTokenInfo(await accessToken(admin)).hub_domain,
    );
  });

  it('is off outside local mode without HubSpot credentials: connecting says so', async () => {
    const admin = await ctx.registerAdmin();
    const { app } = await ctx.appWith({ env: { LOCAL_MODE: 'false' } });
    try {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/integrations/command/connect-hubspot',
        headers: bearer(admin.token),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        'HubSpot is not set up on this server: its operator sets HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.',
      );
    } finally {
      await app.close();
    }
  });

  it('lets only admins connect, list and choose; members and viewers are refused', async () => {
    const admin = await connectedAdmin();
    for (const role of ['member', 'viewer'] as const) {
      const user = await ctx.addUser(admin.me.workspaceId, role, admin.domain);
      for (const [method, url] of [
        ['POST', '/api/integrations/command/connect-hubspot'],
        ['GET', '/api/workspace/query/get-hubspot-lists-options'],
        ['GET', '/api/hubspot/query?listIds=1'],
        ['POST', '/api/integrations/command/sync-hubspot'],
        ['DELETE', '/api/workspace/command/delete-hubspot-token'],
      ] as const) {
        const answer = await ctx.app.inject({ method, url, headers: bearer(user.token) });
        expect(answer.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
  });

  it('refreshes a dead access token, and marks the card Reconnect once HubSpot refuses the grant', async () => {
    const admin = await connectedAdmin();
    ctx.hubspot.state.expireAccessTokens(admin.email);
    const lists = await get<TCrmListOption[]>(admin.token, '/api/workspace/query/get-hubspot-lists-options');
    expect(lists.status).toBe(200);

    ctx.hubspot.state.revokeRefreshToken((await sealedTokens(admin.me.workspaceId)).refreshToken);
    ctx.hubspot.state.expireAccessTokens(admin.email);
    const refused = await get<{ code: string }>(admin.token, '/api/workspace/query/get-hubspot-lists-options');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CONNECTION_REVOKED');
    const connection = await get<THubspotConnection>(admin.token, '/api/integrations/query/hubspot');
    expect(connection.body.reconnectRequired).toBe(true);
  });
});

describe('CRM customers and exclusions from HubSpot lists', () => {
  it('searches the company lists, syncs the chosen ones, and keeps their companies out of the network until they leave', async () => {
    const admin = await connectedAdmin();
    const ws = admin.me.workspaceId;
    const options = await get<TCrmListOption[]>(
      admin.token,
      '/api/workspace/query/get-hubspot-lists-options?searchTerm=customers',
    );
    const customersList = options.body.find((list) => list.name === 'Customers – closed won');
    expect(customersList).toBeDefined();
    // Contact lists are not company lists: never offered.
    const all = await get<TCrmListOption[]>(admin.token, '/api/workspace/query/get-hubspot-lists-options');
    const { portal, list, domainOf } = portalList(admin.email, 'Customers – closed won');
    expect(all.body.length).toBe(portal.lists.filter((candidate) => candidate.objectTypeId === '0-2').length);

    // Someone we met at a customer, and someone at a company of no list.
    const customerId = [...list.members.keys()].find((id) => domainOf(id) && !domainOf(id).startsWith('www.'));
    if (customerId === undefined) throw new Error('no customer with a domain');
    const customerDomain = domainOf(customerId);
    const otherDomain = ctx.uniqueDomain();
    const customerPerson = `buyer@${customerDomain}`;
    const otherPerson = `buyer@${otherDomain}`;
    await ctx.database.inWorkspace(ws, async (tx) => {
      await upsertPeopleByEmail(tx, ws, [
        { email: customerPerson, name: 'Cass Customer' },
        { email: otherPerson, name: 'Olly Other' },
      ]);
      await recordInteractions(tx, ws, admin.me.id, [
        {
          kind: 'meeting',
          externalId: `m-${randomUUID()}`,
          occurredAt: new Date(Date.now() - 86_400_000),
          participants: [admin.email, customerPerson, otherPerson].map((email) => ({
            email,
            name: null,
            role: 'attendee' as const,
          })),
        },
      ]);
    });
    await recomputeDirty(ctx.database, ws);
    expect(await prospectsAt(ws, customerDomain)).toBe(1);

    expect((await chooseLists(admin, { customers: [String(list.listId)] })).statusCode).toBe(200);
    await runQueuedSync(ws);
    await recomputeDirty(ctx.database, ws);
    expect(await prospectsAt(ws, customerDomain)).toBe(0);
    expect(await prospectsAt(ws, otherDomain)).toBe(1);
    const workspace = await get<TWorkspace>(admin.token, '/api/workspace/query');
    expect(workspace.body.activeCrmClientExclusionLists).toEqual([String(list.listId)]);
    const companies = await get<TCrmListCompaniesPage>(
      admin.token,
      `/api/hubspot/query?listIds=${list.listId}&pageSize=100&searchTerm=${encodeURIComponent(customerDomain)}`,
    );
    expect(companies.body.rows).toEqual([
      { id: String(customerId), companyName: expect.any(String), companyDomain: customerDomain },
    ]);
    const connection = await get<THubspotConnection>(admin.token, '/api/integrations/query/hubspot');
    expect(connection.body.sync).toMatchObject({
      status: 'succeeded',
      counts: { lists: 1, companies: list.members.size },
    });

    // The company leaves the list in HubSpot: at the next refresh its people are prospects again.
    portal.changeMembership(list, [], [customerId]);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/command/sync-hubspot',
      headers: bearer(admin.token),
    });
    await runQueuedSync(ws);
    await recomputeDirty(ctx.database, ws);
    expect(await prospectsAt(ws, customerDomain)).toBe(1);

    // Another workspace sees none of it, whatever it asks for.
    const stranger = await ctx.registerAdmin();
    expect((await get(stranger.token, '/api/workspace/query/get-hubspot-lists-options')).status).toBe(404);
    const foreign = await get<TCrmListCompaniesPage>(stranger.token, `/api/hubspot/query?listIds=${list.listId}`);
    expect(foreign.body.pagination.totalCount).toBe(0);
  });

  it('syncs a 20,000-company list across every page of its memberships, and forgets it all on disconnect', async () => {
    const admin = await connectedAdmin();
    const ws = admin.me.workspaceId;
    const { list } = portalList(admin.email, 'All companies (import)');
    expect(list.members.size).toBe(20_000);
    await chooseLists(admin, { exclusions: [String(list.listId)] });
    // Twice throttled on the way: the sync waits HubSpot's Retry-After out and goes on.
    ctx.hubspot.state.rateLimit(2, 1);
    await runQueuedSync(ws);
    const connection = await get<THubspotConnection>(admin.token, '/api/integrations/query/hubspot');
    expect(connection.body.sync).toMatchObject({ status: 'succeeded', counts: { companies: 20_000 } });
    // 250 members a page, 100 companies a read, and the two throttled calls again.
    expect(connection.body.sync?.counts?.calls).toBeGreaterThanOrEqual(80 + 200 + 2);
    expect(connection.body.sync?.counts?.calls).toBeLessThanOrEqual(81 + 200 + 2);
    const page = await get<TCrmListCompaniesPage>(admin.token, `/api/hubspot/query?listIds=${list.listId}&pageSize=50`);
    expect(page.body.pagination.totalCount).toBe(20_000);
    // The next refresh reads the memberships only: companies read within the day are kept.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/command/sync-hubspot',
      headers: bearer(admin.token),
    });
    await runQueuedSync(ws);
    const refreshed = await get<THubspotConnection>(admin.token, '/api/integrations/query/hubspot');
    expect(refreshed.body.sync?.counts).toMatchObject({ companies: 20_000, added: 0, removed: 0 });
    expect(refreshed.body.sync?.counts?.calls).toBeLessThanOrEqual(81);

    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/workspace/command/delete-hubspot-token',
      headers: bearer(admin.token),
    });
    expect(gone.statusCode).toBe(204);
    expect((await get<TMe>(admin.token, '/api/users/query/me')).body.isHubspotConnected).toBe(false);
    const after = await get<TCrmListCompaniesPage>(admin.token, `/api/hubspot/query?listIds=${list.listId}`);
    expect(after.body.pagination.totalCount).toBe(0);
  }, 120_000);
});

describe('notes written back to HubSpot', () => {
  function introRequested(email: string, companyDomain: string): EventData<'intro.requested'> {
    const id = randomUUID();
    return {
      actionId: null,
      prospect: {
        id,
        name: 'Nora Note',
        email,
        title: 'CFO',
        companyName: 'Noted',
        companyDomain,
        url: `http://localhost:3999/network?personId=${id}`,
      },
      connector: { id: randomUUID(), name: 'Grace Hopper', email: 'grace@example.test' },
      requestedBy: { id: randomUUID(), name: 'Ada Admin', email: 'ada@example.test' },
    };
  }
  const record = (ws: string, data: EventData<'intro.requested'>) =>
    ctx.database.inWorkspace(ws, (tx) => createEventRecorder(ctx.jobs).record(tx, ws, 'intro.requested', data));
  const notesOn = (email: string) =>
    ctx.hubspot.state.notes().filter((note) => note.contacts.some((contact) => contact.email === email));

  it('writes an intro as a note on the contact and its company once, even when the worker dies after writing it', async () => {
    const admin = await connectedAdmin();
    const ws = admin.me.workspaceId;
    const { list, domainOf } = portalList(admin.email, 'Q3 target accounts');
    const domain = domainOf(
      [...list.members.keys()].find((id) => domainOf(id) && !domainOf(id).startsWith('www.')) ?? 0,
    );
    const email = `nora-${randomUUID().slice(0, 6)}@${domain}`;
    expect(await record(ws, introRequested(email, domain))).not.toBeNull();

    // The first attempt writes the note, then its worker dies before recording it.
    const crashing = {
      ...deliveryDeps(ctx),
      at: async (step: string) => {
        if (step === 'after-send') throw new Error('killed');
      },
    };
    await expect(deliverPending(ctx, ws, { deps: crashing })).rejects.toThrow('killed');
    expect(notesOn(email)).toHaveLength(1);
    // The retry finds the note it wrote instead of writing a second one.
    await deliverPending(ctx, ws);
    const notes = notesOn(email);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.body).toContain('Ada Admin asked Grace Hopper for a warm introduction to Nora Note.');
    expect(notes[0]?.companies.map((company) => company.domain)).toEqual([domain]);
    const [delivery] = await ctx.database.inWorkspace(ws, (tx) =>
      tx
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.workspaceId, ws), eq(deliveries.destination, 'hubspot'))),
    );
    expect(delivery).toMatchObject({ status: 'delivered', externalId: notes[0]?.id });
  });

  it("honours HubSpot's Retry-After, and writes nothing once notes are turned off", async () => {
    const admin = await connectedAdmin();
    const ws = admin.me.workspaceId;
    const email = `rita-${randomUUID().slice(0, 6)}@example.test`;
    await record(ws, introRequested(email, 'example.test'));
    ctx.hubspot.state.rateLimit(1, 30);
    await deliverPending(ctx, ws);
    const [waiting] = await ctx.database.inWorkspace(ws, (tx) =>
      tx
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.workspaceId, ws), eq(deliveries.destination, 'hubspot'))),
    );
    expect(waiting?.status).toBe('pending');
    expect(waiting?.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(Date.now() + 25_000);
    await deliverPending(ctx, ws, { dueOnly: false });
    expect(notesOn(email)).toHaveLength(1);

    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/integrations/command/set-hubspot-notes',
      headers: bearer(admin.token),
      payload: { notesEnabled: false },
    });
    expect(off.json<THubspotConnection>().notesEnabled).toBe(false);
    expect(await record(ws, introRequested(`later-${email}`, 'example.test'))).toBeNull();
  });
});
