import { gmail as gmailApi } from '@googleapis/gmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMessage } from './compose-for-tests.ts';
import { createGoogleSandbox, type GoogleSandbox } from './sandbox.ts';
import {
  buildGoogleSandboxServer,
  googleSandboxEndpoints,
  listenGoogleSandbox,
  type RunningGoogleSandbox,
} from './server.ts';
import { apiAuth, CLIENT, consent, REDIRECT_URI } from './testing.ts';

let google: RunningGoogleSandbox;
let sandbox: GoogleSandbox;
let app: ReturnType<typeof buildGoogleSandboxServer>;
let origin: string;

beforeAll(async () => {
  google = await listenGoogleSandbox();
  sandbox = google.sandbox;
  origin = google.url;
  app = buildGoogleSandboxServer(sandbox);
});
afterAll(async () => {
  await app.close();
  await google.close();
});

const running = () => google;

describe('its own server', () => {
  it('tells which URLs to configure', async () => {
    expect(googleSandboxEndpoints('http://localhost:3001/')).toEqual({
      endpoints: {
        oauth2AuthBaseUrl: 'http://localhost:3001/o/oauth2/v2/auth',
        oauth2TokenUrl: 'http://localhost:3001/token',
        oauth2RevokeUrl: 'http://localhost:3001/revoke',
        tokenInfoUrl: 'http://localhost:3001/tokeninfo',
        oauth2FederatedSignonPemCertsUrl: 'http://localhost:3001/oauth2/v1/certs',
        oauth2FederatedSignonJwkCertsUrl: 'http://localhost:3001/oauth2/v3/certs',
      },
      rootUrl: 'http://localhost:3001/',
    });
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`${origin}/token`);
    expect(page.body).toContain('href="/mail"');
  });

  it('answers OAuth errors with { error, error_description }', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: '/token',
      payload: 'client_id=a&client_secret=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Missing required parameter: grant_type',
    });
    const bad = await app.inject({
      method: 'POST',
      url: '/token',
      payload: 'grant_type=authorization_code&code=nope&client_id=a&client_secret=b&redirect_uri=http%3A%2F%2Fx',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.json()).toEqual({ error: 'invalid_grant', error_description: 'Malformed auth code.' });
  });

  it('answers an unknown path with a Google error body', async () => {
    const response = await app.inject({ method: 'GET', url: '/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('takes controls as JSON only', async () => {
    const stats = await app.inject({
      method: 'POST',
      url: '/_control/stats',
      payload: { email: 'jo@acme.com' },
    });
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({ email: 'jo@acme.com', companies: 300 });
    const form = await app.inject({
      method: 'POST',
      url: '/_control/stats',
      payload: 'email=jo@acme.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    const invalid = await app.inject({
      method: 'POST',
      url: '/_control/rate-limit',
      payload: { count: 'many' },
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('serves the APIs at the root, because the clients drop the path of rootUrl', async () => {
    const redirect = await consent(running(), 'jo@acme.com');
    const client = apiAuth(running());
    const { tokens } = await client.getToken(redirect.searchParams.get('code') ?? '');
    client.setCredentials(tokens);
    // Even with a path in rootUrl, the request goes to /gmail/v1/... at the origin.
    const withPath = gmailApi({ version: 'v1', auth: client, rootUrl: `${origin}/some/path/` });
    expect((await withPath.users.getProfile({ userId: 'me' })).data.emailAddress).toBe('jo@acme.com');
  });

  it('accepts the upload forms of messages.send (media and multipart)', async () => {
    const redirect = await consent(running(), 'uploader@acme.com');
    const client = apiAuth(running());
    client.setCredentials((await client.getToken(redirect.searchParams.get('code') ?? '')).tokens);
    const gmail = gmailApi({ version: 'v1', auth: client, rootUrl: `${origin}/` });
    const raw = (
      await composeMessage({ from: 'uploader@acme.com', to: 'x@partner.io', subject: 'Media upload', text: 'Body' })
    ).toString();
    // The clients build upload URLs from the per-call rootUrl only (not the client's): without it,
    // an upload would go to gmail.googleapis.com.
    const perCall = { rootUrl: `${origin}/` };
    const media = await gmail.users.messages.send(
      { userId: 'me', media: { mimeType: 'message/rfc822', body: raw } },
      perCall,
    );
    expect(media.data.labelIds).toEqual(['SENT']);
    const multipart = await gmail.users.messages.send(
      {
        userId: 'me',
        requestBody: {},
        media: { mimeType: 'message/rfc822', body: raw.replace('Media upload', 'Multipart upload') },
      },
      perCall,
    );
    expect(multipart.data.labelIds).toEqual(['SENT']);
    expect(sandbox.sentMail({ to: 'x@partner.io' }).map((mail) => mail.subject)).toEqual([
      'Multipart upload',
      'Media upload',
    ]);
  });

  it('checks registered clients when they are configured', async () => {
    const strict = createGoogleSandbox({
      publicUrl: origin,
      clients: [{ ...CLIENT, redirectUris: [REDIRECT_URI] }],
    });
    expect(strict.oauth.checkClient(CLIENT.clientId, REDIRECT_URI)).toBeNull();
    expect(strict.oauth.checkClient('other', REDIRECT_URI)).toMatch(/not found/);
    expect(strict.oauth.checkClient(CLIENT.clientId, 'http://evil.example/cb')).toMatch(/redirect_uri_mismatch/);
  });
});
