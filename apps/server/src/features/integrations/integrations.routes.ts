import {
  ZDeliveryLog,
  ZIdParams,
  ZSetWebhookUrl,
  ZWebhookEndpoint,
  ZWebhookSaved,
  ZWebhookSecret,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
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

// Spec section 7, Workspace (the webhook calls), and the webhook page's log, secret and test event.
// Integrations are the workspace's: admins only.
export const integrationsRoutes: FastifyPluginAsyncZod<IntegrationsDeps> = async (app, deps) => {
  const tags = ['integrations'];
  app.post(
    '/workspace/command/set-webhook-url',
    { config: { access: 'admin' }, schema: { tags, body: ZSetWebhookUrl, response: { 200: ZWebhookSaved } } },
    async (request) => setWebhookUrl(deps, memberOf(request), request.body),
  );
  app.delete(
    '/workspace/command/delete-webhook-url',
    { config: { access: 'admin' }, schema: { tags } },
    async (request, reply) => {
      await deleteWebhookUrl(deps, memberOf(request));
      return reply.code(204).send();
    },
  );
  app.get(
    '/integrations/query/webhook',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ZWebhookEndpoint.nullable() } } },
    async (request) => getWebhook(deps, memberOf(request)),
  );
  app.get(
    '/integrations/query/webhook-deliveries',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ZDeliveryLog } } },
    async (request) => webhookDeliveryLog(deps, memberOf(request)),
  );
  app.post(
    '/integrations/command/reveal-webhook-secret',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ZWebhookSecret } } },
    async (request) => revealWebhookSecret(deps, memberOf(request)),
  );
  app.post(
    '/integrations/command/rotate-webhook-secret',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ZWebhookSecret } } },
    async (request) => rotateWebhookSecret(deps, memberOf(request)),
  );
  app.post(
    '/integrations/command/send-test-webhook',
    { config: { access: 'admin' }, schema: { tags } },
    async (request, reply) => {
      await sendTestWebhook(deps, memberOf(request));
      return reply.code(202).send();
    },
  );
  app.post(
    '/integrations/command/retry-delivery/:id',
    { config: { access: 'admin' }, schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await retryDelivery(deps, memberOf(request), request.params.id);
      return reply.code(202).send();
    },
  );
};
