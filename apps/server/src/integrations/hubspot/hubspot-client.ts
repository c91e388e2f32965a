/**
 * The product's thin HubSpot client: HubSpot's official `@hubspot/api-client` with only its base URL
 * taken from configuration, so the same code talks to HubSpot and to the HubSpot sandbox
 * (sandboxes/hubspot).
 *
 * The library's own retries are off: it would sleep inside a worker on a 429. Every failure is thrown
 * as a `HubspotCallError` whose `failure` tells the caller what to do:
 * - `rate_limited`: try again after `retryAfterSeconds` (`withRetries` waits it out for short reads;
 *   the outbox reschedules);
 * - `revoked`: the grant is gone (bad refresh token, uninstalled app, missing scope): connect again;
 * - `expired`: the access token is past its life: refresh it and try again;
 * - `other`: anything else (network, 5xx, validation), worth a later retry.
 */
import { Client } from '@hubspot/api-client';
import type { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/contacts/index.js';
import type { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/notes/index.js';

// The library's string enums, by value: importing them at run time would load its whole codegen index.
const EQ = 'EQ' as FilterOperatorEnum;
const CONTAINS_TOKEN = 'CONTAINS_TOKEN' as FilterOperatorEnum;
const HUBSPOT_DEFINED = 'HUBSPOT_DEFINED' as AssociationSpecAssociationCategoryEnum;

/** The spec's scopes: company, contact and deal read/write, lists read, owners read, timeline, users read. */
export const HUBSPOT_SCOPES = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'crm.lists.read',
  'crm.objects.owners.read',
  'timeline',
  'crm.objects.users.read',
] as const;

/** HubSpot-defined association types (v4 ids), as its docs list them. */
const NOTE_TO_CONTACT = 202;
const NOTE_TO_COMPANY = 190;
/** Company lists are lists of object type 0-2. */
const COMPANY_OBJECT_TYPE = '0-2';
/** The largest pages HubSpot serves: memberships 250, batch reads 100. */
export const MEMBERSHIP_PAGE = 250;
export const BATCH_READ = 100;
const DEFAULT_RETRY_AFTER_SECONDS = 10;

export type HubspotFailure =
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'revoked'; status: number; message: string }
  | { kind: 'expired' }
  | { kind: 'other'; status: number; message: string };

export class HubspotCallError extends Error {
  constructor(
    readonly call: string,
    readonly failure: HubspotFailure,
    options?: ErrorOptions,
  ) {
    super(`HubSpot ${call} failed: ${failure.kind}${'message' in failure ? ` (${failure.message})` : ''}`, options);
    this.name = 'HubspotCallError';
  }
}

type ErrorLike = { code?: unknown; body?: unknown; headers?: unknown };

/** Sorts what the library throws (its `ApiException`: status `code`, `body`, `headers`). */
export function classifyHubspotError(error: unknown): HubspotFailure {
  const { code, body, headers } = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const status = typeof code === 'number' ? code : 0;
  const parsed = typeof body === 'string' ? safeJson(body) : body;
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const message = typeof fields.message === 'string' ? fields.message : error instanceof Error ? error.message : '';
  if (status === 429) {
    const retryAfter = Number(headerOf(headers, 'retry-after'));
    return {
      kind: 'rate_limited',
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : DEFAULT_RETRY_AFTER_SECONDS,
    };
  }
  if (status === 401 && fields.category === 'EXPIRED_AUTHENTICATION') return { kind: 'expired' };
  // A refused refresh token (BAD_REFRESH_TOKEN), an unknown one, or a token without the scope we need.
  if (status === 401 || status === 403 || (status === 400 && fields.status === 'BAD_REFRESH_TOKEN')) {
    return { kind: 'revoked', status, message };
  }
  return { kind: 'other', status, message: message || 'no answer' };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

export type HubspotTokens = { accessToken: string; refreshToken: string; expiresAt: number };
export type HubspotPortal = { hubId: number; hubDomain: string; user: string };
export type HubspotList = { id: string; name: string; size: number };
export type HubspotCompany = { id: string; name: string; domain: string | null };
export type HubspotNote = { body: string; timestamp: Date; contactId: string; companyId: string | null };

export type HubspotClientOptions = {
  clientId: string;
  clientSecret: string;
  /** HubSpot's API origin (`https://api.hubapi.com`) or the sandbox's. */
  apiUrl: string;
  /** HubSpot's consent screen (`https://app.hubspot.com/oauth/authorize`) or the sandbox's. */
  authorizeUrl: string;
  /** Calls per second from this process (HUBSPOT_CALLS_PER_SECOND): HubSpot allows an app 110 per 10 s per portal. */
  callsPerSecond: number;
};

export type HubspotClient = ReturnType<typeof createHubspotClient>;

export function createHubspotClient(options: HubspotClientOptions) {
  const basePath = options.apiUrl.replace(/\/+$/, '');
  const client = (accessToken?: string) =>
    new Client({ basePath, numberOfApiCallRetries: 0, ...(accessToken ? { accessToken } : {}) });
  // Calls are spaced evenly, whoever makes them (the library's limiter lives in each Client, and a
  // Client is made per token): a 20,000-company sync then stays inside HubSpot's limit instead of
  // meeting its 429s.
  const spacingMs = 1000 / options.callsPerSecond;
  let nextSlot = 0;
  const slot = async () => {
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + spacingMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
  const call = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    await slot();
    try {
      return await run();
    } catch (error) {
      throw new HubspotCallError(name, classifyHubspotError(error), { cause: error });
    }
  };
  const tokensFrom = (answer: { accessToken: string; refreshToken: string; expiresIn: number }): HubspotTokens => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: Date.now() + answer.expiresIn * 1000,
  });

  return {
    authorizeUrl({ state, redirectUri }: { state: string; redirectUri: string }) {
      const url = new URL(options.authorizeUrl);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('scope', HUBSPOT_SCOPES.join(' '));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },

    exchangeCode: (code: string, redirectUri: string) =>
      call('oauth token (code)', async () =>
        tokensFrom(
          await client().oauth.tokensApi.create(
            'authorization_code',
            code,
            redirectUri,
            options.clientId,
            options.clientSecret,
          ),
        ),
      ),

    refresh: (refreshToken: string) =>
      call('oauth token (refresh)', async () =>
        tokensFrom(
          await client().oauth.tokensApi.create(
            'refresh_token',
            undefined,
            undefined,
            options.clientId,
            options.clientSecret,
            refreshToken,
          ),
        ),
      ),

    portalOf: (accessToken: string) =>
      call('access token info', async (): Promise<HubspotPortal> => {
        const info = await client().oauth.accessTokensApi.get(accessToken);
        return { hubId: info.hubId, hubDomain: info.hubDomain ?? String(info.hubId), user: info.user ?? '' };
      }),

    revoke: (refreshToken: string) =>
      call('revoke', async () => {
        await client().oauth.refreshTokensApi.archive(refreshToken);
      }),

    /** One page of the portal's company lists whose name contains `query`. */
    searchCompanyLists: (accessToken: string, query: string, offset = 0, count = 100) =>
      call('lists search', async () => {
        const answer = await client(accessToken).crm.lists.listsApi.doSearch({
          query,
          offset,
          count,
          additionalProperties: ['hs_list_size'],
        });
        const lists: HubspotList[] = answer.lists
          .filter((list) => list.objectTypeId === COMPANY_OBJECT_TYPE)
          .map((list) => ({
            id: list.listId,
            name: list.name,
            size: Number(list.additionalProperties?.hs_list_size ?? 0),
          }));
        return { lists, hasMore: answer.hasMore, offset: answer.offset, total: answer.total };
      }),

    /** One page of a list's members (company ids), and the cursor of the next. */
    listMembers: (accessToken: string, listId: string, after?: string) =>
      call('list memberships', async () => {
        const answer = await client(accessToken).crm.lists.membershipsApi.getPage(
          listId,
          after,
          undefined,
          MEMBERSHIP_PAGE,
        );
        return {
          ids: answer.results.map((member) => member.recordId),
          after: answer.paging?.next?.after ?? null,
        };
      }),

    /** Up to 100 companies by id, with their name and domain; ids HubSpot no longer has are left out. */
    readCompanies: (accessToken: string, ids: string[]) =>
      call('companies batch read', async (): Promise<HubspotCompany[]> => {
        const answer = await client(accessToken).crm.companies.batchApi.read({
          inputs: ids.map((id) => ({ id })),
          properties: ['name', 'domain'],
          propertiesWithHistory: [],
        });
        return answer.results.map((company) => ({
          id: company.id,
          name: company.properties.name ?? '',
          domain: company.properties.domain || null,
        }));
      }),

    /** The contact with this e-mail, created when the portal has none. */
    contactFor: (accessToken: string, person: { email: string; firstName: string; lastName: string }) =>
      call('contact by e-mail', async () => {
        const api = client(accessToken).crm.contacts;
        const found = await api.searchApi.doSearch({
          filterGroups: [{ filters: [{ propertyName: 'email', operator: EQ, value: person.email }] }],
          properties: ['email'],
          limit: 1,
          after: '0',
          sorts: [],
        });
        const existing = found.results[0];
        if (existing) return existing.id;
        try {
          const created = await api.basicApi.create({
            properties: { email: person.email, firstname: person.firstName, lastname: person.lastName },
            associations: [],
          });
          return created.id;
        } catch (error) {
          // Created meanwhile (search lags writes): HubSpot names the existing contact in its 409.
          const existingId = /Existing ID: (\d+)/.exec(String((error as ErrorLike).body ?? ''))?.[1];
          if ((error as ErrorLike).code === 409 && existingId) return existingId;
          throw error;
        }
      }),

    /** The company with this domain, or null. */
    companyByDomain: (accessToken: string, domain: string) =>
      call('company by domain', async () => {
        const found = await client(accessToken).crm.companies.searchApi.doSearch({
          filterGroups: [{ filters: [{ propertyName: 'domain', operator: EQ, value: domain }] }],
          properties: ['domain'],
          limit: 1,
          after: '0',
          sorts: [],
        });
        return found.results[0]?.id ?? null;
      }),

    /** The note whose body carries `token`, if one was written (a retry after a crash). */
    findNote: (accessToken: string, token: string) =>
      call('note search', async () => {
        const found = await client(accessToken).crm.objects.notes.searchApi.doSearch({
          filterGroups: [{ filters: [{ propertyName: 'hs_note_body', operator: CONTAINS_TOKEN, value: token }] }],
          properties: ['hs_note_body'],
          limit: 1,
          after: '0',
          sorts: [],
        });
        return found.results[0]?.id ?? null;
      }),

    writeNote: (accessToken: string, note: HubspotNote) =>
      call('note create', async () => {
        const association = (id: string, typeId: number) => ({
          to: { id },
          types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: typeId }],
        });
        const created = await client(accessToken).crm.objects.notes.basicApi.create({
          properties: { hs_timestamp: note.timestamp.toISOString(), hs_note_body: note.body },
          associations: [
            association(note.contactId, NOTE_TO_CONTACT),
            ...(note.companyId ? [association(note.companyId, NOTE_TO_COMPANY)] : []),
          ],
        });
        return created.id;
      }),
  };
}
