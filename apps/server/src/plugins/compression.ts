import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Smaller answers go as they are: compressing them saves less than the header it adds. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The API's answers compressed on the way out for a browser that takes it: a page of the network table
 * is about 170 kB of JSON, 10 times less compressed. Brotli at quality 4 costs about what gzip does
 * at its default and compresses better; the built files are compressed once at build time instead
 * (web-app.ts), and an answer that already has an encoding is left alone.
 */
async function compressionPlugin(app: FastifyInstance) {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}

export const compression = fp(compressionPlugin, { name: 'compression' });
