import { introsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  type IntrosDeps,
  sendAskIntroAction,
  sendDirectMessageAction,
  sendThankYou,
  sendWarmIntros,
  warmIntroModalData,
} from './intros.service.ts';

// The intro calls: the network page's warm-intro panel and send, the action panels' sends (under
// /contacts, as the spec names them) and the thank-you (ours, the outcome loop). Who may call each is
// in its contract.
export const introsRoutes: FastifyPluginAsyncZod<IntrosDeps> = async (app, deps) => {
  route(app, introsApi.getWarmIntroModalData, async (request) =>
    warmIntroModalData(deps, memberOf(request), request.query),
  );

  route(app, introsApi.sendWarmIntros, async (request) => sendWarmIntros(deps, memberOf(request), request.body));

  route(app, introsApi.sendAskIntroActionEmail, async (request) =>
    sendAskIntroAction(deps, memberOf(request), request.body),
  );

  route(app, introsApi.sendDirectMessageActionEmail, async (request) =>
    sendDirectMessageAction(deps, memberOf(request), request.body),
  );

  route(app, introsApi.sendThankYou, async (request) => sendThankYou(deps, memberOf(request), request.body));
};
