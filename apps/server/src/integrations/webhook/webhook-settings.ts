import { z } from 'zod';

/**
 * A workspace's webhook endpoint, as kept in `integrations.settings` (kind 'webhook'); its signing
 * secret is sealed in `integrations.sealed_tokens`. `url` is what the spec's `webhookUrl` shows.
 */
export const ZWebhookSettings = z.object({
  url: z.string(),
  /** Since when every attempt has failed; cleared by a success. */
  failingSince: z.iso.datetime().nullable().default(null),
  /** Set when deliveries stopped (410 Gone, or failing for 5 days); saving the URL again clears it. */
  disabledAt: z.iso.datetime().nullable().default(null),
  disabledReason: z.string().nullable().default(null),
});
export type WebhookSettings = z.infer<typeof ZWebhookSettings>;

export function parseWebhookSettings(stored: string | null): WebhookSettings | null {
  if (stored === null) return null;
  const parsed = ZWebhookSettings.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}

/** An endpoint receives events while it has a URL and has not been disabled. */
export function webhookEnabled(settings: WebhookSettings | null): settings is WebhookSettings {
  return settings !== null && settings.url !== '' && settings.disabledAt === null;
}
