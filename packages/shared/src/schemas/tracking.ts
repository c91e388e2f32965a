import { z } from 'zod';

// Website tracking (issue 19): what the snippet sends to `POST /api/public/track`, and the admin's
// 'Website tracking' section of Admin › Workspace.

/** The most events one request may carry; the snippet sends a page view at a time, or a small queue. */
export const TRACK_BATCH_MAX = 50;
/** The query parameter the links of our e-mails carry: a signed token naming the recipient. */
export const VISIT_TOKEN_PARAM = 'wp_t';

const ZAnonymousId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** A page view, or the visitor saying who they are (`warmpath.identify(email)` on the customer's own form). */
export const ZTrackEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('page'),
    anonymousId: ZAnonymousId,
    /** The page's full address; only its path is kept. */
    url: z.url({ protocol: /^https?$/ }).max(2000),
    referrer: z.string().max(2000).nullish(),
    /** The `wp_t` of the address a link from our e-mails brought the visitor to. */
    token: z.string().max(1000).nullish(),
    /** When the browser saw it; the server keeps it only within a few minutes of its own clock. */
    occurredAt: z.iso.datetime().optional(),
  }),
  z.object({
    type: z.literal('identify'),
    anonymousId: ZAnonymousId,
    email: z.email().max(320),
    occurredAt: z.iso.datetime().optional(),
  }),
]);
export type TTrackEvent = z.infer<typeof ZTrackEvent>;

export const ZTrackBatch = z.object({
  /** The workspace's public key, from its snippet: no secret. */
  key: z.string().min(1).max(100),
  events: z.array(ZTrackEvent).min(1).max(TRACK_BATCH_MAX),
});
export type TTrackBatch = z.infer<typeof ZTrackBatch>;

/** The 'Website tracking' section as the admin edits it. */
export const ZTrackingSettingsUpdate = z.object({
  /** `https://www.acme.com`: the sites allowed to send events. */
  origins: z.array(z.url().max(200)).max(20),
  /** Path globs of the pricing page (`*`: any characters), e.g. `/pricing*`. */
  pricingPatterns: z.array(z.string().trim().min(1).max(200).startsWith('/')).min(1).max(20),
  manyPages: z.number().int().min(2).max(100),
  manyPagesDays: z.number().int().min(1).max(30),
});
export type TTrackingSettingsUpdate = z.infer<typeof ZTrackingSettingsUpdate>;

export const ZTrackingSettings = ZTrackingSettingsUpdate.extend({
  /** The workspace's public key, in the snippet. */
  key: z.string(),
  /** The snippet to paste before `</head>`, with the key and this server's address. */
  snippet: z.string(),
});
export type TTrackingSettings = z.infer<typeof ZTrackingSettings>;

/** One of the last events received, for the live view. */
export const ZTrackedEvent = z.object({
  id: z.uuid(),
  path: z.string(),
  occurredAt: z.string(),
  /** The identified visitor's name, or null for an anonymous browser. */
  visitor: z.string().nullable(),
});
export type TTrackedEvent = z.infer<typeof ZTrackedEvent>;
