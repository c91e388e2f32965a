import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, SignJWT } from 'jose';
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { clientAddress, compileProxyTrust, fromTrustedProxy } from '../lib/proxy-trust.ts';
import { createTokenBuckets } from '../lib/rate-limit.ts';
import { securityHeaders } from '../plugins/security-headers.ts';
import { findAccount, splitName, upsertAccount } from './accounts.ts';
import { pgAdapterFactory } from './adapter.ts';
import { loginPage } from './login-page.ts';
import { type IdpSecrets, loadIdpSecrets, publicJwks } from './secrets.ts';

export const IDP_PATH = '/idp';
const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
const OIDC_SCOPES = 'openid email profile offline_access';
const API_SCOPE = 'api';
/** The sign-out page's one script: a file, as the Content-Security-Policy allows no inline script. */
const SIGN_OUT_SCRIPT_PATH = `${IDP_PATH}/sign-out.js`;
const SIGN_OUT_SCRIPT = 'document.forms[0].submit();\n';
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'];

export type IdentityProvider = {
  /** Handles a request under /idp. */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  jwks: ReturnType<typeof publicJwks>;
};

const ZLoginForm = z.object({
  email: z.email('Enter a valid e-mail address'),
  name: z.string().max(200).default(''),
});

export async function createIdentityProvider(config: Config, db: Db): Promise<IdentityProvider> {
  const secrets = await loadIdpSecrets(db);
  const { issuer, clientId, audience } = config.oidc;
  // The resource indicator names our API; the tokens it gets carry the audience the API checks.
  const resource = `${config.publicUrl}/api`;
  const resourceServer = {
    scope: API_SCOPE,
    audience,
    accessTokenFormat: 'jwt' as const,
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    jwt: { sign: { alg: 'RS256' as const } },
  };

  const configuration: Configuration = {
    adapter: pgAdapterFactory(db),
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${config.publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/`],
      },
    ],
    jwks: { keys: [secrets.signingKey] },
    // Lax, not the library's SameSite=None for its session: the web app and the provider share one
    // origin, so no cross-site request needs them. Both get `Secure` whenever the request came over
    // https (oidc-provider follows the request; behind a proxy that takes TRUST_PROXY, local-mode.ts).
    cookies: {
      keys: secrets.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile', 'offline_access', API_SCOPE],
    pkce: { required: () => true },
    async findAccount(_ctx, subject) {
      const account = await findAccount(db, subject);
      if (!account) return undefined;
      const { givenName, familyName } = splitName(account.name);
      return {
        accountId: subject,
        claims: async () => ({
          sub: subject,
          email: account.email,
          email_verified: true,
          name: account.name,
          given_name: givenName,
          family_name: familyName,
        }),
      };
    },
    // The API needs the e-mail in the access token too (it never trusts one from a request body).
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await findAccount(db, token.accountId);
      return account ? { email: account.email } : undefined;
    },
    // Our own web app is first-party: it never asks the user for consent.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
      const grant = grantId
        ? await ctx.oidc.provider.Grant.find(grantId)
        : new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      if (!grant) return undefined;
      grant.addOIDCScope(OIDC_SCOPES);
      grant.addResourceScope(resource, API_SCOPE);
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The web app calls the token endpoint from its own origin, the only one allowed.
    clientBasedCORS: (_ctx, origin) => origin === new URL(config.publicUrl).origin,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // Sign out at once: the confirmation page adds nothing in local mode.
        logoutSource: async (ctx, form) => {
          ctx.body = `<!doctype html><html><body>${form}<script src="${SIGN_OUT_SCRIPT_PATH}"></script></body></html>`;
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${IDP_PATH}/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      RefreshToken: 14 * 24 * 60 * 60,
    },
  };

  const provider = new Provider(issuer, configuration);
  // Forwarded host and protocol build the provider's URLs and decide its cookies' `Secure`: believed
  // only from the proxies TRUST_PROXY names (`handle` strips them from anyone else).
  const trust = compileProxyTrust(config.trustProxy);
  provider.proxy = config.trustProxy !== false;
  const callback = provider.callback();
  const headers = Object.entries(securityHeaders(config));
  const limits = {
    signInPerAddress: createTokenBuckets(config.rateLimits.signInPerAddress),
    signInPerUser: createTokenBuckets(config.rateLimits.signInPerUser),
    tokenPerAddress: createTokenBuckets(config.rateLimits.tokenPerAddress),
  };

  async function interactionDetails(req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
    return details;
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const action = `${IDP_PATH}/interaction/${uid}`;
    if (req.method === 'GET') {
      const details = await interactionDetails(req, res, uid);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.end(
        loginPage({ action, email: typeof details.params.login_hint === 'string' ? details.params.login_hint : '' }),
      );
      return;
    }
    const form = ZLoginForm.safeParse(Object.fromEntries(new URLSearchParams(await readBody(req))));
    if (!form.success) {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(loginPage({ action, error: form.error.issues[0]?.message ?? 'Invalid input' }));
      return;
    }
    // Counted before the interaction is looked up: attempts on made-up interactions count too.
    const wait = limits.signInPerUser.take(form.data.email.trim().toLowerCase());
    if (wait > 0) {
      tooManySignIns(res, wait, action, form.data.email);
      return;
    }
    await interactionDetails(req, res, uid);
    const account = await upsertAccount(db, form.data.email, form.data.name);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.subject } },
      { mergeWithLastSubmission: false },
    );
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    for (const [name, value] of headers) res.setHeader(name, value);
    if (!fromTrustedProxy(req, trust)) for (const name of FORWARDED_HEADERS) delete req.headers[name];
    if (url === SIGN_OUT_SCRIPT_PATH) {
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.setHeader('cache-control', 'public, max-age=3600');
      res.end(SIGN_OUT_SCRIPT);
      return;
    }
    const match = /^\/idp\/interaction\/([\w-]+)\/?(\?.*)?$/.exec(url);
    if (req.method === 'POST') {
      const address = clientAddress(req, trust);
      if (match?.[1]) {
        const wait = limits.signInPerAddress.take(address);
        if (wait > 0) return tooManySignIns(res, wait, `${IDP_PATH}/interaction/${match[1]}`);
      } else if (/^\/idp\/token\/?(\?.*)?$/.test(url)) {
        const wait = limits.tokenPerAddress.take(address);
        if (wait > 0) return tooManyTokenRequests(res, wait);
      }
    }
    if (match?.[1]) {
      interaction(req, res, match[1]).catch((error: unknown) => {
        res.statusCode = error instanceof errors.OIDCProviderError ? error.statusCode : 500;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('This sign-in attempt has expired. Go back to the application and sign in again.');
      });
      return;
    }
    // Mounted like Express would: the provider sees paths relative to /idp and finds its mount
    // path from originalUrl.
    Object.assign(req, { originalUrl: url, url: url.slice(IDP_PATH.length) || '/' });
    callback(req, res);
  };

  return { handle, jwks: publicJwks(secrets) };
}

/**
 * An access token for the sign-in account with this e-mail (created if needed), of the same shape and
 * signed with the same key as the tokens the provider issues after an interactive sign-in. For
 * scripts and tests; it needs no running server.
 */
export async function mintAccessToken(config: Config, db: Db, options: { email: string; name?: string }) {
  const account = await upsertAccount(db, options.email, options.name ?? '');
  const secrets = await loadIdpSecrets(db);
  return signAccessToken(secrets, { ...config.oidc, subject: account.subject, email: account.email });
}

async function signAccessToken(
  secrets: IdpSecrets,
  claims: { issuer: string; audience: string; clientId: string; subject: string; email: string },
) {
  const key = await importJWK(secrets.signingKey, 'RS256');
  return new SignJWT({ email: claims.email, client_id: claims.clientId, scope: `${OIDC_SCOPES} ${API_SCOPE}` })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: secrets.signingKey.kid })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.subject)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(crypto.randomUUID())
    .sign(key);
}

/** The sign-in page again, answering 429: the person reads when to try again. */
function tooManySignIns(res: ServerResponse, seconds: number, action: string, email?: string) {
  res.statusCode = 429;
  res.setHeader('retry-after', String(seconds));
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  const error = `Too many sign-in attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  res.end(loginPage({ action, error, email }));
}

/** The token endpoint's refusal, in OAuth's error shape, which the web app's client reads. */
function tooManyTokenRequests(res: ServerResponse, seconds: number) {
  res.statusCode = 429;
  res.setHeader('retry-after', String(seconds));
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(
    JSON.stringify({ error: 'rate_limited', error_description: `Too many requests: retry in ${seconds} seconds` }),
  );
}

function readBody(req: IncomingMessage, limit = 16_384): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > limit) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
