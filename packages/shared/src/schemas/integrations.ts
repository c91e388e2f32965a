import { z } from 'zod';
import { EVENT_TYPES } from '../events.ts';
import { ZListQuery } from './lists.ts';
import { ZPagination } from './network.ts';
import { ZSyncRun } from './users.ts';

/** POST /workspace/command/set-webhook-url (spec section 7); a blank URL cannot be saved (section 5). */
export const ZSetWebhookUrl = z.object({ webhookUrl: z.string().trim().min(1, 'The endpoint URL is required') });
export type TSetWebhookUrl = z.infer<typeof ZSetWebhookUrl>;

/** The workspace's webhook endpoint as the admin sees it: never the whole secret, only its start. */
export const ZWebhookEndpoint = z.object({
  url: z.string(),
  /** `whsec_` and the first characters, to tell secrets apart. */
  secretPreview: z.string(),
  /** Null while deliveries go out; why they stopped otherwise (410 Gone, 5 days of failures). */
  disabledReason: z.string().nullable(),
  /** Since when every attempt has failed, if they do. */
  failingSince: z.iso.datetime().nullable(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** Answered when the secret is created (first save), rotated or revealed: the whole secret. */
export const ZWebhookSecret = z.object({ secret: z.string().startsWith('whsec_') });
export type TWebhookSecret = z.infer<typeof ZWebhookSecret>;

/** One attempt in the webhook page's delivery log. */
export const ZDeliveryAttempt = z.object({
  id: z.uuid(),
  deliveryId: z.uuid(),
  eventType: z.enum(EVENT_TYPES),
  attemptedAt: z.iso.datetime(),
  /** The endpoint's HTTP status; null when it was never reached. */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int().min(0),
  error: z.string().nullable(),
  /** When the delivery is tried again; null when it was delivered or has given up. */
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveryStatus: z.enum(['pending', 'delivered', 'failed']),
});
export type TDeliveryAttempt = z.infer<typeof ZDeliveryAttempt>;
export const ZDeliveryLog = z.object({
  attempts: z.array(ZDeliveryAttempt),
  /** Deliveries queued for the endpoint and not tried yet: they have no attempt to list. */
  waiting: z.number().int().min(0),
});
export type TDeliveryLog = z.infer<typeof ZDeliveryLog>;

/** How many attempts the webhook page lists. */
export const DELIVERY_LOG_SIZE = 100;

/** What saving the URL answers: the endpoint, and the secret when this save created it. */
export const ZWebhookSaved = z.object({ endpoint: ZWebhookEndpoint, secret: z.string().nullable() });
export type TWebhookSaved = z.infer<typeof ZWebhookSaved>;

/** The team-chat connection as the Integrations page shows it. */
export const ZSlackConnection = z.object({
  teamName: z.string(),
  channelName: z.string(),
  /** Slack refused the token (the app was removed or the token revoked): connect again. */
  reconnectRequired: z.boolean(),
});
export type TSlackConnection = z.infer<typeof ZSlackConnection>;

export const ZConnectQuery = z.object({ redirectUrl: z.string().max(2000).optional() });
export const ZConnectAnswer = z.object({ url: z.string() });

// HubSpot (the CRM card, the CRM clients page) ------------------------------------------------------

/** `POST /hubspot/integrate`: what the callback route read from its query. */
export const ZHubspotIntegrate = z.object({ code: z.string().min(1).max(2000), state: z.string().min(1).max(4000) });
export type THubspotIntegrate = z.infer<typeof ZHubspotIntegrate>;

/** The HubSpot connection, as the CRM card and the CRM clients page show it. */
export const ZHubspotConnection = z.object({
  /** The portal's domain (`acme.hubspot.com`) or id. */
  portal: z.string(),
  /** HubSpot refused the grant (the app was uninstalled, the refresh token revoked): connect again. */
  reconnectRequired: z.boolean(),
  /** Whether intros and messages are written back as notes on the HubSpot contact. */
  notesEnabled: z.boolean(),
  /** The last sync of the chosen lists' companies, or null before the first. */
  sync: ZSyncRun.nullable(),
});
export type THubspotConnection = z.infer<typeof ZHubspotConnection>;

/** Spec section 3, CRM list option. */
export const ZCrmListOption = z.object({ id: z.string(), name: z.string() });
export type TCrmListOption = z.infer<typeof ZCrmListOption>;
export const ZCrmListOptionsQuery = z.object({ searchTerm: z.string().trim().max(200).optional() });

/** `GET /hubspot/query`: a page of the chosen lists' companies (`listIds`, comma-separated or repeated). */
export const ZHubspotCompaniesQuery = ZListQuery.extend({
  listIds: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((ids) =>
      (Array.isArray(ids) ? ids : (ids ?? '').split(',')).map((id) => id.trim()).filter((id) => id !== ''),
    ),
});
export type THubspotCompaniesQuery = z.input<typeof ZHubspotCompaniesQuery>;
export type THubspotCompaniesParams = z.output<typeof ZHubspotCompaniesQuery>;
export const ZCrmListCompany = z.object({
  id: z.string(),
  companyName: z.string(),
  companyDomain: z.string().nullable(),
});
export type TCrmListCompany = z.infer<typeof ZCrmListCompany>;
export const ZCrmListCompaniesPage = z.object({ rows: z.array(ZCrmListCompany), pagination: ZPagination });
export type TCrmListCompaniesPage = z.infer<typeof ZCrmListCompaniesPage>;

export const ZHubspotNotesSetting = z.object({ notesEnabled: z.boolean() });
