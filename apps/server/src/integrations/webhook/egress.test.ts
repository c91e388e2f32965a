import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkWebhookTarget,
  createFilteringLookup,
  deliverWebhook,
  MAX_RESPONSE_BYTES,
  type ResolveHost,
} from './egress.ts';
import { newWebhookSecret, signedHeaders } from './signing.ts';

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A real receiver on 127.0.0.1, on a port of the system's choosing, recording what it is sent. */
async function receiver(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString(),
      });
      respond(req, res);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { port, seen, url: `http://127.0.0.1:${port}/hooks/in?source=warmpath` };
}

/** A resolver answering fixed addresses for fixed names, recording the names it was asked. */
function fakeResolver(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

const json = '{"type":"intro.requested","data":{"id":"1"}}';

describe('deliverWebhook: egress rules', () => {
  it('refuses a loopback IP literal by default, without connecting', async () => {
    const target = await receiver((_req, res) => res.end('ok'));
    const result = await deliverWebhook({ url: target.url, body: json, headers: {} });
    expect(result).toMatchObject({ status: null, errorCode: 'refused_target', responseBody: '' });
    expect(result.error).toContain('127.0.0.1 is not a public address (loopback)');
    expect(target.seen).toHaveLength(0);
  });

  it('refuses localhost (a DNS name resolving to loopback) by default, without connecting', async () => {
    const target = await receiver((_req, res) => res.end('ok'));
    const result = await deliverWebhook({ url: `http://localhost:${target.port}/`, body: json, headers: {} });
    expect(result).toMatchObject({ status: null, errorCode: 'refused_target' });
    expect(result.error).toBe('localhost resolves to an address that is not public');
    expect(target.seen).toHaveLength(0);
  });

  it.each([
    ['decimal', (port: number) => `http://2130706433:${port}/`],
    ['octal', (port: number) => `http://0177.0.0.1:${port}/`],
    ['IPv4-mapped IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/`],
  ])('refuses the %s spelling of loopback', async (_spelling, url) => {
    const target = await receiver((_req, res) => res.end('ok'));
    const result = await deliverWebhook({ url: url(target.port), body: json, headers: {} });
    expect(result.errorCode).toBe('refused_target');
    expect(target.seen).toHaveLength(0);
  });

  it('refuses a name resolving to a mix of public and private addresses, before any connection', async () => {
    const target = await receiver((_req, res) => res.end('ok'));
    const dns = fakeResolver({ 'hooks.example.test': ['93.184.215.14', '127.0.0.1'] });
    const result = await deliverWebhook({
      url: `http://hooks.example.test:${target.port}/`,
      body: json,
      headers: {},
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({ status: null, errorCode: 'refused_target' });
    expect(dns.asked).toEqual(['hooks.example.test']);
    expect(target.seen).toHaveLength(0);
  });

  it('connects to exactly the address the lookup checked (a name only the fake resolver knows)', async () => {
    const target = await receiver((_req, res) => res.end('ok'));
    const dns = fakeResolver({ 'receiver.warmpath.test': ['127.0.0.1'] });
    const result = await deliverWebhook({
      url: `http://receiver.warmpath.test:${target.port}/in`,
      body: json,
      headers: {},
      allowPrivateTargets: true,
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({ status: 200, responseBody: 'ok' });
    expect(result.error).toBeUndefined();
    expect(dns.asked).toEqual(['receiver.warmpath.test']);
    expect(target.seen[0]?.headers.host).toBe(`receiver.warmpath.test:${target.port}`);
  });

  it('reports a name that does not resolve as a DNS error', async () => {
    const dns = fakeResolver({});
    const result = await deliverWebhook({
      url: 'https://nowhere.test/',
      body: json,
      headers: {},
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({ status: null, errorCode: 'dns' });
    expect(result.error).toContain('ENOTFOUND');
  });

  it('reports an invalid URL without throwing', async () => {
    const result = await deliverWebhook({ url: 'ftp://example.com/', body: json, headers: {} });
    expect(result).toMatchObject({ status: null, errorCode: 'invalid_url' });
  });
});

describe('deliverWebhook: delivery with allowPrivateTargets', () => {
  it('POSTs the body with the signed headers, which the standardwebhooks package verifies', async () => {
    const target = await receiver((_req, res) => res.writeHead(202).end('accepted'));
    const secret = newWebhookSecret();
    const headers = signedHeaders({ secret, id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: new Date(), body: json });
    const result = await deliverWebhook({ url: target.url, body: json, headers, allowPrivateTargets: true });
    expect(result).toMatchObject({ status: 202, responseBody: 'accepted' });
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [seen] = target.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/hooks/in?source=warmpath', body: json });
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(json)));
    const verified = new Webhook(secret).verify(seen?.body ?? '', {
      'webhook-id': String(seen?.headers['webhook-id']),
      'webhook-timestamp': String(seen?.headers['webhook-timestamp']),
      'webhook-signature': String(seen?.headers['webhook-signature']),
    });
    expect(verified).toEqual(JSON.parse(json));
  });

  it('returns a non-2xx status without an error: the caller judges it', async () => {
    const target = await receiver((_req, res) => res.writeHead(503).end('busy'));
    const result = await deliverWebhook({ url: target.url, body: json, headers: {}, allowPrivateTargets: true });
    expect(result).toMatchObject({ status: 503, responseBody: 'busy' });
    expect(result.error).toBeUndefined();
  });

  it('does not follow a 302: one request, the status and an error come back', async () => {
    const target = await receiver((req, res) => {
      if (req.url === '/moved') res.end('followed');
      else res.writeHead(302, { location: '/moved' }).end();
    });
    const result = await deliverWebhook({ url: target.url, body: json, headers: {}, allowPrivateTargets: true });
    expect(result).toMatchObject({
      status: 302,
      errorCode: 'redirect',
      error: 'redirect not followed (302 to /moved)',
    });
    expect(target.seen.map((s) => s.url)).toEqual(['/hooks/in?source=warmpath']);
  });

  it('reads a huge response body up to 64 KB, then drops the connection', async () => {
    let bytesWritten = 0;
    let serverSawClose = false;
    const target = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => {
        serverSawClose = true;
      });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      // Writes up to 8 MB as fast as the client reads; stops once the client has gone.
      const pump = () => {
        while (bytesWritten < 8 * 1024 * 1024 && !res.destroyed) {
          bytesWritten += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    const result = await deliverWebhook({ url: target.url, body: json, headers: {}, allowPrivateTargets: true });
    expect(result.status).toBe(200);
    expect(result.error).toBeUndefined();
    expect(Buffer.byteLength(result.responseBody)).toBe(MAX_RESPONSE_BYTES);
    expect(result.responseBody).toBe('x'.repeat(MAX_RESPONSE_BYTES));
    await expect.poll(() => serverSawClose).toBe(true);
    expect(bytesWritten).toBeLessThan(8 * 1024 * 1024);
  });

  it('ends with a time-out when the server accepts the request and never answers', async () => {
    const target = await receiver(() => {
      // Never answers.
    });
    const result = await deliverWebhook({
      url: target.url,
      body: json,
      headers: {},
      allowPrivateTargets: true,
      totalTimeoutMs: 300,
    });
    expect(result).toMatchObject({ status: null, errorCode: 'timeout', error: 'timed out after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(5_000);
    expect(target.seen).toHaveLength(1);
  });

  it('ends with a time-out when the body stalls after the status line, keeping the status', async () => {
    const target = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const result = await deliverWebhook({
      url: target.url,
      body: json,
      headers: {},
      allowPrivateTargets: true,
      totalTimeoutMs: 300,
    });
    expect(result).toMatchObject({ status: 200, errorCode: 'timeout', responseBody: 'partial' });
  });

  it('ends with a connect time-out when no connection is made in time', async () => {
    // A lookup that never answers keeps the socket connecting, as an unreachable host would.
    const resolve: ResolveHost = () => new Promise<LookupAddress[]>(() => {});
    const result = await deliverWebhook({
      url: 'http://slow.warmpath.test/',
      body: json,
      headers: {},
      allowPrivateTargets: true,
      connectTimeoutMs: 100,
      resolve,
    });
    expect(result).toMatchObject({ status: null, errorCode: 'connect_timeout', error: 'no connection within 100 ms' });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('reports a refused connection as a network error', async () => {
    const target = await receiver((_req, res) => res.end());
    const closed = servers.pop();
    closed?.close();
    if (closed) await once(closed, 'close');
    const result = await deliverWebhook({ url: target.url, body: json, headers: {}, allowPrivateTargets: true });
    expect(result).toMatchObject({ status: null, errorCode: 'network' });
    expect(result.error).toContain('ECONNREFUSED');
  });
});

describe('createFilteringLookup', () => {
  type Answer = { error: Error | null; address: string | LookupAddress[]; family?: number };

  function callLookup(
    lookup: ReturnType<typeof createFilteringLookup>,
    hostname: string,
    options: { all?: boolean; family?: number },
  ) {
    return new Promise<Answer>((resolve) =>
      lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
    );
  }

  const dns = fakeResolver({
    'public.test': ['2606:4700:4700::1111', '93.184.215.14'],
    'mixed.test': ['93.184.215.14', '10.0.0.8'],
    'mapped.test': ['::ffff:169.254.169.254'],
  });

  it('hands over the checked addresses, all of them or the first one as Node asks', async () => {
    const lookup = createFilteringLookup({ allowPrivateTargets: false, resolve: dns.resolve });
    expect(await callLookup(lookup, 'public.test', { all: true })).toEqual({
      error: null,
      address: [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '93.184.215.14', family: 4 },
      ],
      family: undefined,
    });
    expect(await callLookup(lookup, 'public.test', {})).toEqual({
      error: null,
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(await callLookup(lookup, 'public.test', { family: 4 })).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses when any address is not public, or hides behind IPv4-mapped IPv6', async () => {
    const lookup = createFilteringLookup({ allowPrivateTargets: false, resolve: dns.resolve });
    for (const hostname of ['mixed.test', 'mapped.test']) {
      const answer = await callLookup(lookup, hostname, { all: true });
      expect(answer.error?.message).toBe(`${hostname} resolves to an address that is not public`);
    }
  });

  it('lets private addresses through when the operator allows them', async () => {
    const lookup = createFilteringLookup({ allowPrivateTargets: true, resolve: dns.resolve });
    expect(await callLookup(lookup, 'mixed.test', {})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });
});

describe('checkWebhookTarget', () => {
  const dns = fakeResolver({
    'hooks.example.test': ['93.184.215.14', '2606:4700:4700::1111'],
    'internal.example.test': ['93.184.215.14', '192.168.0.10'],
  });

  it('accepts a URL whose every address is public', async () => {
    expect(await checkWebhookTarget('https://hooks.example.test/in', { resolve: dns.resolve })).toEqual({ ok: true });
    expect(await checkWebhookTarget('https://8.8.8.8/in')).toEqual({ ok: true });
  });

  it.each([
    ['https://internal.example.test/', 'internal.example.test resolves to an address that is not public'],
    ['http://localhost/', 'localhost resolves to an address that is not public'],
    ['http://2130706433/', '127.0.0.1 is not a public address'],
    ['http://0177.0.0.1/', '127.0.0.1 is not a public address'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is not a public address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is not a public address'],
    ['https://unknown.example.test/', 'unknown.example.test could not be resolved'],
    ['ftp://hooks.example.test/', 'http:// or https://'],
    ['https://me:pw@hooks.example.test/', 'user name or password'],
  ])('refuses %s', async (url, reason) => {
    const answer = await checkWebhookTarget(url, { resolve: url.includes('localhost') ? undefined : dns.resolve });
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.reason).toContain(reason);
  });

  it('accepts private targets when the operator allows them', async () => {
    expect(await checkWebhookTarget('http://localhost:8080/', { allowPrivateTargets: true })).toEqual({ ok: true });
    expect(await checkWebhookTarget('http://10.0.0.1/', { allowPrivateTargets: true })).toEqual({ ok: true });
  });
});
