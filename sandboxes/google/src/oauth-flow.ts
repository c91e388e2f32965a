/**
 * The OAuth code flow's pages on the sandbox's state: the authorization request checked as Google
 * checks it, the consent form's answer (a code, or access_denied), and tokeninfo.
 */
import { IDENTITY_SCOPES, isKnownScope, normalizeScopes, SCOPE_DESCRIPTIONS } from './oauth.ts';
import { listParam, type Query, stringParam } from './params.ts';
import { EMAIL_PATTERN } from './rfc5322.ts';
import type { GoogleSandbox } from './sandbox.ts';

export type AuthorizeResult =
  | { kind: 'error'; status: number; error: string; message: string }
  | { kind: 'redirect'; url: string }
  | {
      kind: 'consent';
      params: Record<string, string>;
      scopes: { scope: string; description: string; required: boolean }[];
      loginHint: string;
    };

export function authorize(sandbox: GoogleSandbox, query: Query): AuthorizeResult {
  const clientId = stringParam(query, 'client_id');
  const redirectUri = stringParam(query, 'redirect_uri');
  const responseType = stringParam(query, 'response_type');
  const scope = stringParam(query, 'scope');
  const state = stringParam(query, 'state');
  if (!clientId)
    return { kind: 'error', status: 400, error: 'invalid_request', message: 'Missing required parameter: client_id' };
  if (!redirectUri)
    return {
      kind: 'error',
      status: 400,
      error: 'invalid_request',
      message: 'Missing required parameter: redirect_uri',
    };
  let redirect: URL;
  try {
    redirect = new URL(redirectUri);
    if (redirect.protocol !== 'http:' && redirect.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return {
      kind: 'error',
      status: 400,
      error: 'invalid_request',
      message: `Invalid parameter value for redirect_uri: ${redirectUri}`,
    };
  }
  const clientError = sandbox.oauth.checkClient(clientId, redirectUri);
  if (clientError) return { kind: 'error', status: 400, error: 'invalid_client', message: clientError };
  if (!responseType)
    return {
      kind: 'error',
      status: 400,
      error: 'invalid_request',
      message: 'Missing required parameter: response_type',
    };
  if (responseType !== 'code') {
    redirect.searchParams.set('error', 'unsupported_response_type');
    if (state !== undefined) redirect.searchParams.set('state', state);
    return { kind: 'redirect', url: redirect.toString() };
  }
  if (!scope)
    return { kind: 'error', status: 400, error: 'invalid_request', message: 'Missing required parameter: scope' };
  const scopes = normalizeScopes(scope);
  const invalid = scopes.filter((item) => !isKnownScope(item));
  if (invalid.length > 0) {
    return {
      kind: 'error',
      status: 400,
      error: 'invalid_scope',
      message: `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`,
    };
  }
  const method = stringParam(query, 'code_challenge_method');
  if (method && method !== 'S256' && method !== 'plain') {
    return {
      kind: 'error',
      status: 400,
      error: 'invalid_request',
      message: `Invalid code_challenge_method: ${method}`,
    };
  }
  const params: Record<string, string> = {};
  for (const name of [
    'client_id',
    'redirect_uri',
    'response_type',
    'scope',
    'state',
    'access_type',
    'prompt',
    'include_granted_scopes',
    'code_challenge',
    'code_challenge_method',
    'nonce',
    'login_hint',
  ]) {
    const value = stringParam(query, name);
    if (value !== undefined) params[name] = value;
  }
  return {
    kind: 'consent',
    params,
    scopes: scopes.map((item) => ({
      scope: item,
      description: SCOPE_DESCRIPTIONS[item] ?? item,
      required: IDENTITY_SCOPES.includes(item),
    })),
    loginHint: stringParam(query, 'login_hint') ?? '',
  };
}

/**
 * The consent form's answer: a redirect to the client with a code (or `error=access_denied`), or the
 * page again with an error.
 */
export function consent(
  sandbox: GoogleSandbox,
  form: Query,
): AuthorizeResult | { kind: 'invalid-email'; page: AuthorizeResult; message: string; email: string } {
  const request = authorize(sandbox, form);
  if (request.kind !== 'consent') return request;
  const redirect = new URL(request.params.redirect_uri ?? '');
  const state = request.params.state;
  if (stringParam(form, 'decision') !== 'allow') {
    redirect.searchParams.set('error', 'access_denied');
    if (state !== undefined) redirect.searchParams.set('state', state);
    return { kind: 'redirect', url: redirect.toString() };
  }
  const email = (stringParam(form, 'email') ?? '').trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) {
    return { kind: 'invalid-email', page: request, message: 'Enter a valid email address.', email };
  }
  const ticked = new Set(listParam(form, 'granted_scope'));
  const granted = request.scopes.filter((item) => item.required || ticked.has(item.scope)).map((item) => item.scope);
  const clientId = request.params.client_id ?? '';
  if (request.params.include_granted_scopes === 'true') {
    for (const grant of sandbox.oauth.activeGrants(email)) {
      if (grant.clientId !== clientId) continue;
      for (const scope of grant.scopes) if (!granted.includes(scope)) granted.push(scope);
    }
  }
  sandbox.user(email);
  const code = sandbox.oauth.issueCode({
    email,
    clientId,
    redirectUri: request.params.redirect_uri ?? '',
    scopes: granted,
    offline: request.params.access_type === 'offline',
    codeChallenge: request.params.code_challenge,
    codeChallengeMethod: request.params.code_challenge_method ?? (request.params.code_challenge ? 'plain' : undefined),
    nonce: request.params.nonce,
  });
  if (state !== undefined) redirect.searchParams.set('state', state);
  redirect.searchParams.set('code', code);
  redirect.searchParams.set('scope', granted.join(' '));
  redirect.searchParams.set('authuser', '0');
  redirect.searchParams.set('prompt', 'consent');
  return { kind: 'redirect', url: redirect.toString() };
}

export function tokenInfo(sandbox: GoogleSandbox, token: string | undefined) {
  const auth = token ? sandbox.oauth.authenticate(token) : null;
  if (!auth) return null;
  const state = sandbox.user(auth.email);
  return {
    azp: auth.clientId,
    aud: auth.clientId,
    sub: state.world.accountId,
    scope: auth.scopes.join(' '),
    exp: String(Math.floor(auth.expiresAt / 1000)),
    expires_in: String(Math.max(0, Math.floor((auth.expiresAt - sandbox.now()) / 1000))),
    email: auth.email,
    email_verified: 'true',
    access_type: 'offline',
  };
}
