import {
  ZActionCommandResult,
  ZActionCounts,
  ZActionFilters,
  ZActionFiltersBody,
  ZActionIdBody,
  ZPageQuery,
  ZPastActionsPage,
  ZRecommendedActionsFiltersQuery,
  ZRecommendedActionsPage,
  ZSendAskIntroActionBody,
  ZSendDirectMessageActionBody,
  ZSendThankYouBody,
  ZSendThankYouResult,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import {
  type ActionsDeps,
  actionCounts,
  completeAction,
  type PastTab,
  recommendedActions,
  recommendedActionsFilters,
  sendAskIntroAction,
  sendDirectMessageAction,
  sendThankYou,
  skipAction,
  tabActions,
  tabActionsFilters,
} from './actions.service.ts';

// The Actions calls of spec section 7, and the two sends of the action panels (under /contacts, as
// the spec names them). Reads are declared `identity` rather than `read` so that the restricted third
// role, which `read` turns away, gets the empty lists the spec gives it: the service still requires
// a member of a workspace and scopes everything to it. Commands are `write`: a viewer never acts.
export const actionsRoutes: FastifyPluginAsyncZod<ActionsDeps> = async (app, deps) => {
  const tabs: Record<string, PastTab> = {
    '/actions/query': 'past',
    '/actions/query/pending-actions': 'pending',
    '/actions/query/skipped-actions': 'skipped',
  };
  for (const [url, tab] of Object.entries(tabs)) {
    app.post(
      url,
      {
        config: { access: 'identity' },
        schema: {
          tags: ['actions'],
          querystring: ZPageQuery,
          body: ZActionFiltersBody,
          response: { 200: ZPastActionsPage },
        },
      },
      async (request) => tabActions(deps, memberOf(request), { tab, filters: request.body.filters, ...request.query }),
    );
  }

  app.get(
    '/actions/query/filters',
    { config: { access: 'identity' }, schema: { tags: ['actions'], response: { 200: ZActionFilters } } },
    async (request) => tabActionsFilters(deps, memberOf(request)),
  );

  app.get(
    '/actions/query/counts',
    { config: { access: 'identity' }, schema: { tags: ['actions'], response: { 200: ZActionCounts } } },
    async (request) => actionCounts(deps, memberOf(request)),
  );

  app.post(
    '/actions/query/recommended-actions',
    {
      config: { access: 'identity' },
      schema: {
        tags: ['actions'],
        querystring: ZPageQuery,
        body: ZActionFiltersBody,
        response: { 200: ZRecommendedActionsPage },
      },
    },
    async (request) => recommendedActions(deps, memberOf(request), { filters: request.body.filters, ...request.query }),
  );

  app.get(
    '/actions/query/recommended-actions-filters',
    {
      config: { access: 'identity' },
      schema: { tags: ['actions'], querystring: ZRecommendedActionsFiltersQuery, response: { 200: ZActionFilters } },
    },
    async (request) => recommendedActionsFilters(deps, memberOf(request), request.query),
  );

  app.post(
    '/actions/command/skip-action',
    {
      config: { access: 'write' },
      schema: { tags: ['actions'], body: ZActionIdBody, response: { 200: ZActionCommandResult } },
    },
    async (request) => skipAction(deps, memberOf(request), request.body.actionId),
  );

  app.post(
    '/actions/command/set-action-complete',
    {
      config: { access: 'write' },
      schema: { tags: ['actions'], body: ZActionIdBody, response: { 200: ZActionCommandResult } },
    },
    async (request) => completeAction(deps, memberOf(request), request.body.actionId),
  );

  // Ours (the outcome loop): the owner of an intro request that got a reply thanks the connector.
  app.post(
    '/actions/command/send-thank-you',
    {
      config: { access: 'write' },
      schema: { tags: ['actions'], body: ZSendThankYouBody, response: { 200: ZSendThankYouResult } },
    },
    async (request) => sendThankYou(deps, memberOf(request), request.body),
  );

  app.post(
    '/contacts/command/send-ask-intro-action-email',
    {
      config: { access: 'write' },
      schema: { tags: ['actions'], body: ZSendAskIntroActionBody, response: { 200: ZActionCommandResult } },
    },
    async (request) => sendAskIntroAction(deps, memberOf(request), request.body),
  );

  app.post(
    '/contacts/command/send-direct-message-action-email',
    {
      config: { access: 'write' },
      schema: { tags: ['actions'], body: ZSendDirectMessageActionBody, response: { 200: ZActionCommandResult } },
    },
    async (request) => sendDirectMessageAction(deps, memberOf(request), request.body),
  );
};
