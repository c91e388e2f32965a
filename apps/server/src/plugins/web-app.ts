import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FIRST_PAGES_MANIFEST } from '@warmpath/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

/** Files under assets/ are named after their content by the build: a changed file is a new address. */
export const ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html names the current assets: the browser asks again each time, so a new build shows at once. */
export const PAGE_CACHE_CONTROL = 'no-cache';

/**
 * The first pages' copies of index.html by path, as the web build lists them (apps/web/firstScreenChunks.ts),
 * each naming its screens' scripts too; none when the build wrote no list.
 */
function firstPagesOf(dir: string): Map<string, string> {
  const file = path.join(dir, FIRST_PAGES_MANIFEST);
  if (!fs.existsSync(file)) return new Map();
  const listed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (typeof listed !== 'object' || listed === null) return new Map();
  return new Map(
    Object.entries(listed).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === 'string' && fs.existsSync(path.join(dir, entry[1])) && !entry[1].includes('..'),
    ),
  );
}

export type WebAppOptions = {
  /** The built web app (apps/web/dist); null, or a folder without index.html, serves none. */
  root: string | null;
};

/**
 * The built web app beside the API: each file as built, or the brotli or gzip copy the build wrote
 * beside it when the browser takes one; and index.html for every other GET outside /api, since the
 * web app's router owns those paths (a first page's own copy of it, where the build wrote one).
 */
async function webAppPlugin(app: FastifyInstance, { root }: WebAppOptions) {
  const dir = root === null ? null : path.resolve(root);
  const servesWeb = dir !== null && fs.existsSync(path.join(dir, 'index.html'));
  const firstPages = dir !== null && servesWeb ? firstPagesOf(dir) : new Map<string, string>();
  if (dir !== null && servesWeb) {
    const assets = path.join(dir, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: dir,
      // One route per file, listed at start: a build is served by the server started after it.
      wildcard: false,
      index: false,
      preCompressed: true,
      // The copies are sent in place of their original, never at an address of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (response, file) => {
        response.setHeader('cache-control', file.startsWith(assets) ? ASSETS_CACHE_CONTROL : PAGE_CACHE_CONTROL);
        // One address, several encodings: a shared cache keeps them apart.
        response.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing asset is an old build's (a tab opened before a deploy): a 404, not the page as script.
    const pageRequest =
      servesWeb && request.method === 'GET' && !pathname.startsWith('/api') && !pathname.startsWith('/assets/');
    if (pageRequest)
      return reply.type('text/html').sendFile(firstPages.get(pathname.replace(/(.)\/$/, '$1')) ?? 'index.html');
    throw new AppError('NOT_FOUND', `No route ${request.method} ${pathname}`);
  });
}

export const webApp = fp(webAppPlugin, { name: 'web-app' });
