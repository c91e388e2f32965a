import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { google } from 'googleapis';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../plugins/errors.ts';
import { googleSandbox, googleSandboxApis, googleSandboxEndpoints } from './plugin.ts';
import { createGoogleSandbox, type GoogleSandbox } from './sandbox.ts';
import { apiAuth, CLIENT, consent, REDIRECT_URI, rejection } from './testing.ts';

/** Mounted as the server mounts it: zod type provider, the app's error plugin, a catch-all 404. */
async function hostApp(sandbox: GoogleSandbox, options: { apisAtRoot: boolean }) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errors);
  await app.register(googleSandbox, { prefix: '/sandbox/google', publicUrl: sandbox.publicUrl, sandbox });
  if (options.apisAtRoot) await app.register(googleSandboxApis, { sandbox });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` }),
  );
  return app;
}

let sandbox: GoogleSandbox;
let app: Awaited<ReturnType<typeof hostApp>>;
let origin: string;

beforeAll(async () => {
  sandbox = createGoogleSandbox({ publicUrl: 'http://127.0.0.1:0' });
  app = await hostApp(sandbox, { apisAtRoot: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  sandbox.setPublicUrl(origin);
});
afterAll(async () => {
  await app.close();
});

const running = () => ({
  sandbox,
  url: sandbox.baseUrl,
  rootUrl: `${origin}/`,
  endpoints: googleSandboxEndpoints(sandbox.baseUrl).endpoints,
  close: async () => {},
});

describe('mounted in the server', () => {
  it('tells which URLs to configure', async () => {
    expect(googleSandboxEndpoints('http://localhost:3000/sandbox/google/')).toEqual({
      endpoints: {
        oauth2AuthBaseUrl: 'http://localhost:3000/sandbox/google/o/oauth2/v2/auth',
        oauth2TokenUrl: 'http://localhost:3000/sandbox/google/token',
        oauth2RevokeUrl: 'http://localhost:3000/sandbox/google/revoke',
        tokenInfoUrl: 'http://localhost:3000/sandbox/google/tokeninfo',
        oauth2FederatedSignonPemCertsUrl: 'http://localhost:3000/sandbox/google/oauth2/v1/certs',
        oauth2FederatedSignonJwkCertsUrl: 'http://localhost:3000/sandbox/google/oauth2/v3/certs',
      },
      rootUrl: 'http://localhost:3000/',
    });
    const page = await app.inject({ method: 'GET', url: '/sandbox/google/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`${origin}/sandbox/google/token`);
  });

  it('answers OAuth errors with { error, error_description }', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: '/sandbox/google/token',
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
      url: '/sandbox/google/token',
      payload: 'grant_type=authorization_code&code=nope&client_id=a&client_secret=b&redirect_uri=http%3A%2F%2Fx',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.json()).toEqual({ error: 'invalid_grant', error_description: 'Malformed auth code.' });
  });

  it('answers an unknown sandbox path with a Google error body', async () => {
    const response = await app.inject({ method: 'GET', url: '/sandbox/google/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('takes controls as JSON only', async () => {
    const stats = await app.inject({
      method: 'POST',
      url: '/sandbox/google/_control/stats',
      payload: { email: 'jo@acme.com' },
    });
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({ email: 'jo@acme.com', companies: 300 });
    const form = await app.inject({
      method: 'POST',
      url: '/sandbox/google/_control/stats',
      payload: 'email=jo@acme.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    const invalid = await app.inject({
      method: 'POST',
      url: '/sandbox/google/_control/rate-limit',
      payload: { count: 'many' },
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('serves the APIs at the root, because googleapis drops the path of rootUrl', async () => {
    const redirect = await consent(running(), 'jo@acme.com');
    const client = apiAuth(running());
    const { tokens } = await client.getToken(redirect.searchParams.get('code') ?? '');
    client.setCredentials(tokens);
    // Even with the sandbox's path in rootUrl, the request goes to /gmail/v1/... at the origin.
    const withPath = google.gmail({ version: 'v1', auth: client, rootUrl: `${origin}/sandbox/google/` });
    expect((await withPath.users.getProfile({ userId: 'me' })).data.emailAddress).toBe('jo@acme.com');

    const prefixOnly = await hostApp(sandbox, { apisAtRoot: false });
    await prefixOnly.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = prefixOnly.server.address();
      const other = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const gmail = google.gmail({ version: 'v1', auth: client, rootUrl: `${other}/sandbox/google/` });
      const failed = await rejection(gmail.users.getProfile({ userId: 'me' }, { retry: false }));
      expect(failed.status).toBe(404);
      expect(failed.data).toEqual({ code: 'NOT_FOUND', message: 'No route GET /gmail/v1/users/me/profile' });
    } finally {
      await prefixOnly.close();
    }
  });

  it('accepts the upload forms of messages.send (media and multipart)', async () => {
    const redirect = await consent(running(), 'uploader@acme.com');
    const client = apiAuth(running());
    client.setCredentials((await client.getToken(redirect.searchParams.get('code') ?? '')).tokens);
    const gmail = google.gmail({ version: 'v1', auth: client, rootUrl: `${origin}/` });
    const raw = (
      await new MailComposer({ from: 'uploader@acme.com', to: 'x@partner.io', subject: 'Media upload', text: 'Body' })
        .compile()
        .build()
    ).toString();
    // googleapis builds upload URLs from the per-call rootUrl only (not the client's): without it,
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
