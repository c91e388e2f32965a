import { ZIdParams, ZOAuthCallbackQuery } from '../schemas/common.ts';
import {
  ZConnectAnswer,
  ZConnectQuery,
  ZDeliveryLog,
  ZSetWebhookUrl,
  ZSlackConnection,
  ZWebhookEndpoint,
  ZWebhookSaved,
  ZWebhookSecret,
} from '../schemas/integrations.ts';
import { defineRoutes, noContent, redirect } from './define-route.ts';

const NO_WEBHOOK = 'No webhook endpoint is configured';

/** Where the product's events go: the webhook (and, as they come, the team chat and the CRM). Admins only. */
export const integrationsApi = defineRoutes('integrations', {
  setWebhookUrl: {
    method: 'POST',
    path: '/workspace/command/set-webhook-url',
    summary: "Saves the webhook's endpoint URL, which connects it",
    description:
      'The address must be public (private, loopback and reserved ranges are refused). The first save creates the signing secret and answers it whole; later saves keep it and re-enable a disabled endpoint.',
    access: 'admin',
    body: ZSetWebhookUrl,
    responses: { 200: ZWebhookSaved },
  },
  deleteWebhookUrl: {
    method: 'DELETE',
    path: '/workspace/command/delete-webhook-url',
    summary: 'Removes the webhook endpoint and its secret',
    access: 'admin',
    responses: { 204: noContent },
    errors: { 404: NO_WEBHOOK },
  },
  getWebhook: {
    method: 'GET',
    path: '/integrations/query/webhook',
    summary: 'The webhook endpoint, or null when none is configured',
    access: 'admin',
    responses: { 200: ZWebhookEndpoint.nullable() },
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/integrations/query/webhook-deliveries',
    summary: 'The last 100 delivery attempts to the webhook, newest first',
    access: 'admin',
    responses: { 200: ZDeliveryLog },
  },
  revealWebhookSecret: {
    method: 'POST',
    path: '/integrations/command/reveal-webhook-secret',
    summary: "The webhook's whole signing secret",
    access: 'admin',
    responses: { 200: ZWebhookSecret },
    errors: { 404: NO_WEBHOOK },
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/integrations/command/rotate-webhook-secret',
    summary: 'Replaces the signing secret; every later attempt is signed with the new one',
    access: 'admin',
    responses: { 200: ZWebhookSecret },
    errors: { 404: NO_WEBHOOK },
  },
  sendTestWebhook: {
    method: 'POST',
    path: '/integrations/command/send-test-webhook',
    summary: 'Queues a webhook.test event for the endpoint alone',
    access: 'admin',
    responses: { 204: noContent },
    errors: { 404: NO_WEBHOOK },
  },
  retryDelivery: {
    method: 'POST',
    path: '/integrations/command/retry-delivery/:id',
    summary: 'Gives a failed delivery one more attempt now, with the same webhook-id',
    access: 'admin',
    params: ZIdParams,
    responses: { 204: noContent },
    errors: { 404: 'No delivery with this id' },
  },
  connectSlack: {
    method: 'POST',
    path: '/integrations/command/connect-slack',
    summary: "Where the browser goes to install the app in the team's Slack and pick its channel",
    access: 'admin',
    query: ZConnectQuery,
    responses: { 200: ZConnectAnswer },
  },
  finishSlackConnection: {
    method: 'GET',
    path: '/public/slack/callback',
    summary: "Slack's OAuth redirect: keeps the bot token (sealed) and the chosen channel",
    description: 'Slack sends the browser here, without our bearer token: the signed state says who it is.',
    access: 'public',
    query: ZOAuthCallbackQuery,
    responses: { 302: redirect('Back to the web app, on the page the connection started from') },
  },
  getSlack: {
    method: 'GET',
    path: '/integrations/query/slack',
    summary: 'The Slack connection, or null when Slack is not connected',
    access: 'admin',
    responses: { 200: ZSlackConnection.nullable() },
  },
  deleteSlackToken: {
    method: 'DELETE',
    path: '/workspace/command/delete-slack-token',
    summary: "Disconnects Slack: revokes the app's token and forgets it",
    access: 'admin',
    responses: { 204: noContent },
    errors: { 404: 'Slack is not connected' },
  },
});
