import type { TSlackConnection } from '@warmpath/shared';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import {
  deleteWorkspaceIntegration,
  findWorkspaceIntegration,
  saveWorkspaceIntegration,
} from '../../integrations/integrations.repo.ts';
import type { SlackClient } from '../../integrations/slack/slack-client.ts';
import { parseSlackSettings, type SlackSettings } from '../../integrations/slack/slack-settings.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Sealer } from '../../lib/sealing.ts';
import type { OAuthFlow } from '../../lib/signed-state.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import { safeRedirectPath } from '../sources/google/google.service.ts';

export type SlackDeps = {
  database: Database;
  sealer: Sealer;
  slack: SlackClient;
  /** The install's state, bound to the browser that started it. */
  flow: OAuthFlow;
  /** False outside local mode without Slack credentials (config.ts). */
  available: boolean;
  publicUrl: string;
};

export const SLACK_CALLBACK_PATH = '/api/public/slack/callback';
// The installing admin rides along for the audit log; a state signed before it was added has none.
const ZState = z.object({ workspaceId: z.uuid(), userId: z.uuid().optional(), redirectUrl: z.string() });

const SLACK_UNAVAILABLE =
  'Slack is not set up on this server: its operator sets SLACK_CLIENT_ID and SLACK_CLIENT_SECRET.';

const callbackUrl = (deps: SlackDeps) => `${deps.publicUrl}${SLACK_CALLBACK_PATH}`;

/**
 * The team-chat connect call (spec section 7): where to send the admin to install the app, and the
 * cookie that binds the install to this browser.
 */
export function startSlackConnection(deps: SlackDeps, member: Member, redirectUrl: string | undefined) {
  if (!deps.available) throw new AppError('NOT_CONNECTED', SLACK_UNAVAILABLE);
  const { state, cookie } = deps.flow.start({
    workspaceId: member.workspaceId,
    userId: member.userId,
    redirectUrl: safeRedirectPath(redirectUrl),
  });
  return { url: deps.slack.authorizeUrl({ state, redirectUri: callbackUrl(deps) }), cookie };
}

/**
 * The browser's return from Slack: trade the code for the bot token, keep it sealed with the channel
 * the admin picked, and send them back (`?slack=connected`, or `denied`, or `failed`; `other-browser`
 * when `cookies` lack the nonce of the browser that started the install, and nothing is connected).
 */
export async function finishSlackConnection(
  deps: SlackDeps,
  query: { code?: string; state?: string; error?: string },
  cookies: string | undefined,
): Promise<string> {
  const flow = deps.flow.finish(query.state, cookies);
  const state = ZState.safeParse(flow.status === 'invalid' ? null : flow.value);
  if (!state.success)
    throw new AppError('VALIDATION_FAILED', 'This Slack connection link has expired. Connect again from the app.');
  const back = (outcome: string) => {
    const url = new URL(state.data.redirectUrl, deps.publicUrl);
    url.searchParams.set('slack', outcome);
    return `${url.pathname}${url.search}`;
  };
  if (flow.status === 'other-browser') return back('other-browser');
  if (query.error || !query.code) return back('denied');
  const installation = await deps.slack.exchangeCode(query.code, callbackUrl(deps));
  // Without a channel (Slack sends none when the install screen offered no incoming webhook) there is
  // nowhere to post: the connection is refused rather than kept half-made.
  if (!installation.incomingWebhook) return back('failed');
  const settings: SlackSettings = {
    teamId: installation.team.id,
    teamName: installation.team.name,
    channelId: installation.incomingWebhook.channelId,
    channelName: installation.incomingWebhook.channel,
    reconnectRequired: false,
  };
  const { workspaceId } = state.data;
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    await saveWorkspaceIntegration(tx, workspaceId, 'slack', {
      settings: JSON.stringify(settings),
      sealedTokens: deps.sealer.seal(installation.accessToken),
    });
    await recordAudit(tx, workspaceId, {
      actorUserId: state.data.userId ?? null,
      action: 'source.connected',
      subject: 'Slack',
      details: { team: settings.teamName, channel: settings.channelName },
    });
  });
  return back('connected');
}

export async function getSlackConnection(deps: SlackDeps, member: Member): Promise<TSlackConnection | null> {
  const row = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findWorkspaceIntegration(tx, member.workspaceId, 'slack'),
  );
  const settings = parseSlackSettings(row?.settings ?? null);
  if (!settings) return null;
  return {
    teamName: settings.teamName,
    channelName: settings.channelName,
    reconnectRequired: settings.reconnectRequired,
  };
}

/**
 * Disconnects Slack: the token is revoked at Slack first (a token Slack already refuses counts as
 * revoked), then forgotten. Deliveries still queued end as failed when they come up.
 */
export async function deleteSlackToken(deps: SlackDeps, member: Member): Promise<void> {
  const row = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findWorkspaceIntegration(tx, member.workspaceId, 'slack'),
  );
  if (!row) throw new AppError('NOT_FOUND', 'Slack is not connected');
  if (row.sealedTokens) await deps.slack.revoke(deps.sealer.open(row.sealedTokens));
  await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    await deleteWorkspaceIntegration(tx, member.workspaceId, 'slack');
    await recordAudit(tx, member.workspaceId, {
      actorUserId: member.userId,
      action: 'source.disconnected',
      subject: 'Slack',
    });
  });
}
