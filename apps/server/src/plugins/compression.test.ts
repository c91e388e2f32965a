import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES, compression } from './compression.ts';

const rows = Array.from({ length: 200 }, (_, index) => ({ id: index, name: `Prospect ${index}`, company: 'Acme' }));
const CHROME = 'gzip, deflate, br, zstd';

describe('compressed answers', () => {
  const app = Fastify();

  beforeAll(async () => {
    await app.register(compression);
    app.get('/rows', async () => ({ rows }));
    app.get('/small', async () => ({ ok: true }));
    app.get('/export', (_request, reply) =>
      reply.type('text/csv').send(Readable.from(rows.map((row) => `${row.id},${row.name}\n`))),
    );
    app.get('/precompressed', (_request, reply) =>
      reply
        .header('content-encoding', 'br')
        .type('text/javascript')
        .send(zlib.brotliCompressSync('x'.repeat(5000))),
    );
  });

  afterAll(() => app.close());

  it('sends a large JSON answer in brotli to a browser that takes it, in gzip to one that takes only gzip', async () => {
    const brotli = await app.inject({ url: '/rows', headers: { 'accept-encoding': CHROME } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(brotli.rawPayload).toString())).toEqual({ rows });
    expect(brotli.rawPayload.length).toBeLessThan(JSON.stringify({ rows }).length / 5);

    const gzip = await app.inject({ url: '/rows', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual({ rows });
  });

  it('leaves alone a small answer, a client that takes no encoding, and an answer already encoded', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': CHROME } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.stringify(small.json()).length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);

    const plain = await app.inject({ url: '/rows' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual({ rows });

    const encoded = await app.inject({ url: '/precompressed', headers: { 'accept-encoding': CHROME } });
    expect(encoded.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(encoded.rawPayload).toString()).toBe('x'.repeat(5000));
  });

  it('compresses a streamed export too', async () => {
    const response = await app.inject({ url: '/export', headers: { 'accept-encoding': CHROME } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString().split('\n')).toHaveLength(rows.length + 1);
  });
});
