import {
  ZActionCommandResult,
  ZSendAskIntroActionBody,
  ZSendDirectMessageActionBody,
  ZSendThankYouBody,
  ZSendThankYouResult,
} from '../schemas/actions.ts';
import { ZWarmIntroItems, ZWarmIntroModalData, ZWarmIntroModalQuery, ZWarmIntroSent } from '../schemas/network.ts';
import { defineRoutes } from './define-route.ts';

const sendErrors = {
  429: 'LIMIT_REACHED: the same request was sent within the repeat window, or the weekly cap is reached',
  422: 'The recipient has no e-mail address',
} as const;

/** Asking a connector for an intro, messaging a prospect, thanking a connector. */
export const introsApi = defineRoutes('intros', {
  getWarmIntroModalData: {
    method: 'GET',
    path: '/contacts/query/warm-intro-modal-data',
    summary: "The warm-intro panel's people, signals, templates and the connector's weekly count",
    access: 'read',
    query: ZWarmIntroModalQuery,
    responses: { 200: ZWarmIntroModalData },
    errors: { 404: 'The prospect is unknown, or the connector does not know them' },
  },
  sendWarmIntros: {
    method: 'POST',
    path: '/contacts/command/send-warm-intro-email',
    summary: 'Asks connectors for intros, from the network table',
    access: 'write',
    body: ZWarmIntroItems,
    responses: { 200: ZWarmIntroSent },
    errors: { ...sendErrors, 404: 'The prospect is unknown, or the connector does not know them' },
  },
  sendAskIntroActionEmail: {
    method: 'POST',
    path: '/contacts/command/send-ask-intro-action-email',
    summary: 'Sends the intro request of a recommended ask-intro action',
    access: 'write',
    body: ZSendAskIntroActionBody,
    responses: { 200: ZActionCommandResult },
    errors: { ...sendErrors, 404: 'No action with this id' },
  },
  sendDirectMessageActionEmail: {
    method: 'POST',
    path: '/contacts/command/send-direct-message-action-email',
    summary: 'Sends the message of a recommended direct-message action',
    access: 'write',
    body: ZSendDirectMessageActionBody,
    responses: { 200: ZActionCommandResult },
    errors: { ...sendErrors, 404: 'No action with this id' },
  },
  sendThankYou: {
    method: 'POST',
    path: '/actions/command/send-thank-you',
    summary: 'Thanks the connector of an intro request that got a reply (once per action)',
    access: 'write',
    body: ZSendThankYouBody,
    responses: { 200: ZSendThankYouResult },
    errors: {
      404: 'No action with this id',
      409: 'Already thanked, or nobody replied yet',
      422: 'The connector has no e-mail address',
    },
  },
});
