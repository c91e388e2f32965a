/**
 * The sandbox driven by HubSpot's official client (`@hubspot/api-client` v13) with only `basePath`
 * changed and no retries, as the product uses it: if its answers satisfy the client, the shapes are
 * HubSpot's.
 */
import { Client } from '@hubspot/api-client';
import { FilterOperatorEnum as CompanyOperator } from '@hubspot/api-client/lib/codegen/crm/companies/index.js';
import { FilterOperatorEnum as ContactOperator } from '@hubspot/api-client/lib/codegen/crm/contacts/index.js';
import {
  AssociationSpecAssociationCategoryEnum,
  FilterOperatorEnum as NoteOperator,
} from '@hubspot/api-client/lib/codegen/crm/objects/notes/index.js';
import { generateWorld } from '@warmpath/sandbox-google';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSED_WON_LIST_NAME, DO_NOT_CONTACT_LIST_NAME, IMPORT_LIST_NAME, IMPORT_LIST_SIZE } from './portal.ts';
import { listenHubSpotSandbox, type RunningHubSpotSandbox } from './server.ts';
import { ACCESS_TOKEN_SECONDS, DEFAULT_CLIENT, KNOWN_SCOPES, type TokenResponse } from './state.ts';
import { authorizeUrlFor, connect, consentFormFields, submitConsent } from './testing.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/hubspot-oauth-callback';
/** The product's request: company, contact and deal read/write, lists, owners, timeline, users. */
const SCOPES = KNOWN_SCOPES.filter((scope) => scope !== 'oauth');
const EMAIL = 'ada.lovelace@acme-analytics.com';

let running: RunningHubSpotSandbox;
let token: TokenResponse;

beforeAll(async () => {
  running = await listenHubSpotSandbox();
  token = await connect(running, EMAIL);
});
afterAll(() => running.close());

const client = (accessToken?: string) =>
  new Client({ basePath: running.url, numberOfApiCallRetries: 0, ...(accessToken ? { accessToken } : {}) });
const hubspot = () => client(token.access_token);

async function rejection(
  promise: Promise<unknown>,
): Promise<{ code: number; body: unknown; headers: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; body: unknown; headers: Record<string, string> };
  }
  throw new Error('expected a rejection');
}

async function control(path: string, body: unknown = {}) {
  const answer = await fetch(`${running.url}/_control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return answer.json();
}

type PortalJson = {
  hubId: number;
  name: string;
  lists: { listId: string; name: string; objectTypeId: string; size: number }[];
};
const portal = async (email = EMAIL) =>
  (await (await fetch(`${running.url}/_control/portal?email=${encodeURIComponent(email)}`)).json()) as PortalJson;
const listId = async (name: string) => (await portal()).lists.find((list) => list.name === name)?.listId ?? '';

async function allMembers(listIdValue: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  do {
    const page = await hubspot().crm.lists.membershipsApi.getPage(listIdValue, after, undefined, 250);
    ids.push(...page.results.map((result) => result.recordId));
    after = page.paging?.next?.after;
  } while (after);
  return ids;
}

describe('connect screen', () => {
  it('asks for the e-mail, names the scopes and the buttons, and keeps the request in the form', async () => {
    const page = await fetch(authorizeUrlFor(running, { redirectUri: REDIRECT_URI, state: 'st-1', scopes: SCOPES }));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Sign in to HubSpot</h1>');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('>Connect app</button>');
    expect(html).toContain('>Cancel</button>');
    expect(html).toContain('View details about lists of contacts, companies and other records');
    const fields = consentFormFields(html);
    expect(fields.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(fields.get('state')).toBe('st-1');
    expect(fields.get('scope')).toBe(SCOPES.join(' '));
  });

  it('redirects back with a code and the state, or with access_denied on Cancel', async () => {
    const url = authorizeUrlFor(running, { redirectUri: REDIRECT_URI, state: 'st-2' });
    const back = await submitConsent(running, url, { email: 'grace@acme-analytics.com' });
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-2');
    expect(back.searchParams.get('code')).toMatch(/^[0-9a-f-]{36}$/);

    const cancelled = await submitConsent(running, url, { email: 'grace@acme-analytics.com', decision: 'cancel' });
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.searchParams.get('state')).toBe('st-2');
    expect(cancelled.searchParams.has('code')).toBe(false);
  });

  it('shows the account of the e-mail again with an error when the e-mail is not one', async () => {
    const form = consentFormFields(await (await fetch(authorizeUrlFor(running))).text());
    form.set('email', 'not-an-email');
    form.set('decision', 'allow');
    const answer = await fetch(`${running.url}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('Enter a valid email address.');
  });

  it('answers an error page for an unknown client, no redirect URI, or a scope HubSpot does not grant', async () => {
    const base = new URL(authorizeUrlFor(running));
    const variants: [string, string | null][] = [
      ['client_id', 'nobody'],
      ['redirect_uri', null],
      ['redirect_uri', 'javascript:alert(1)'],
      ['scope', 'crm.objects.companies.read crm.schemas.custom.write'],
      ['optional_scope', 'automation'],
    ];
    for (const [name, value] of variants) {
      const url = new URL(base);
      if (value === null) url.searchParams.delete(name);
      else url.searchParams.set(name, value);
      const page = await fetch(url);
      expect(page.status, `${name}=${value}`).toBe(400);
      expect(await page.text()).toContain("Couldn't complete the connection");
    }
  });
});

describe('OAuth tokens', () => {
  it('exchanges a code for tokens, describes the access token and refreshes it', async () => {
    const back = await submitConsent(running, authorizeUrlFor(running, { redirectUri: REDIRECT_URI }), {
      email: EMAIL,
    });
    const code = back.searchParams.get('code') ?? '';
    const oauth = client().oauth;
    const tokens = await oauth.tokensApi.create(
      'authorization_code',
      code,
      REDIRECT_URI,
      DEFAULT_CLIENT.clientId,
      DEFAULT_CLIENT.clientSecret,
    );
    expect(tokens).toMatchObject({ tokenType: 'bearer', expiresIn: ACCESS_TOKEN_SECONDS });
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.refreshToken).toMatch(/^na1-/);

    const info = await oauth.accessTokensApi.get(tokens.accessToken);
    const described = await portal();
    expect(info).toMatchObject({
      token: tokens.accessToken,
      user: EMAIL,
      hubDomain: 'acme-analytics.com',
      hubId: described.hubId,
      tokenType: 'access',
      scopes: KNOWN_SCOPES,
    });
    expect(info.expiresIn).toBeGreaterThan(ACCESS_TOKEN_SECONDS - 5);
    expect(described.name).toBe('Acme Analytics');

    const refreshed = await oauth.tokensApi.create(
      'refresh_token',
      undefined,
      undefined,
      DEFAULT_CLIENT.clientId,
      DEFAULT_CLIENT.clientSecret,
      tokens.refreshToken,
    );
    expect(refreshed.refreshToken).toBe(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    const lists = await client(refreshed.accessToken).crm.lists.listsApi.doSearch({ query: 'partners' });
    expect(lists.lists.map((list) => list.name)).toEqual(['Partners']);
  });

  it('refuses a tampered code, a reused one, a wrong secret and another redirect URI, as HubSpot words it', async () => {
    const back = await submitConsent(running, authorizeUrlFor(running, { redirectUri: REDIRECT_URI }), {
      email: EMAIL,
    });
    const code = back.searchParams.get('code') ?? '';
    const exchange = (fields: Record<string, string>) =>
      fetch(`${running.url}/oauth/v1/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: DEFAULT_CLIENT.clientId,
          client_secret: DEFAULT_CLIENT.clientSecret,
          redirect_uri: REDIRECT_URI,
          code,
          ...fields,
        }),
      });
    const refused = async (fields: Record<string, string>) => {
      const answer = await exchange(fields);
      expect(answer.status).toBe(400);
      return ((await answer.json()) as { status: string }).status;
    };
    // Another last character: writing '0' over a code that already ends in '0' tampers nothing (a full
    // test run failed on such a code).
    const tampered = `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`;
    expect(await refused({ code: tampered })).toBe('BAD_AUTH_CODE');
    expect(await refused({ client_secret: 'guess' })).toBe('BAD_CLIENT_SECRET');
    expect(await refused({ client_id: 'someone-else' })).toBe('BAD_CLIENT_ID');
    expect(await refused({ redirect_uri: 'http://127.0.0.1:9/elsewhere' })).toBe('BAD_REDIRECT_URI');
    expect((await exchange({})).status).toBe(200);

    const reused = await rejection(
      client().oauth.tokensApi.create(
        'authorization_code',
        code,
        REDIRECT_URI,
        DEFAULT_CLIENT.clientId,
        DEFAULT_CLIENT.clientSecret,
      ),
    );
    expect(reused).toMatchObject({ code: 400, body: { message: 'missing or unknown auth code' } });
  });

  it('a revoked refresh token refreshes no more and its access tokens answer 401', async () => {
    const revoked = await connect(running, 'revoked@acme-analytics.com');
    await control('revoke', { refreshToken: revoked.refresh_token });
    const refresh = await rejection(
      client().oauth.tokensApi.create(
        'refresh_token',
        undefined,
        undefined,
        DEFAULT_CLIENT.clientId,
        DEFAULT_CLIENT.clientSecret,
        revoked.refresh_token,
      ),
    );
    expect(refresh).toMatchObject({ code: 400, body: { message: 'missing or invalid refresh token' } });
    const call = await rejection(client(revoked.access_token).crm.lists.listsApi.doSearch({}));
    expect(call).toMatchObject({ code: 401, body: { category: 'INVALID_AUTHENTICATION' } });
    expect(await rejection(client().oauth.accessTokensApi.get(revoked.access_token))).toMatchObject({ code: 404 });

    const uninstalled = await connect(running, 'uninstalled@acme-analytics.com');
    await client().oauth.refreshTokensApi.archive(uninstalled.refresh_token);
    const after = await rejection(client(uninstalled.access_token).crm.lists.listsApi.doSearch({}));
    expect(after).toMatchObject({ code: 401 });
  });

  it('answers 401 without a token, EXPIRED_AUTHENTICATION once expired, 403 without the scope', async () => {
    const anonymous = await rejection(client().crm.lists.listsApi.doSearch({}));
    expect(anonymous).toMatchObject({ code: 401, body: { category: 'INVALID_AUTHENTICATION' } });
    expect((anonymous.body as { message: string }).message).toMatch(/^Authentication credentials not found\./);

    const expiring = await connect(running, 'expiring@acme-analytics.com');
    await control('expire-access-tokens', { email: 'expiring@acme-analytics.com' });
    const expired = await rejection(client(expiring.access_token).crm.lists.listsApi.doSearch({}));
    expect(expired).toMatchObject({ code: 401, body: { category: 'EXPIRED_AUTHENTICATION' } });
    expect((expired.body as { message: string }).message).toMatch(/^The OAuth token used to make this call expired/);

    const narrow = await connect(running, 'narrow@acme-analytics.com', { scopes: ['crm.objects.companies.read'] });
    const forbidden = await rejection(client(narrow.access_token).crm.lists.listsApi.doSearch({}));
    expect(forbidden).toMatchObject({ code: 403, body: { category: 'MISSING_SCOPES' } });
  });
});

describe('lists', () => {
  it('searches lists by part of the name, any case, with their sizes', async () => {
    const found = await hubspot().crm.lists.listsApi.doSearch({ query: 'CLOSED WON' });
    expect(found.total).toBe(1);
    expect(found.hasMore).toBe(false);
    const [list] = found.lists;
    expect(list).toMatchObject({
      name: CLOSED_WON_LIST_NAME,
      objectTypeId: '0-2',
      processingType: 'DYNAMIC',
      processingStatus: 'COMPLETE',
      listId: expect.stringMatching(/^\d+$/),
    });
    expect(list?.createdAt).toBeInstanceOf(Date);
    expect(Number(list?.additionalProperties.hs_list_size)).toBeGreaterThan(0);
    expect(list?.additionalProperties.hs_list_reference_count).toBe('0');

    const all = await hubspot().crm.lists.listsApi.doSearch({ count: 5 });
    expect(all.lists).toHaveLength(5);
    expect(all).toMatchObject({ offset: 5, hasMore: true });
    expect(all.total).toBeGreaterThanOrEqual(12);
    const rest = await hubspot().crm.lists.listsApi.doSearch({ count: 500, offset: all.offset });
    expect(rest.lists).toHaveLength(all.total - 5);
    const sizes = [...all.lists, ...rest.lists].map((item) => Number(item.additionalProperties.hs_list_size));
    expect(sizes).toContain(IMPORT_LIST_SIZE);
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(5);

    const fetched = await hubspot().crm.lists.listsApi.getById(list?.listId ?? '');
    expect(fetched.list).toMatchObject({ listId: list?.listId, name: CLOSED_WON_LIST_NAME });
  });

  it(`pages the ${IMPORT_LIST_SIZE.toLocaleString('en')} members of the import list with after cursors`, async () => {
    const id = await listId(IMPORT_LIST_NAME);
    const first = await hubspot().crm.lists.membershipsApi.getPage(id, undefined, undefined, 250);
    expect(first.total).toBe(IMPORT_LIST_SIZE);
    expect(first.results[0]?.membershipTimestamp).toBeInstanceOf(Date);
    expect(first.paging?.next?.link).toContain(`/crm/v3/lists/${id}/memberships?after=`);
    const ids = await allMembers(id);
    expect(ids).toHaveLength(IMPORT_LIST_SIZE);
    expect(new Set(ids).size).toBe(IMPORT_LIST_SIZE);
    const numbers = ids.map(Number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

    const tooMany = await rejection(hubspot().crm.lists.membershipsApi.getPage(id, undefined, undefined, 251));
    expect(tooMany).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
    const unknown = await rejection(hubspot().crm.lists.membershipsApi.getPage('999999'));
    expect(unknown).toMatchObject({ code: 404 });
  });

  it('puts a tenth of the user’s world companies in closed won and a twentieth in do not contact', async () => {
    const world = generateWorld(EMAIL, Date.now()).companies.map((company) => company.domain);
    const domainsOf = async (name: string) => {
      const ids = await allMembers(await listId(name));
      const domains = new Set<string>();
      for (let start = 0; start < ids.length; start += 100) {
        const batch = await hubspot().crm.companies.batchApi.read({
          inputs: ids.slice(start, start + 100).map((id) => ({ id })),
          properties: ['domain'],
          propertiesWithHistory: [],
        });
        for (const company of batch.results) if (company.properties.domain) domains.add(company.properties.domain);
      }
      return world.filter((domain) => domains.has(domain)).length / world.length;
    };
    const closedWon = await domainsOf(CLOSED_WON_LIST_NAME);
    const doNotContact = await domainsOf(DO_NOT_CONTACT_LIST_NAME);
    expect(closedWon).toBeGreaterThan(0.05);
    expect(closedWon).toBeLessThan(0.16);
    expect(doNotContact).toBeGreaterThan(0.02);
    expect(doNotContact).toBeLessThan(0.09);

    const sample = world[7] ?? '';
    const found = await hubspot().crm.companies.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'domain', operator: CompanyOperator.Eq, value: sample.toUpperCase() }] },
      ],
      properties: ['name', 'domain'],
      limit: 10,
    });
    expect(found.results.map((company) => company.properties.domain)).toEqual([sample]);
  });

  it('lets the control move a company out of a list and into another', async () => {
    const id = await listId('Competitors');
    const [member] = await allMembers(id);
    await control('list-membership', { listId: id, remove: [member], email: EMAIL });
    expect(await allMembers(id)).not.toContain(member);
    await control('list-membership', { listId: id, add: [member] });
    expect(await allMembers(id)).toContain(member);
  });
});

describe('companies', () => {
  it('reads 100 companies in one batch, and answers 207 naming the ids it cannot find', async () => {
    const ids = (await allMembers(await listId('Enterprise accounts (1,000+ employees)'))).slice(0, 100);
    const batch = await hubspot().crm.companies.batchApi.read({
      inputs: ids.map((id) => ({ id })),
      properties: ['name', 'domain'],
      propertiesWithHistory: [],
    });
    expect(batch.status).toBe('COMPLETE');
    expect(batch.results.map((company) => company.id).sort()).toEqual([...ids].sort());
    const [company] = batch.results;
    expect(Object.keys(company?.properties ?? {}).sort()).toEqual([
      'createdate',
      'domain',
      'hs_lastmodifieddate',
      'hs_object_id',
      'name',
    ]);
    expect(company?.createdAt).toBeInstanceOf(Date);
    expect(company?.archived).toBe(false);

    const partial = await hubspot().crm.companies.batchApi.read({
      inputs: [{ id: ids[0] ?? '' }, { id: '1' }],
      properties: ['name'],
      propertiesWithHistory: [],
    });
    expect(partial.results).toHaveLength(1);
    expect(partial).toMatchObject({
      numErrors: 1,
      errors: [{ status: 'error', category: 'OBJECT_NOT_FOUND', context: { ids: ['1'] } }],
    });

    const tooMany = await rejection(
      hubspot().crm.companies.batchApi.read({
        inputs: Array.from({ length: 101 }, (_, index) => ({ id: String(index + 1) })),
        properties: [],
        propertiesWithHistory: [],
      }),
    );
    expect(tooMany).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
  });

  it('answers 429 with HubSpot’s headers for the next N calls, then answers normally', async () => {
    await control('rate-limit', { count: 2, retryAfter: 3 });
    const raw = await fetch(`${running.url}/crm/v3/lists/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe('3');
    expect(raw.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    expect(raw.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(await raw.json()).toMatchObject({
      status: 'error',
      message: 'You have reached your ten_secondly_rolling limit.',
      errorType: 'RATE_LIMIT',
      policyName: 'TEN_SECONDLY_ROLLING',
    });
    const limited = await rejection(
      hubspot().crm.companies.batchApi.read({ inputs: [], properties: [], propertiesWithHistory: [] }),
    );
    expect(limited.code).toBe(429);
    expect(limited.headers['retry-after']).toBe('3');
    await hubspot().crm.lists.listsApi.doSearch({});
  });
});

describe('contacts and notes', () => {
  it('creates a contact, finds it by e-mail, and refuses a second one with the same e-mail (409)', async () => {
    const created = await hubspot().crm.contacts.basicApi.create({
      properties: { email: 'Marie.Curie@Radium.example', firstname: 'Marie', lastname: 'Curie' },
      associations: [],
    });
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({ email: 'Marie.Curie@Radium.example', firstname: 'Marie' });

    const found = await hubspot().crm.contacts.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'email', operator: ContactOperator.Eq, value: 'marie.curie@radium.example' }] },
      ],
      properties: ['email', 'firstname'],
      limit: 1,
    });
    expect(found.total).toBe(1);
    expect(found.results[0]?.id).toBe(created.id);

    const duplicate = await rejection(
      hubspot().crm.contacts.basicApi.create({
        properties: { email: 'marie.curie@radium.example', firstname: 'M' },
        associations: [],
      }),
    );
    expect(duplicate).toMatchObject({
      code: 409,
      body: { category: 'CONFLICT', message: `Contact already exists. Existing ID: ${created.id}` },
    });

    const invalid = await rejection(
      hubspot().crm.contacts.basicApi.create({ properties: { email: 'x@y.z', favourite: 'tea' }, associations: [] }),
    );
    expect(invalid).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
  });

  it('writes a note on a contact and a company, shows it, and finds it again by a token of its body', async () => {
    const contact = await hubspot().crm.contacts.basicApi.create({
      properties: { email: 'ada.note@globex.example', firstname: 'Ada', lastname: 'Note' },
      associations: [],
    });
    const companyId = (await allMembers(await listId('Partners')))[0] ?? '';
    const association = (id: string, associationTypeId: number) => ({
      to: { id },
      types: [{ associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId }],
    });
    const body = '<p>Warm intro requested by Ada.</p><p>ref: wp-7f3a9c</p>';
    const note = await hubspot().crm.objects.notes.basicApi.create({
      properties: { hs_timestamp: '2024-05-01T10:00:00.000Z', hs_note_body: body },
      associations: [association(contact.id, 202), association(companyId, 190)],
    });
    expect(note.id).toMatch(/^\d+$/);
    expect(note.properties).toMatchObject({ hs_note_body: body, hs_timestamp: '2024-05-01T10:00:00.000Z' });

    const notes = (await (await fetch(`${running.url}/_control/notes`)).json()) as {
      notes: { id: string; body: string; contacts: { email: string }[]; companies: { id: string; domain: string }[] }[];
    };
    const seen = notes.notes.find((item) => item.id === note.id);
    expect(seen?.contacts).toEqual([{ id: contact.id, email: 'ada.note@globex.example' }]);
    expect(seen?.companies.map((company) => company.id)).toEqual([companyId]);
    const page = await (await fetch(`${running.url}/notes`)).text();
    expect(page).toContain('Warm intro requested by Ada.');
    expect(page).toContain('ada.note@globex.example');

    const search = await hubspot().crm.objects.notes.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'hs_note_body', operator: NoteOperator.ContainsToken, value: 'wp-7f3a9c' }] },
      ],
      properties: ['hs_note_body'],
      limit: 10,
    });
    expect(search.results.map((item) => item.id)).toEqual([note.id]);
    const none = await hubspot().crm.objects.notes.searchApi.doSearch({
      filterGroups: [
        { filters: [{ propertyName: 'hs_note_body', operator: NoteOperator.ContainsToken, value: 'wp-000000' }] },
      ],
      limit: 10,
    });
    expect(none.total).toBe(0);

    const fetched = await hubspot().crm.objects.notes.basicApi.getById(note.id, ['hs_note_body'], undefined, [
      'contacts',
      'companies',
    ]);
    expect(fetched.associations?.contacts?.results.map((item) => item.id)).toEqual([contact.id]);

    const orphan = await rejection(
      hubspot().crm.objects.notes.basicApi.create({
        properties: { hs_timestamp: String(Date.now()), hs_note_body: 'x' },
        associations: [association('123', 202)],
      }),
    );
    expect(orphan).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } });
  });
});

describe('portals', () => {
  it('gives the same e-mail the same account, lists and ids after a reset, and another domain another', async () => {
    const before = await portal();
    const beforeMembers = (await allMembers(await listId('Q3 target accounts'))).slice(0, 20);
    await control('reset');
    const again = await portal();
    const shape = (json: PortalJson) => ({
      hubId: json.hubId,
      name: json.name,
      lists: json.lists.map((list) => [list.listId, list.name, list.objectTypeId]),
    });
    expect(shape(again)).toEqual(shape(before));
    token = await connect(running, EMAIL);
    expect((await allMembers(await listId('Q3 target accounts'))).slice(0, 20)).toEqual(beforeMembers);

    const teammate = await portal('grace@acme-analytics.com');
    expect(teammate.hubId).toBe(before.hubId);
    const other = await portal('bob@globex-industries.com');
    expect(other.hubId).not.toBe(before.hubId);
    expect(other.name).toBe('Globex Industries');
  });
});
