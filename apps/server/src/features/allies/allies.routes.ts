import { listsApi, publicApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { exportUpload } from '../sources/linkedin/linkedin.routes.ts';
import { LINKEDIN_FILES } from '../sources/linkedin/linkedin.service.ts';
import {
  type AlliesDeps,
  allySharedConnections,
  confirmAllyConnections,
  getAllyShare,
  matchAllyConnections,
  sendAllyShareLink,
  withdrawAllyConnections,
} from './allies.service.ts';
import { finishAllyGoogleConnection, startAllyGoogleConnection, takeAllyGoogleMatches } from './ally-google.service.ts';

/** Admin › Allies: send an ally their share link, see what they shared. */
export const alliesRoutes: FastifyPluginAsyncZod<AlliesDeps> = async (app, deps) => {
  route(app, listsApi.sendAllyShareLink, async (request) =>
    sendAllyShareLink(deps, memberOf(request), request.params.id),
  );
  route(app, listsApi.listAllySharedConnections, async (request) =>
    allySharedConnections(deps, memberOf(request), request.params.id),
  );
};

/**
 * The ally's public page, without an account: every call carries the signed link, and the workspace it
 * names is the only one read or written (its row-level security set from the signature, never from input).
 */
export const allySharePublicRoutes: FastifyPluginAsyncZod<AlliesDeps> = async (app, deps) => {
  route(app, publicApi.getAllyShare, async (request) => getAllyShare(deps, request.query.token));
  route(app, publicApi.matchAllyConnections, async (request) =>
    matchAllyConnections(deps, request.query.token, await exportUpload(request, LINKEDIN_FILES.connections)),
  );
  route(app, publicApi.startAllyGoogleConnection, async (request, reply) => {
    const { answer, cookie } = await startAllyGoogleConnection(deps, request.query.token);
    reply.header('set-cookie', cookie);
    return answer;
  });
  // Google sends the browser here without a token of ours: the signed state names the link, and the
  // nonce cookie says this is the browser that asked.
  route(app, publicApi.finishAllyGoogleConnection, async (request, reply) => {
    reply.header('set-cookie', deps.flow.clearCookie);
    return reply.redirect(await finishAllyGoogleConnection(deps, request.query, request.headers.cookie));
  });
  route(app, publicApi.getAllyGoogleMatches, async (request) =>
    takeAllyGoogleMatches(deps, request.query.token, request.body.ref),
  );
  route(app, publicApi.confirmAllyConnections, async (request) =>
    confirmAllyConnections(deps, request.query.token, request.body),
  );
  route(app, publicApi.withdrawAllyConnections, async (request) => withdrawAllyConnections(deps, request.query.token));
};
