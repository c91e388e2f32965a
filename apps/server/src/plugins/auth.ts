import { type Access, DEMO_WORKSPACE_HEADER, DEMO_WORKSPACE_VALUE, type Role } from '@warmpath/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JWK,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { findDemo } from '../features/demo/demo.repo.ts';
import { findIdentity } from '../features/users/users.repo.ts';
import { AppError } from '../lib/app-error.ts';
import { createSessionCache, type SessionCache } from './session-cache.ts';

const ROLES_FOR: Record<'read' | 'self' | 'write' | 'admin', readonly Role[]> = {
  read: ['admin', 'member', 'viewer'],
  self: ['admin', 'member', 'viewer'],
  write: ['admin', 'member'],
  admin: ['admin'],
};

export type Caller = { subject: string; email: string | null };
export type Member = Caller & { userId: string; workspaceId: string; role: Role };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
    member: Member | null;
  }
}

/** Verifies an access token and returns its claims, or throws. */
export type TokenVerifier = (token: string) => Promise<JWTPayload>;

const HEALTH_PATH = '/api/health';

// Asymmetric algorithms only: an HS256 token "signed" with our public key, or `alg: none`, never passes.
const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

export function createTokenVerifier(options: {
  issuer: string;
  audience: string;
  /** Keys of the built-in provider; when absent the issuer's JWKS is fetched from its discovery document. */
  localKeys?: { keys: JWK[] };
}): TokenVerifier {
  const localKeySet = options.localKeys && createLocalJWKSet(options.localKeys);
  let remoteKeySet: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keys = async () => {
    if (localKeySet) return localKeySet;
    if (!remoteKeySet) {
      const response = await fetch(`${options.issuer}/.well-known/openid-configuration`);
      const { jwks_uri } = z.object({ jwks_uri: z.url() }).parse(await response.json());
      remoteKeySet = createRemoteJWKSet(new URL(jwks_uri));
    }
    return remoteKeySet;
  };
  return async (token) => {
    const { payload } = await jwtVerify(token, await keys(), {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ALGORITHMS,
      requiredClaims: ['sub', 'exp'],
      clockTolerance: 5,
    });
    return payload;
  };
}

/** An API path that asks for a bearer token: every one but the public routes, health and the API's docs. */
export function needsToken(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (!path.startsWith('/api/') || path.startsWith('/api/public/') || path.startsWith('/api/docs')) return false;
  return path !== HEALTH_PATH;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header);
  return match?.[1] ?? null;
}

async function authPlugin(
  app: FastifyInstance,
  options: { verifyToken: TokenVerifier; database: Database; emailClaim: string; sessions?: SessionCache },
) {
  const sessions = options.sessions ?? createSessionCache();
  app.decorateRequest('caller', null);
  app.decorateRequest('member', null);

  // Fail closed: an API route that forgets to say who may call it does not start.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    const publicPath = route.url.startsWith('/api/public') || route.url === HEALTH_PATH;
    if ((access === 'public') !== publicPath) {
      throw new Error(`Route ${route.url}: only /api/public routes (and health) are public, and they all are`);
    }
  });

  const verified = async (token: string): Promise<Caller> => {
    let claims: JWTPayload;
    try {
      claims = await options.verifyToken(token);
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError || error instanceof z.ZodError) {
        throw new AppError('UNAUTHENTICATED', 'Invalid or expired token');
      }
      throw error;
    }
    const email = claims[options.emailClaim];
    const caller = { subject: claims.sub as string, email: typeof email === 'string' ? email.toLowerCase() : null };
    // `exp` is a required claim: the verifier refused a token without it.
    sessions.verified(token, caller, claims.exp as number);
    return caller;
  };

  app.addHook('onRequest', async (request) => {
    if (!needsToken(request)) return;

    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', 'Missing bearer token');
    request.caller = sessions.caller(token) ?? (await verified(token));
    const { subject } = request.caller;
    let identity = sessions.identity(subject);
    if (!identity) {
      identity = (await findIdentity(options.database, subject)) ?? undefined;
      if (identity) sessions.remember(subject, identity);
    }
    if (identity) request.member = { ...request.caller, ...identity };
    if (identity && request.headers[DEMO_WORKSPACE_HEADER] === DEMO_WORKSPACE_VALUE) {
      // The member acts in their own demo workspace, as its admin; never in anyone else's.
      const demo = await findDemo(options.database, subject);
      if (!demo) throw new AppError('NOT_FOUND', 'Your demo workspace no longer exists');
      request.member = { ...request.caller, ...demo, role: 'admin' };
    }
  });

  // Before validation: a caller whose role cannot use the route learns that, not what its body lacks.
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public' || access === 'identity') return;
    if (!request.member) throw new AppError('NOT_REGISTERED', 'You are not a member of a workspace');
    if (!ROLES_FOR[access].includes(request.member.role)) {
      throw new AppError('FORBIDDEN', 'Your role does not allow this');
    }
  });
}

export const auth = fp(authPlugin, { name: 'auth' });

/** The caller of an `identity` route. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('UNAUTHENTICATED', 'Missing bearer token');
  return request.caller;
}

/** The member calling a `read`, `write` or `admin` route. */
export function memberOf(request: FastifyRequest): Member {
  if (!request.member) throw new AppError('NOT_REGISTERED', 'You are not a member of a workspace');
  return request.member;
}
