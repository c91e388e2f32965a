import { integrationsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  deleteSlackToken,
  finishSlackConnection,
  getSlackConnection,
  type SlackDeps,
  startSlackConnection,
} from './slack.service.ts';

export const slackRoutes: FastifyPluginAsyncZod<SlackDeps> = async (app, deps) => {
  route(app, integrationsApi.connectSlack, async (request, reply) => {
    const { url, cookie } = startSlackConnection(deps, memberOf(request), request.query.redirectUrl);
    reply.header('set-cookie', cookie);
    return { url };
  });
  route(app, integrationsApi.finishSlackConnection, async (request, reply) => {
    reply.header('set-cookie', deps.flow.clearCookie);
    return reply.redirect(
      `${deps.publicUrl}${await finishSlackConnection(deps, request.query, request.headers.cookie)}`,
    );
  });
  route(app, integrationsApi.getSlack, async (request) => getSlackConnection(deps, memberOf(request)));
  route(app, integrationsApi.deleteSlackToken, async (request, reply) => {
    await deleteSlackToken(deps, memberOf(request));
    return reply.code(204).send();
  });
};
