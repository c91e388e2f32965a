import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from './errors.ts';
import { ASSETS_CACHE_CONTROL, PAGE_CACHE_CONTROL, webApp } from './web-app.ts';

const PAGE = '<!doctype html><html><head><script type="module" src="/assets/index-a1b2c3.js"></script></head></html>';
const NETWORK_PAGE =
  '<!doctype html><html><head><script type="module" src="/assets/index-a1b2c3.js"></script><link rel="modulepreload" href="/assets/network-d4e5f6.js"></head></html>';
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
const CHROME = 'gzip, deflate, br, zstd';

/** A build as Vite and its precompression leave it: each text file with its .br and .gz copies. */
async function writeBuild(dir: string) {
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  await fs.mkdir(path.join(dir, 'first-pages'), { recursive: true });
  for (const [file, text] of [
    ['index.html', PAGE],
    ['assets/index-a1b2c3.js', SCRIPT],
    ['first-pages/network-screen.html', NETWORK_PAGE],
    // A listed page the build did not write is left out: index.html is sent there.
    ['first-pages.json', JSON.stringify({ '/network': 'first-pages/network-screen.html', '/actions': 'gone.html' })],
  ] as const) {
    await fs.writeFile(path.join(dir, file), text);
    await fs.writeFile(path.join(dir, `${file}.br`), zlib.brotliCompressSync(text));
    await fs.writeFile(path.join(dir, `${file}.gz`), zlib.gzipSync(text));
  }
}

async function appServing(root: string | null) {
  const app = Fastify();
  await app.register(errors);
  await app.register(webApp, { root });
  return app;
}

describe('the built web app', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-web-'));
    await writeBuild(dir);
    app = await appServing(dir);
  });

  afterAll(async () => {
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('sends a hashed script as its brotli copy to a browser that takes brotli, cached for a year', async () => {
    const response = await app.inject({ url: '/assets/index-a1b2c3.js', headers: { 'accept-encoding': CHROME } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers['cache-control']).toBe(ASSETS_CACHE_CONTROL);
    expect(response.headers.vary).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
  });

  it('sends the gzip copy where brotli is not taken, and the file itself where nothing is', async () => {
    const gzip = await app.inject({ url: '/assets/index-a1b2c3.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ url: '/assets/index-a1b2c3.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(ASSETS_CACHE_CONTROL);
  });

  it('sends index.html for the web app’s own paths, compressed and revalidated every time', async () => {
    for (const url of ['/', '/actions', '/sign-up/connect?invite=1', '/index.html', '/network/elsewhere']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': CHROME } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['cache-control'], url).toBe(PAGE_CACHE_CONTROL);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString(), url).toBe(PAGE);
    }
  });

  it('sends a first page the copy of index.html the build wrote for it, which names its screens’ scripts', async () => {
    for (const url of ['/network', '/network/', '/network?view=accounts']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': CHROME } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['cache-control'], url).toBe(PAGE_CACHE_CONTROL);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString(), url).toBe(NETWORK_PAGE);
    }
  });

  it('answers 404 for an asset the build does not have, for the copies’ own addresses, and under /api', async () => {
    for (const url of ['/assets/index-old999.js', '/assets/index-a1b2c3.js.br', '/api/nothing']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': CHROME } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('serves no page when the web app is not built', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-web-empty-'));
    const unbuilt = await appServing(empty);
    const apiOnly = await appServing(null);
    try {
      for (const server of [unbuilt, apiOnly]) {
        const response = await server.inject({ url: '/network' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No route GET /network' });
      }
    } finally {
      await unbuilt.close();
      await apiOnly.close();
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
