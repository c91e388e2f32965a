/**
 * OAuth 2.0 authorization-code grants, as Google runs them: single-use codes valid 60 s, access
 * tokens valid 3599 s, refresh tokens for offline access, revocation of a whole grant, and OpenID
 * id tokens signed RS256 with a key generated per sandbox (its certificates are served, so
 * `OAuth2Client.verifyIdToken` works when its certificate endpoints point at the sandbox).
 */
import crypto from 'node:crypto';
import { OAuthError } from './errors.ts';

export const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';

export const SCOPES = {
  gmailMetadata: `${SCOPE_PREFIX}gmail.metadata`,
  gmailReadonly: `${SCOPE_PREFIX}gmail.readonly`,
  gmailModify: `${SCOPE_PREFIX}gmail.modify`,
  gmailCompose: `${SCOPE_PREFIX}gmail.compose`,
  gmailSend: `${SCOPE_PREFIX}gmail.send`,
  gmailFull: 'https://mail.google.com/',
  contacts: `${SCOPE_PREFIX}contacts`,
  contactsReadonly: `${SCOPE_PREFIX}contacts.readonly`,
  otherContacts: `${SCOPE_PREFIX}contacts.other.readonly`,
  calendar: `${SCOPE_PREFIX}calendar`,
  calendarReadonly: `${SCOPE_PREFIX}calendar.readonly`,
  calendarEvents: `${SCOPE_PREFIX}calendar.events`,
  calendarEventsReadonly: `${SCOPE_PREFIX}calendar.events.readonly`,
  calendarEventsOwned: `${SCOPE_PREFIX}calendar.events.owned`,
  calendarEventsOwnedReadonly: `${SCOPE_PREFIX}calendar.events.owned.readonly`,
  email: `${SCOPE_PREFIX}userinfo.email`,
  profile: `${SCOPE_PREFIX}userinfo.profile`,
  openid: 'openid',
} as const;

/** What Google's consent screen says for each scope. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [SCOPES.gmailMetadata]: 'View your email message metadata such as labels and headers, but not the email body',
  [SCOPES.gmailReadonly]: 'View your email messages and settings',
  [SCOPES.gmailModify]: 'Read, compose, and send emails from your Gmail account',
  [SCOPES.gmailCompose]: 'Manage drafts and send emails',
  [SCOPES.gmailSend]: 'Send email on your behalf',
  [SCOPES.gmailFull]: 'Read, compose, send, and permanently delete all your email from Gmail',
  [SCOPES.contacts]: 'See, edit, download, and permanently delete your contacts',
  [SCOPES.contactsReadonly]: 'See and download your contacts',
  [SCOPES.otherContacts]: "See and download contact info automatically saved in your 'Other contacts'",
  [SCOPES.calendar]: 'See, edit, share, and permanently delete all the calendars you can access using Google Calendar',
  [SCOPES.calendarReadonly]: 'See and download any calendar you can access using your Google Calendar',
  [SCOPES.calendarEvents]: 'View and edit events on all your calendars',
  [SCOPES.calendarEventsReadonly]: 'View events on all your calendars',
  [SCOPES.calendarEventsOwned]: 'See, create, change, and delete events on Google calendars you own',
  [SCOPES.calendarEventsOwnedReadonly]: 'See the events on Google calendars you own',
  [SCOPES.email]: 'See your primary Google Account email address',
  [SCOPES.profile]: "See your personal info, including any personal info you've made publicly available",
  [SCOPES.openid]: 'Associate you with your personal info on Google',
};

/** Identity scopes are always granted; the others can be unticked on the consent page. */
export const IDENTITY_SCOPES: readonly string[] = [SCOPES.openid, SCOPES.email, SCOPES.profile];

/** `email` and `profile` come back as their full URLs, as Google writes them. */
export function normalizeScopes(scope: string): string[] {
  const scopes: string[] = [];
  for (const raw of scope.split(/[\s,]+/)) {
    if (!raw) continue;
    const full = raw === 'email' ? SCOPES.email : raw === 'profile' ? SCOPES.profile : raw;
    if (!scopes.includes(full)) scopes.push(full);
  }
  return scopes;
}

export function isKnownScope(scope: string): boolean {
  return scope === SCOPES.openid || scope === SCOPES.gmailFull || scope.startsWith(SCOPE_PREFIX);
}

export type Grant = {
  id: string;
  email: string;
  clientId: string;
  scopes: string[];
  refreshToken?: string;
  revoked: boolean;
  createdAt: number;
};

type PendingCode = {
  code: string;
  email: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  offline: boolean;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
  expiresAt: number;
  used: boolean;
};

type AccessToken = { token: string; grant: Grant; expiresAt: number };

export type TokenResponse = {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
  token_type: 'Bearer';
  id_token: string;
};

export const ACCESS_TOKEN_SECONDS = 3599;
export const CODE_SECONDS = 60;

const randomToken = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

export type Authenticated = { email: string; scopes: string[]; clientId: string; expiresAt: number };

export class OAuthServer {
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly grants: Grant[] = [];
  private readonly clock: () => number;
  private readonly clients: Map<string, { secret: string; redirectUris?: string[] }> | null;
  private readonly profileOf: (email: string) => { sub: string; name: string; givenName: string; familyName: string };
  private signingKey: { privateKey: crypto.KeyObject; kid: string; pem: string; jwk: crypto.JsonWebKey } | null = null;

  constructor(options: {
    clock: () => number;
    clients?: { clientId: string; clientSecret: string; redirectUris?: string[] }[];
    profileOf: (email: string) => { sub: string; name: string; givenName: string; familyName: string };
  }) {
    this.clock = options.clock;
    this.profileOf = options.profileOf;
    this.clients = options.clients
      ? new Map(
          options.clients.map((client) => [
            client.clientId,
            { secret: client.clientSecret, redirectUris: client.redirectUris },
          ]),
        )
      : null;
  }

  /** Checks the client of an authorization request; returns an error message for the error page. */
  checkClient(clientId: string, redirectUri: string): string | null {
    if (!this.clients) return null;
    const client = this.clients.get(clientId);
    if (!client) return 'The OAuth client was not found.';
    if (client.redirectUris && !client.redirectUris.includes(redirectUri)) {
      return `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy (redirect_uri_mismatch: ${redirectUri}).`;
    }
    return null;
  }

  issueCode(options: Omit<PendingCode, 'code' | 'expiresAt' | 'used'>): string {
    const now = this.clock();
    for (const [key, held] of this.codes) if (held.expiresAt < now - 3600_000) this.codes.delete(key);
    const code = `4/0A${randomToken(48)}`;
    this.codes.set(code, { ...options, code, expiresAt: this.clock() + CODE_SECONDS * 1000, used: false });
    return code;
  }

  private authenticateClient(clientId: string | undefined, clientSecret: string | undefined) {
    if (!clientId) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: client_id');
    if (!this.clients) {
      if (!clientSecret) throw new OAuthError(400, 'invalid_request', 'client_secret is missing.');
      return;
    }
    const client = this.clients.get(clientId);
    if (!client) throw new OAuthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (client.secret !== clientSecret) throw new OAuthError(401, 'invalid_client', 'Unauthorized');
  }

  exchangeCode(params: {
    code?: string;
    clientId?: string;
    clientSecret?: string;
    redirectUri?: string;
    codeVerifier?: string;
  }): TokenResponse {
    this.authenticateClient(params.clientId, params.clientSecret);
    if (!params.code) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: code');
    const pending = this.codes.get(params.code);
    if (!pending) throw new OAuthError(400, 'invalid_grant', 'Malformed auth code.');
    if (pending.used || pending.expiresAt <= this.clock()) throw new OAuthError(400, 'invalid_grant', 'Bad Request');
    if (pending.clientId !== params.clientId) throw new OAuthError(400, 'invalid_grant', 'Bad Request');
    if (pending.redirectUri !== params.redirectUri) throw new OAuthError(400, 'redirect_uri_mismatch', 'Bad Request');
    if (pending.codeChallenge) {
      if (!params.codeVerifier) throw new OAuthError(400, 'invalid_grant', 'Missing code verifier.');
      const computed =
        pending.codeChallengeMethod === 'S256'
          ? crypto.createHash('sha256').update(params.codeVerifier).digest('base64url')
          : params.codeVerifier;
      if (computed !== pending.codeChallenge) throw new OAuthError(400, 'invalid_grant', 'Invalid code verifier.');
    }
    pending.used = true;
    const grant: Grant = {
      id: randomToken(12),
      email: pending.email,
      clientId: pending.clientId,
      scopes: pending.scopes,
      revoked: false,
      createdAt: this.clock(),
    };
    if (pending.offline) {
      grant.refreshToken = `1//0${randomToken(64)}`;
      this.refreshTokens.set(grant.refreshToken, grant);
    }
    this.grants.push(grant);
    const response = this.tokenResponse(grant, pending.nonce);
    if (grant.refreshToken) response.refresh_token = grant.refreshToken;
    return response;
  }

  refresh(params: { refreshToken?: string; clientId?: string; clientSecret?: string }): TokenResponse {
    this.authenticateClient(params.clientId, params.clientSecret);
    if (!params.refreshToken) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
    const grant = this.refreshTokens.get(params.refreshToken);
    if (!grant || grant.revoked) throw new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    if (grant.clientId !== params.clientId) throw new OAuthError(400, 'unauthorized_client', 'Unauthorized');
    return this.tokenResponse(grant, undefined);
  }

  private tokenResponse(grant: Grant, nonce: string | undefined): TokenResponse {
    const token = `ya29.a0${randomToken(96)}`;
    this.accessTokens.set(token, { token, grant, expiresAt: this.clock() + ACCESS_TOKEN_SECONDS * 1000 });
    return {
      access_token: token,
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: grant.scopes.join(' '),
      token_type: 'Bearer',
      id_token: this.idToken(grant, nonce),
    };
  }

  /** Revokes the grant an access or refresh token belongs to: every token of it stops working. */
  revoke(token: string | undefined): void {
    if (!token) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: token');
    const grant = this.accessTokens.get(token)?.grant ?? this.refreshTokens.get(token);
    if (!grant || grant.revoked) throw new OAuthError(400, 'invalid_token', 'Token expired or revoked');
    this.revokeGrant(grant);
  }

  private revokeGrant(grant: Grant) {
    grant.revoked = true;
    for (const [token, entry] of this.accessTokens) if (entry.grant === grant) this.accessTokens.delete(token);
    if (grant.refreshToken) this.refreshTokens.delete(grant.refreshToken);
  }

  /** Revokes every grant of a user (as if they removed the app from their Google account). */
  revokeUser(email: string): number {
    let count = 0;
    for (const grant of this.grants) {
      if (grant.email === email && !grant.revoked) {
        this.revokeGrant(grant);
        count++;
      }
    }
    return count;
  }

  /** Makes access tokens expire now (all, or one user's); refresh tokens keep working. */
  expireAccessTokens(email?: string): number {
    let count = 0;
    const now = this.clock();
    for (const entry of this.accessTokens.values()) {
      if (email && entry.grant.email !== email) continue;
      if (entry.expiresAt > now) {
        entry.expiresAt = now;
        count++;
      }
    }
    return count;
  }

  authenticate(token: string): Authenticated | null {
    const entry = this.accessTokens.get(token);
    if (!entry || entry.grant.revoked || entry.expiresAt <= this.clock()) return null;
    return {
      email: entry.grant.email,
      scopes: entry.grant.scopes,
      clientId: entry.grant.clientId,
      expiresAt: entry.expiresAt,
    };
  }

  activeGrants(email?: string): Grant[] {
    return this.grants.filter((grant) => !grant.revoked && (!email || grant.email === email));
  }

  reset(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.grants.length = 0;
  }

  private key() {
    if (!this.signingKey) {
      const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const kid = crypto.createHash('sha256').update(pem).digest('hex').slice(0, 40);
      const jwk = publicKey.export({ format: 'jwk' });
      this.signingKey = { privateKey, kid, pem, jwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
    }
    return this.signingKey;
  }

  /** `{ kid: PEM }`, as https://www.googleapis.com/oauth2/v1/certs answers (public keys, not X.509). */
  pemCerts(): Record<string, string> {
    const key = this.key();
    return { [key.kid]: key.pem };
  }

  jwks(): { keys: crypto.JsonWebKey[] } {
    return { keys: [this.key().jwk] };
  }

  /**
   * An OpenID id token: RS256, `iss` https://accounts.google.com (what `verifyIdToken` expects),
   * `aud`/`azp` the client, `sub` a stable account id, `email`, `email_verified`, and the names.
   */
  private idToken(grant: Grant, nonce: string | undefined): string {
    const key = this.key();
    const now = Math.floor(this.clock() / 1000);
    const profile = this.profileOf(grant.email);
    const domain = grant.email.split('@')[1] ?? '';
    const payload: Record<string, unknown> = {
      iss: 'https://accounts.google.com',
      azp: grant.clientId,
      aud: grant.clientId,
      sub: profile.sub,
      email: grant.email,
      email_verified: true,
      iat: now,
      exp: now + 3600,
    };
    if (!/^(gmail|googlemail)\.com$/.test(domain)) payload.hd = domain;
    if (grant.scopes.includes(SCOPES.profile)) {
      payload.name = profile.name;
      payload.given_name = profile.givenName;
      payload.family_name = profile.familyName;
    }
    if (nonce) payload.nonce = nonce;
    const header = { alg: 'RS256', kid: key.kid, typ: 'JWT' };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signingInput = `${encode(header)}.${encode(payload)}`;
    const signature = crypto.sign('RSA-SHA256', Buffer.from(signingInput), key.privateKey).toString('base64url');
    return `${signingInput}.${signature}`;
  }
}
