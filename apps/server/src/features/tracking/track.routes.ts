import { publicApi } from '@warmpath/shared';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import { type BucketLimit, createTokenBuckets, refuseTooMany } from '../../lib/rate-limit.ts';
import { route } from '../../plugins/contract-route.ts';
import { isBot } from './bots.ts';
import { createIngest, IngestBusyError, toTrackedEvents } from './ingest.ts';
import { createSiteDirectory, originOf } from './site-directory.ts';
import { SNIPPET } from './snippet.ts';
import { visitLinks } from './visit-link.ts';

export type TrackLimits = {
  /** Events per tracking key: a busy site's visitors together. */
  perKey: BucketLimit;
  /** Requests per client address: one browser sends a request per page view. */
  perAddress: BucketLimit;
  /** Events of one workspace waiting for their transaction before more are refused. */
  maxQueuedEvents: number;
};

export const TRACK_LIMITS: TrackLimits = {
  perKey: { perSecond: 200, burst: 1000 },
  perAddress: { perSecond: 20, burst: 100 },
  maxQueuedEvents: 50_000,
};

/** sendBeacon's own limit; a batch of 50 page views is far below it. */
const TRACK_BODY_LIMIT = 64 * 1024;
/** Visits marking people for the graph ask for its recompute once per this window per workspace. */
const RECOMPUTE_AFTER_MS = 1_000;

export type TrackDeps = {
  database: Database;
  encryptionKey: Buffer;
  jobs: Pick<JobQueue, 'enqueueGraphRecompute'>;
  limits?: Partial<TrackLimits>;
};

/** The snippet, and the endpoint it sends page views and identifications to. */
export const trackRoutes: FastifyPluginAsyncZod<TrackDeps> = async (app, deps) => {
  const limits = { ...TRACK_LIMITS, ...deps.limits };
  const sites = createSiteDirectory(deps.database);
  const links = visitLinks(deps.encryptionKey);
  const perKey = createTokenBuckets(limits.perKey);
  const perAddress = createTokenBuckets(limits.perAddress);

  // The sweep finds marked people within a minute; asking right away makes a visit show in seconds.
  const recomputeSoon = new Map<string, NodeJS.Timeout>();
  const ingest = createIngest(deps.database, {
    maxQueuedEvents: limits.maxQueuedEvents,
    onStored: (workspaceId, people) => {
      if (people.length === 0 || recomputeSoon.has(workspaceId)) return;
      const timer = setTimeout(() => {
        recomputeSoon.delete(workspaceId);
        deps.jobs.enqueueGraphRecompute(workspaceId).catch((error: unknown) => {
          app.log.warn({ err: error }, 'tracking: the graph recompute could not be queued (the sweep will)');
        });
      }, RECOMPUTE_AFTER_MS);
      timer.unref();
      recomputeSoon.set(workspaceId, timer);
    },
  });
  app.addHook('onClose', async () => {
    await ingest.drain();
    // The marks are committed: the graph's sweep takes them if these never run.
    for (const timer of recomputeSoon.values()) clearTimeout(timer);
  });

  route(app, publicApi.getSnippet, async (request, reply) => {
    reply
      .header('cache-control', SNIPPET.cacheControl)
      .header('etag', SNIPPET.etag)
      .header('vary', 'Accept-Encoding')
      .type('text/javascript; charset=utf-8');
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(SNIPPET.etag)) return reply.code(304).send();
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      return reply.header('content-encoding', 'gzip').send(SNIPPET.gzipped);
    }
    return reply.send(SNIPPET.source);
  });

  await app.register(async (scoped) => {
    // sendBeacon posts its string as text/plain (no CORS preflight): both types are the same JSON here,
    // parsed by Fastify's own safe parser, and a body over sendBeacon's limit is refused before parsing.
    scoped.removeContentTypeParser(['application/json', 'text/plain']);
    scoped.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'string', bodyLimit: TRACK_BODY_LIMIT },
      scoped.getDefaultJsonParser('error', 'error'),
    );

    // Before the body is read: a flood from one address or a crawler costs no parsing.
    scoped.addHook('onRequest', async (request, reply) => {
      const wait = perAddress.take(request.ip);
      if (wait > 0) refuseTooMany(reply, wait, 'Too many requests from this address');
      if (isBot(request.headers['user-agent'])) return reply.code(202).send({ accepted: 0 });
    });

    route(scoped, publicApi.track, async (request, reply) => {
      const { key, events } = request.body;
      const origin = originOf(request.headers.origin ?? '');
      const site = await sites.site(key, origin);
      if (!site) throw new AppError('FORBIDDEN', 'Unknown tracking key');
      if (!origin || !site.origins.has(origin)) {
        throw new AppError('FORBIDDEN', 'This origin is not one of the sites of this tracking key');
      }
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      const wait = perKey.take(key, events.length);
      if (wait > 0) refuseTooMany(reply, wait, 'Too many events for this tracking key');

      const tracked = toTrackedEvents(events, { workspaceId: site.workspaceId, visitLinks: links, now: new Date() });
      try {
        await ingest.submit(site.workspaceId, tracked);
      } catch (error) {
        if (error instanceof IngestBusyError) refuseTooMany(reply, 1, error.message);
        throw error;
      }
      return reply.code(202).send({ accepted: tracked.length });
    });
  });
};

/**
 * The CORS preflight of the endpoint, for a site that posts JSON with fetch (the snippet itself sends
 * text/plain and never needs one). Outside the API's contract scope on purpose: OPTIONS is the
 * browser's question, not an operation of the API. The body (and so the key) is not sent with a
 * preflight: an origin that any site lists is allowed, and the POST itself checks key and origin.
 */
export const trackPreflightRoutes: FastifyPluginAsync<{ database: Database }> = async (app, deps) => {
  const sites = createSiteDirectory(deps.database);
  app.options(publicApi.track.path, { config: { access: 'public' } }, async (request, reply) => {
    const origin = originOf(request.headers.origin ?? '');
    if (!origin || !(await sites.isTrackedOrigin(origin))) {
      throw new AppError('FORBIDDEN', 'This origin is not one of the sites of any tracking key');
    }
    return reply
      .code(204)
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .header('vary', 'Origin')
      .send();
  });
};
