import { gmail as gmailApi } from '@googleapis/gmail';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGoogleSandbox } from './server.ts';
import {
  apiAuth,
  CLIENT,
  connect,
  consent,
  consentForm,
  oauthClient,
  PRODUCT_SCOPES,
  REDIRECT_URI,
  rejection,
  startSandbox,
} from './testing.ts';

let now = Date.now();
let running: RunningGoogleSandbox;

beforeAll(async () => {
  running = await startSandbox({ clock: () => now });
});
afterAll(async () => {
  await running.close();
});

describe('consent page', () => {
  it('says it is the local sandbox, lists the scopes in plain words and pre-fills the login hint', async () => {
    const url = oauthClient(running).generateAuthUrl({
      access_type: 'offline',
      scope: PRODUCT_SCOPES,
      state: 'xyz',
      login_hint: 'jane.doe@acme.com',
    });
    expect(url.startsWith(`${running.url}/o/oauth2/v2/auth?`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Sign in with Google (sandbox)</title>');
    expect(html).toContain('Local sandbox.');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('value="jane.doe@acme.com"');
    expect(html).toContain('View your email message metadata such as labels and headers, but not the email body');
    expect(html).toContain('See and download your contacts');
    expect(html).toContain('View events on all your calendars');
    expect(html).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/);
    expect(html).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/);
  });

  it('answers a bad request with an error page, as Google does', async () => {
    const response = await fetch(`${running.url}/o/oauth2/v2/auth?client_id=x&response_type=code&scope=openid`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Missing required parameter: redirect_uri');
  });

  it('sends Cancel back to the client as access_denied with the state', async () => {
    const url = oauthClient(running).generateAuthUrl({ scope: PRODUCT_SCOPES, state: 'keep-me' });
    const html = await (await fetch(url)).text();
    const answer = await fetch(new URL('auth', url), {
      method: 'POST',
      body: consentForm(html, '', 'cancel'),
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('keep-me');
  });

  it('grants only the scopes left ticked', async () => {
    const redirect = await consent(running, 'picky@acme.com', {
      untick: ['https://www.googleapis.com/auth/gmail.send'],
    });
    const scope = redirect.searchParams.get('scope') ?? '';
    expect(scope).toContain('https://www.googleapis.com/auth/gmail.metadata');
    expect(scope).not.toContain('gmail.send');
    expect(scope).toContain('https://www.googleapis.com/auth/userinfo.email');
  });
});

describe('authorization code flow', () => {
  it('exchanges the code for tokens (offline: a refresh token) and signs an id token the client verifies', async () => {
    const client = oauthClient(running);
    const redirect = await consent(running, 'Jane.Doe@Acme.com');
    expect(redirect.searchParams.get('state')).toBe('state-123');
    const code = redirect.searchParams.get('code') ?? '';
    const { tokens } = await client.getToken(code);
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.refresh_token).toMatch(/^1\/\/0/);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.scope?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'https://www.googleapis.com/auth/gmail.metadata']),
    );
    expect(tokens.expiry_date).toBeGreaterThan(Date.now() + 3500_000);
    const ticket = await client.verifyIdToken({ idToken: tokens.id_token ?? '', audience: CLIENT.clientId });
    expect(ticket.getPayload()).toMatchObject({
      email: 'jane.doe@acme.com',
      email_verified: true,
      hd: 'acme.com',
      name: 'Jane Doe',
    });

    // Codes are single-use.
    const again = await rejection(client.getToken(code));
    expect(again.status).toBe(400);
    expect(again.data).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' });
  });

  it('lets a code expire after 60 seconds', async () => {
    const client = oauthClient(running);
    const code = (await consent(running, 'slow@acme.com')).searchParams.get('code') ?? '';
    now += 61_000;
    const late = await rejection(client.getToken(code));
    expect(late.data).toMatchObject({ error: 'invalid_grant' });
  });

  it('checks the PKCE verifier', async () => {
    const client = oauthClient(running);
    const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
    const first = (await consent(running, 'pkce@acme.com', { codeChallenge })).searchParams.get('code') ?? '';
    const wrong = await rejection(client.getToken({ code: first, codeVerifier: `${codeVerifier}x` }));
    expect(wrong.data).toEqual({ error: 'invalid_grant', error_description: 'Invalid code verifier.' });
    const second = (await consent(running, 'pkce@acme.com', { codeChallenge })).searchParams.get('code') ?? '';
    const { tokens } = await client.getToken({ code: second, codeVerifier });
    expect(tokens.access_token).toBeTruthy();
  });

  it('answers API calls without a valid token with 401 UNAUTHENTICATED', async () => {
    const response = await fetch(`${running.rootUrl}gmail/v1/users/me/profile`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    const body = (await response.json()) as { error: { code: number; status: string; errors: { reason: string }[] } };
    expect(body.error.code).toBe(401);
    expect(body.error.status).toBe('UNAUTHENTICATED');
    expect(body.error.errors[0]?.reason).toBe('required');

    const client = new OAuth2Client();
    client.setCredentials({ access_token: 'ya29.not-a-token' });
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    const failed = await rejection(gmail.users.getProfile({ userId: 'me' }));
    expect(failed.status).toBe(401);
    expect(failed.data).toMatchObject({ error: { status: 'UNAUTHENTICATED', errors: [{ reason: 'authError' }] } });
  });

  it('refuses a call outside the granted scopes with 403', async () => {
    const { client } = await connect(running, 'narrow@acme.com', ['openid', 'email']);
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    const refused = await rejection(gmail.users.messages.list({ userId: 'me' }, { retry: false }));
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({
      error: { status: 'PERMISSION_DENIED', message: 'Request had insufficient authentication scopes.' },
    });
  });
});

describe('expiry, refresh and revocation', () => {
  it('expires access tokens after 3599 s; a client set to refresh on failure refreshes and retries', async () => {
    const { tokens } = await connect(running, 'refresh@acme.com');
    const client = apiAuth(running, { forceRefreshOnFailure: true });
    client.setCredentials(tokens);
    const refreshed: string[] = [];
    client.on('tokens', (next) => refreshed.push(next.access_token ?? ''));
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    expect((await gmail.users.getProfile({ userId: 'me' })).data.emailAddress).toBe('refresh@acme.com');

    now += 3600_000;
    const profile = await gmail.users.getProfile({ userId: 'me' });
    expect(profile.data.emailAddress).toBe('refresh@acme.com');
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).not.toBe(tokens.access_token);
  });

  it('expires tokens on demand (control); the refresh token still works', async () => {
    const { client, tokens } = await connect(running, 'expire@acme.com');
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    expect(running.sandbox.expireAccessTokens('expire@acme.com').expired).toBe(1);
    // With an expiry date in its credentials and no forceRefreshOnFailure, the client surfaces the 401.
    expect((await rejection(gmail.users.getProfile({ userId: 'me' }))).status).toBe(401);
    const { credentials } = await client.refreshAccessToken();
    expect(credentials.access_token).not.toBe(tokens.access_token);
    expect((await gmail.users.getProfile({ userId: 'me' })).status).toBe(200);
  });

  it('revokes the whole grant: calls get 401 and a refresh gets invalid_grant', async () => {
    const { client, tokens } = await connect(running, 'revoke@acme.com');
    await client.revokeToken(tokens.access_token ?? '');
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
    expect((await rejection(gmail.users.getProfile({ userId: 'me' }))).status).toBe(401);
    const refresh = await rejection(client.refreshAccessToken());
    expect(refresh.status).toBe(400);
    expect(refresh.data).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    const twice = await rejection(client.revokeToken(tokens.refresh_token ?? ''));
    expect(twice.data).toEqual({ error: 'invalid_token', error_description: 'Token expired or revoked' });
  });

  it("revokes a user's grants on demand (control, also over HTTP)", async () => {
    const { client } = await connect(running, 'removed@acme.com');
    const response = await fetch(`${running.url}/_control/grants/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'removed@acme.com' }),
    });
    expect(await response.json()).toEqual({ revoked: 1 });
    expect((await rejection(client.refreshAccessToken())).data).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers tokeninfo for a live token', async () => {
    const { client, tokens } = await connect(running, 'info@acme.com');
    const info = await client.getTokenInfo(tokens.access_token ?? '');
    expect(info).toMatchObject({ email: 'info@acme.com', aud: CLIENT.clientId });
    expect(info.scopes).toContain('https://www.googleapis.com/auth/gmail.metadata');
  });
});
