import { isZodSchema, publicApi, type RouteContract } from '@warmpath/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimits } from '../config.ts';
import { createTokenBuckets, refuseTooMany } from '../lib/rate-limit.ts';
import { needsToken } from './auth.ts';

// The tracking endpoint has limits of its own, per key and per address (features/tracking).
const TRACK_PATH = `/api${publicApi.track.path}`;

const isUpload = (contract: RouteContract | undefined) =>
  contract?.body !== undefined && !isZodSchema(contract.body) && contract.body.kind === 'upload';

/**
 * The API's rate limits (the built-in identity provider has its own, idp/provider.ts): public routes
 * per address; an address whose requests keep answering 401 (missing, forged or expired tokens) waits
 * before any token of its is even checked; uploads per address and per user. Registered before `auth`,
 * so a refused address costs no token verification.
 */
async function rateLimitsPlugin(app: FastifyInstance, options: { limits: RateLimits }) {
  const publicPerAddress = createTokenBuckets(options.limits.publicPerAddress);
  const badTokenPerAddress = createTokenBuckets(options.limits.badTokenPerAddress);
  const uploadPerAddress = createTokenBuckets(options.limits.uploadPerAddress);
  const uploadPerUser = createTokenBuckets(options.limits.uploadPerUser);

  app.addHook('onRequest', async (request, reply) => {
    if (needsToken(request)) {
      const wait = badTokenPerAddress.wait(request.ip);
      if (wait > 0) refuseTooMany(reply, wait, 'Too many requests without a valid token from this address');
      return;
    }
    if (request.routeOptions.config?.access === 'public' && request.routeOptions.url !== TRACK_PATH) {
      const wait = publicPerAddress.take(request.ip);
      if (wait > 0) refuseTooMany(reply, wait, 'Too many requests from this address');
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && needsToken(request)) badTokenPerAddress.take(request.ip);
  });

  // After the token is verified (onRequest) and before the handler reads the file.
  app.addHook('preHandler', async (request, reply) => {
    if (!isUpload(request.routeOptions.config?.contract)) return;
    const addressWait = uploadPerAddress.take(request.ip);
    if (addressWait > 0) refuseTooMany(reply, addressWait, 'Too many uploads from this address');
    const user = request.member?.userId ?? request.caller?.subject;
    if (!user) return;
    const userWait = uploadPerUser.take(user);
    if (userWait > 0) refuseTooMany(reply, userWait, 'Too many uploads: wait a moment before the next file');
  });
}

export const rateLimits = fp(rateLimitsPlugin, { name: 'rate-limits' });
