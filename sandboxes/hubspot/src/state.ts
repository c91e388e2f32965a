/**
 * The HubSpot sandbox's memory: OAuth clients, codes, grants and tokens; the portals (one per e-mail
 * domain, generated on first use); and the failures tests ask for (rate limits, revocations, expiry).
 *
 * Methods throw `HubSpotError` with HubSpot's own status codes and bodies; the HTTP layer sends them.
 */
import crypto from 'node:crypto';
import { crmError, expiredMessage, HubSpotError, MISSING_CREDENTIALS, missingScopes, oauthError } from './errors.ts';
import { type CrmObject, hash32, Portal, portalKeyFor } from './portal.ts';

export type HubSpotApp = { clientId: string; clientSecret: string; redirectUris?: string[] };

/**
 * The product's sandbox defaults (apps/server/src/config.ts): the product never imports this package,
 * so the same two strings are written in both places.
 */
export const DEFAULT_CLIENT: HubSpotApp = {
  clientId: 'warmpath-sandbox-client',
  clientSecret: 'warmpath-sandbox-secret',
};

export const APP_ID = 2_718_281;
/** HubSpot's access tokens live 30 minutes; authorization codes 10. */
export const ACCESS_TOKEN_SECONDS = 1800;
export const CODE_SECONDS = 600;
/** The ten-secondly limit of an OAuth app, as its rate-limit headers state it. */
export const RATE_LIMIT_MAX = 110;

/** What HubSpot's install screen says for each scope the sandbox grants. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  oauth: 'Basic OAuth functionality',
  'crm.objects.companies.read': 'View properties and other details about companies',
  'crm.objects.companies.write': 'View properties and create, delete, or make changes to companies',
  'crm.objects.contacts.read': 'View properties and other details about contacts',
  'crm.objects.contacts.write': 'View properties and create, delete, or make changes to contacts',
  'crm.objects.deals.read': 'View properties and other details about deals',
  'crm.objects.deals.write': 'View properties and create, delete, or make changes to deals',
  'crm.lists.read': 'View details about lists of contacts, companies and other records',
  'crm.objects.owners.read': 'View details about users assigned to a CRM record',
  timeline: 'Create, update and delete timeline events on CRM records',
  'crm.objects.users.read': 'View properties and other details about users',
};
export const KNOWN_SCOPES: readonly string[] = Object.keys(SCOPE_DESCRIPTIONS);

export type Grant = {
  email: string;
  portalKey: string;
  hubId: number;
  userId: number;
  clientId: string;
  scopes: string[];
  refreshToken: string;
  revoked: boolean;
};

type PendingCode = {
  clientId: string;
  redirectUri: string;
  email: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
};

export type TokenResponse = { token_type: 'bearer'; access_token: string; refresh_token: string; expires_in: number };

export type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  optionalScopes: string[];
};

export type NoteView = {
  id: string;
  hubId: number;
  portal: string;
  body: string;
  timestamp: string;
  createdAt: string;
  contacts: { id: string; email: string | null }[];
  companies: { id: string; domain: string | null; name: string | null }[];
};

const splitScopes = (value: string | undefined) => (value ?? '').split(/[\s,+]+/).filter(Boolean);

export const userIdFor = (email: string) => 10_000_000 + (hash32(`user:${email}`) % 80_000_000);

export type HubSpotSandboxOptions = {
  /** Where browsers and clients reach the sandbox, e.g. `http://localhost:3004`. */
  publicUrl?: string;
  /** The OAuth apps it accepts; by default the product's sandbox client, any http(s) redirect URI. */
  clients?: HubSpotApp[];
  /** Milliseconds since the epoch; tests move it to expire codes and tokens. */
  clock?: () => number;
};

export class HubSpotSandbox {
  publicUrl: string;
  readonly clock: () => number;
  private readonly clients: Map<string, HubSpotApp>;
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly portals = new Map<string, Portal>();
  private rateLimited: { remaining: number; retryAfterSeconds: number } | null = null;

  constructor(options: HubSpotSandboxOptions = {}) {
    this.publicUrl = (options.publicUrl ?? 'http://localhost:3004').replace(/\/+$/, '');
    this.clock = options.clock ?? Date.now;
    this.clients = new Map((options.clients ?? [DEFAULT_CLIENT]).map((client) => [client.clientId, client]));
  }

  setPublicUrl(url: string): void {
    this.publicUrl = url.replace(/\/+$/, '');
  }

  // ---- OAuth ----

  /** The authorization request checked as HubSpot checks it, or the reason for the error page. */
  checkAuthorizeRequest(params: Record<string, string>): AuthorizeRequest | { problem: string } {
    const client = this.clients.get(params.client_id ?? '');
    if (!client) return { problem: "Authorization failed because this app's client ID is invalid." };
    const redirectUri = params.redirect_uri ?? '';
    if (!redirectUri) return { problem: 'Authorization failed because the redirect URL is missing.' };
    let parsed: URL | null = null;
    try {
      parsed = new URL(redirectUri);
    } catch {
      parsed = null;
    }
    const allowed =
      parsed !== null &&
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      (!client.redirectUris || client.redirectUris.includes(redirectUri));
    if (!allowed) {
      return { problem: "Authorization failed because the redirect URL doesn't match the app's settings." };
    }
    const scopes = splitScopes(params.scope);
    const optionalScopes = splitScopes(params.optional_scope);
    const unknown = [...scopes, ...optionalScopes].filter((scope) => !KNOWN_SCOPES.includes(scope));
    if (unknown.length > 0) {
      return {
        problem: `Authorization failed because some of the requested scopes are invalid: ${unknown.join(', ')}`,
      };
    }
    if (scopes.length === 0) return { problem: 'Authorization failed because no scopes were requested.' };
    return { clientId: client.clientId, redirectUri, scopes, optionalScopes };
  }

  /** The user connected the app: the code carries their e-mail, hence their portal. */
  issueCode(request: AuthorizeRequest, email: string): string {
    const now = this.clock();
    for (const [code, pending] of this.codes) if (pending.expiresAt < now - 3_600_000) this.codes.delete(code);
    const code = crypto.randomUUID();
    const scopes = [...new Set([...request.scopes, ...request.optionalScopes])];
    this.codes.set(code, {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      email,
      scopes,
      expiresAt: now + CODE_SECONDS * 1000,
      used: false,
    });
    this.portalFor(email).signIn(email);
    return code;
  }

  private client(clientId: string | undefined, clientSecret: string | undefined): HubSpotApp {
    const client = clientId ? this.clients.get(clientId) : undefined;
    if (!client) throw oauthError('BAD_CLIENT_ID', 'missing or unknown client id');
    if (clientSecret !== client.clientSecret) throw oauthError('BAD_CLIENT_SECRET', 'missing or invalid client secret');
    return client;
  }

  /** POST /oauth/v1/token with its form fields. */
  token(form: Record<string, string>): TokenResponse {
    const grantType = form.grant_type;
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw oauthError('BAD_GRANT_TYPE', 'missing or unknown grant type');
    }
    const client = this.client(form.client_id, form.client_secret);
    if (grantType === 'refresh_token') {
      const grant = form.refresh_token ? this.refreshTokens.get(form.refresh_token) : undefined;
      if (!grant || grant.revoked || grant.clientId !== client.clientId) {
        throw oauthError('BAD_REFRESH_TOKEN', 'missing or invalid refresh token');
      }
      return this.tokenResponse(grant);
    }
    const pending = form.code ? this.codes.get(form.code) : undefined;
    if (!pending || pending.used || pending.expiresAt <= this.clock() || pending.clientId !== client.clientId) {
      throw oauthError('BAD_AUTH_CODE', 'missing or unknown auth code');
    }
    if (form.redirect_uri !== pending.redirectUri) {
      throw oauthError('BAD_REDIRECT_URI', 'redirect_uri does not match the one of the authorization request');
    }
    pending.used = true;
    const portal = this.portalFor(pending.email);
    const grant: Grant = {
      email: pending.email,
      portalKey: portal.key,
      hubId: portal.hubId,
      userId: userIdFor(pending.email),
      clientId: client.clientId,
      scopes: pending.scopes,
      refreshToken: `na1-${crypto.randomUUID()}`,
      revoked: false,
    };
    this.refreshTokens.set(grant.refreshToken, grant);
    return this.tokenResponse(grant);
  }

  private tokenResponse(grant: Grant): TokenResponse {
    const token = `CO${crypto.randomBytes(96).toString('base64url')}`;
    this.accessTokens.set(token, { grant, expiresAt: this.clock() + ACCESS_TOKEN_SECONDS * 1000 });
    return {
      token_type: 'bearer',
      access_token: token,
      refresh_token: grant.refreshToken,
      expires_in: ACCESS_TOKEN_SECONDS,
    };
  }

  /** GET /oauth/v1/access-tokens/{token}. */
  accessTokenInfo(token: string) {
    const entry = this.accessTokens.get(token);
    if (!entry || entry.grant.revoked) throw crmError(404, 'OBJECT_NOT_FOUND', 'Token not found');
    const remaining = entry.expiresAt - this.clock();
    if (remaining <= 0) throw crmError(404, 'OBJECT_NOT_FOUND', 'Token expired');
    const { grant } = entry;
    return {
      token,
      user: grant.email,
      hub_domain: this.portalFor(grant.email).domain,
      scopes: grant.scopes,
      hub_id: grant.hubId,
      app_id: APP_ID,
      expires_in: Math.floor(remaining / 1000),
      user_id: grant.userId,
      token_type: 'access',
    };
  }

  /** GET /oauth/v1/refresh-tokens/{token}. */
  refreshTokenInfo(token: string) {
    const grant = this.refreshTokens.get(token);
    if (!grant || grant.revoked) throw crmError(404, 'OBJECT_NOT_FOUND', 'Token not found');
    return {
      token,
      user: grant.email,
      hub_domain: this.portalFor(grant.email).domain,
      scopes: grant.scopes,
      hub_id: grant.hubId,
      client_id: grant.clientId,
      user_id: grant.userId,
      token_type: 'refresh',
    };
  }

  /** The app was uninstalled or disconnected: the refresh token and its access tokens stop working. */
  revokeRefreshToken(token: string): boolean {
    const grant = this.refreshTokens.get(token);
    if (!grant) return false;
    grant.revoked = true;
    return true;
  }

  /** Access tokens (all, or one user's) expire now; refresh tokens keep working. */
  expireAccessTokens(email?: string): number {
    const now = this.clock();
    let count = 0;
    for (const entry of this.accessTokens.values()) {
      if ((email && entry.grant.email !== email) || entry.expiresAt <= now) continue;
      entry.expiresAt = now;
      count++;
    }
    return count;
  }

  /** The grant and portal of a CRM call's `Authorization: Bearer` token, or HubSpot's 401. */
  authenticate(authorization: string | undefined): { grant: Grant; portal: Portal } {
    const token = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    const entry = token ? this.accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked) throw crmError(401, 'INVALID_AUTHENTICATION', MISSING_CREDENTIALS);
    const ago = this.clock() - entry.expiresAt;
    if (ago >= 0) throw crmError(401, 'EXPIRED_AUTHENTICATION', expiredMessage(ago));
    return { grant: entry.grant, portal: this.portalFor(entry.grant.email).ready() };
  }

  /** HubSpot's 403 when the grant holds none of the scopes a call accepts. */
  requireScope(grant: Grant, anyOf: readonly string[]): void {
    if (!anyOf.some((scope) => grant.scopes.includes(scope))) throw missingScopes(anyOf);
  }

  // ---- rate limits ----

  /** The next `count` CRM calls answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimit(count: number, retryAfterSeconds: number): void {
    this.rateLimited = { remaining: count, retryAfterSeconds };
  }

  checkRateLimit(): void {
    const limit = this.rateLimited;
    if (!limit || limit.remaining <= 0) return;
    limit.remaining -= 1;
    if (limit.remaining === 0) this.rateLimited = null;
    throw new HubSpotError(
      429,
      {
        status: 'error',
        message: 'You have reached your ten_secondly_rolling limit.',
        errorType: 'RATE_LIMIT',
        correlationId: crypto.randomUUID(),
        policyName: 'TEN_SECONDLY_ROLLING',
      },
      {
        'x-hubspot-ratelimit-max': String(RATE_LIMIT_MAX),
        'x-hubspot-ratelimit-remaining': '0',
        'x-hubspot-ratelimit-interval-milliseconds': '10000',
        'retry-after': String(limit.retryAfterSeconds),
      },
    );
  }

  // ---- portals ----

  /** The portal of an e-mail address (not generated until `ready()`). */
  portalFor(email: string): Portal {
    const key = portalKeyFor(email.trim().toLowerCase());
    let portal = this.portals.get(key);
    if (!portal) {
      portal = new Portal(key, this.clock);
      this.portals.set(key, portal);
    }
    return portal;
  }

  /** Portals someone signed in to, in order of first sign-in. */
  knownPortals(): Portal[] {
    return [...this.portals.values()];
  }

  /** Notes written, oldest first, with the e-mail and domain of what they are attached to. */
  notes(portal?: Portal): NoteView[] {
    const views: NoteView[] = [];
    for (const owner of portal ? [portal] : this.portals.values()) {
      for (const note of owner.objects.notes.values()) views.push(noteView(owner, note));
    }
    return views.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  reset(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.portals.clear();
    this.rateLimited = null;
  }
}

function noteView(portal: Portal, note: CrmObject): NoteView {
  return {
    id: String(note.id),
    hubId: portal.hubId,
    portal: portal.name,
    body: note.properties.hs_note_body ?? '',
    timestamp: note.properties.hs_timestamp ?? '',
    createdAt: new Date(note.createdAt).toISOString(),
    contacts: (note.associations.contacts ?? []).map((id) => ({
      id: String(id),
      email: portal.objects.contacts.get(id)?.properties.email ?? null,
    })),
    companies: (note.associations.companies ?? []).map((id) => {
      const company = portal.objects.companies.get(id);
      return { id: String(id), domain: company?.properties.domain ?? null, name: company?.properties.name ?? null };
    }),
  };
}
