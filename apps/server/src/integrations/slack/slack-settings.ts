import { z } from 'zod';

/**
 * A workspace's Slack connection, as kept in `integrations.settings` (kind 'slack'); the bot token is
 * sealed in `integrations.sealed_tokens`. The channel is the one the admin picked on Slack's install
 * screen.
 */
export const ZSlackSettings = z.object({
  teamId: z.string(),
  teamName: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  /** Slack refused the token (revoked, app removed): nothing is posted until an admin connects again. */
  reconnectRequired: z.boolean().default(false),
});
export type SlackSettings = z.infer<typeof ZSlackSettings>;

export function parseSlackSettings(stored: string | null): SlackSettings | null {
  if (stored === null) return null;
  const parsed = ZSlackSettings.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}

export function slackEnabled(settings: SlackSettings | null): settings is SlackSettings {
  return settings !== null && settings.channelId !== '' && !settings.reconnectRequired;
}
