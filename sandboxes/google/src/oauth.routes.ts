/** The OAuth 2.0 endpoints: consent page, token, revoke, tokeninfo and the signing certificates. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuthError } from './errors.ts';
import { bodyOf, html } from './http.ts';
import { authErrorPage, consentPage } from './pages.ts';
import { asQuery, stringParam } from './params.ts';
import type { GoogleSandbox } from './sandbox.ts';

export function registerOAuthRoutes(app: FastifyInstance, sandbox: GoogleSandbox) {
  app.get('/o/oauth2/v2/auth', async (request, reply) => {
    const result = sandbox.authorize(asQuery(request.query));
    if (result.kind === 'error') return html(reply, result.status, authErrorPage(result.error, result.message));
    if (result.kind === 'redirect') return reply.redirect(result.url, 302);
    return html(
      reply,
      200,
      consentPage({ action: 'auth', params: result.params, scopes: result.scopes, email: result.loginHint }),
    );
  });

  app.post('/o/oauth2/v2/auth', async (request, reply) => {
    const result = sandbox.consent(bodyOf(request));
    if (result.kind === 'error') return html(reply, result.status, authErrorPage(result.error, result.message));
    if (result.kind === 'redirect') return reply.redirect(result.url, 302);
    if (result.kind === 'invalid-email' && result.page.kind === 'consent') {
      return html(
        reply,
        400,
        consentPage({
          action: 'auth',
          params: result.page.params,
          scopes: result.page.scopes,
          email: result.email,
          error: result.message,
        }),
      );
    }
    return html(reply, 400, authErrorPage('invalid_request', 'The consent form was incomplete.'));
  });

  app.post('/token', async (request, reply) => {
    const form = bodyOf(request);
    const field = (name: string) => stringParam(form, name);
    let clientId = field('client_id');
    let clientSecret = field('client_secret');
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, ...secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      clientId = clientId ?? (id ? decodeURIComponent(id) : undefined);
      clientSecret = clientSecret ?? decodeURIComponent(secret.join(':'));
    }
    const grantType = field('grant_type');
    reply.header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate').header('pragma', 'no-cache');
    if (grantType === 'authorization_code') {
      return sandbox.oauth.exchangeCode({
        code: field('code'),
        clientId,
        clientSecret,
        redirectUri: field('redirect_uri'),
        codeVerifier: field('code_verifier'),
      });
    }
    if (grantType === 'refresh_token') {
      return sandbox.oauth.refresh({ refreshToken: field('refresh_token'), clientId, clientSecret });
    }
    if (!grantType) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: grant_type');
    throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  });

  const revoke = async (request: FastifyRequest) => {
    sandbox.oauth.revoke(stringParam(asQuery(request.query), 'token') ?? stringParam(bodyOf(request), 'token'));
    return {};
  };
  app.post('/revoke', revoke);
  app.get('/revoke', revoke);

  const tokenInfo = async (request: FastifyRequest) => {
    const token =
      stringParam(asQuery(request.query), 'access_token') ??
      stringParam(bodyOf(request), 'access_token') ??
      /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const info = sandbox.tokenInfo(token);
    if (!info) throw new OAuthError(400, 'invalid_token', 'Invalid Value');
    return info;
  };
  app.get('/tokeninfo', tokenInfo);
  app.post('/tokeninfo', tokenInfo);

  app.get('/oauth2/v1/certs', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send(sandbox.oauth.pemCerts()),
  );
  app.get('/oauth2/v3/certs', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send(sandbox.oauth.jwks()),
  );
}
