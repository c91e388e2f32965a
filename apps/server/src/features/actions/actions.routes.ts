import { actionsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import type { ActionTab } from './actions.repo.ts';
import {
  type ActionsDeps,
  actionCounts,
  completeAction,
  recommendedActions,
  recommendedActionsFilters,
  skipAction,
  tabActions,
  tabActionsFilters,
} from './actions.service.ts';

// The Actions calls of spec section 7. The sends of the action panels and the thank-you are intros'
// (intros.routes.ts). Who may call each is in its contract.
export const actionsRoutes: FastifyPluginAsyncZod<ActionsDeps> = async (app, deps) => {
  const tabs = [
    [actionsApi.listPastActions, 'past'],
    [actionsApi.listPendingActions, 'pending'],
    [actionsApi.listSkippedActions, 'skipped'],
  ] as const satisfies readonly (readonly [unknown, ActionTab])[];
  for (const [contract, tab] of tabs) {
    route(app, contract, async (request) =>
      tabActions(deps, memberOf(request), { tab, filters: request.body.filters, ...request.query }),
    );
  }

  route(app, actionsApi.listPastActionFilters, async (request) => tabActionsFilters(deps, memberOf(request)));

  route(app, actionsApi.getActionCounts, async (request) => actionCounts(deps, memberOf(request)));

  route(app, actionsApi.listRecommendedActions, async (request) =>
    recommendedActions(deps, memberOf(request), { filters: request.body.filters, ...request.query }),
  );

  route(app, actionsApi.listRecommendedActionFilters, async (request) =>
    recommendedActionsFilters(deps, memberOf(request), request.query),
  );

  route(app, actionsApi.skipAction, async (request) => skipAction(deps, memberOf(request), request.body.actionId));

  route(app, actionsApi.completeAction, async (request) =>
    completeAction(deps, memberOf(request), request.body.actionId),
  );
};
