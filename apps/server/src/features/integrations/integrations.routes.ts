import { integrationsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import {
  deleteWebhookUrl,
  getWebhook,
  type IntegrationsDeps,
  retryDelivery,
  revealWebhookSecret,
  rotateWebhookSecret,
  sendTestWebhook,
  setWebhookUrl,
  webhookDeliveryLog,
} from './integrations.service.ts';

export const integrationsRoutes: FastifyPluginAsyncZod<IntegrationsDeps> = async (app, deps) => {
  route(app, integrationsApi.setWebhookUrl, async (request) => setWebhookUrl(deps, memberOf(request), request.body));
  route(app, integrationsApi.deleteWebhookUrl, async (request, reply) => {
    await deleteWebhookUrl(deps, memberOf(request));
    return reply.code(204).send();
  });
  route(app, integrationsApi.getWebhook, async (request) => getWebhook(deps, memberOf(request)));
  route(app, integrationsApi.listWebhookDeliveries, async (request) => webhookDeliveryLog(deps, memberOf(request)));
  route(app, integrationsApi.revealWebhookSecret, async (request) => revealWebhookSecret(deps, memberOf(request)));
  route(app, integrationsApi.rotateWebhookSecret, async (request) => rotateWebhookSecret(deps, memberOf(request)));
  route(app, integrationsApi.sendTestWebhook, async (request, reply) => {
    await sendTestWebhook(deps, memberOf(request));
    return reply.code(204).send();
  });
  route(app, integrationsApi.retryDelivery, async (request, reply) => {
    await retryDelivery(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });
};
