import {
  OTHER_BROWSER_MESSAGES,
  type TCrmListCompaniesPage,
  type TCrmListOption,
  type THubspotCompaniesParams,
  type THubspotConnection,
  type THubspotIntegrate,
} from '@warmpath/shared';
import { z } from 'zod';
import {
  type HubspotSettings,
  hubspotAccount,
  parseHubspotSettings,
} from '../../integrations/hubspot/hubspot-account.ts';
import { HubspotCallError } from '../../integrations/hubspot/hubspot-client.ts';
import {
  deleteWorkspaceIntegration,
  findWorkspaceIntegration,
  saveWorkspaceIntegration,
} from '../../integrations/integrations.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { OAuthFlow } from '../../lib/signed-state.ts';
import type { Member } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.repo.ts';
import { safeRedirectPath } from '../sources/google/google.service.ts';
import {
  failWaitingSyncs,
  findChosenLists,
  findListCompanies,
  forgetListCompanies,
  setChosenLists,
} from './hubspot.repo.ts';
import { type HubspotSyncDeps, latestHubspotSync, requestHubspotSync } from './hubspot-sync-runs.ts';

export type HubspotDeps = HubspotSyncDeps & {
  /** The consent's state, bound to the browser that started it. */
  flow: OAuthFlow;
  publicUrl: string;
  /** False outside local mode without HubSpot credentials (config.ts). */
  available: boolean;
};

/** The web app's route HubSpot sends the browser back to (spec section 2). */
export const HUBSPOT_CALLBACK_PATH = '/hubspot-oauth-callback';
const EXPIRED = 'This HubSpot connection link has expired. Connect again from the app.';
const UNAVAILABLE =
  'HubSpot is not set up on this server: its operator sets HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.';
const ZState = z.object({ userId: z.uuid(), workspaceId: z.uuid(), redirectUrl: z.string() });

const callbackUrl = (deps: HubspotDeps) => `${deps.publicUrl}${HUBSPOT_CALLBACK_PATH}`;

/**
 * The CRM card's connect call: HubSpot's consent screen, with a state naming the user and where to
 * return, and the cookie that binds the consent to this browser.
 */
export function startHubspotConnection(deps: HubspotDeps, member: Member, redirectUrl: string | undefined) {
  if (!deps.available) throw new AppError('NOT_CONNECTED', UNAVAILABLE);
  const { state, cookie } = deps.flow.start({
    userId: member.userId,
    workspaceId: member.workspaceId,
    redirectUrl: safeRedirectPath(redirectUrl),
  });
  return { url: deps.hubspot.authorizeUrl({ state, redirectUri: callbackUrl(deps) }), cookie };
}

/**
 * `POST /hubspot/integrate`, from the callback route: the state must be ours, unexpired, started in
 * this browser (`cookies` hold its nonce) and the caller's own (a link from someone else's consent
 * connects nothing). The code becomes tokens, sealed; the chosen lists are synced in the background.
 */
export async function integrateHubspot(
  deps: HubspotDeps,
  member: Member,
  body: THubspotIntegrate,
  cookies: string | undefined,
): Promise<THubspotConnection> {
  const flow = deps.flow.finish(body.state, cookies);
  const state = ZState.safeParse(flow.status === 'invalid' ? null : flow.value);
  if (!state.success || state.data.userId !== member.userId || state.data.workspaceId !== member.workspaceId)
    throw new AppError('VALIDATION_FAILED', EXPIRED);
  if (flow.status === 'other-browser') throw new AppError('VALIDATION_FAILED', OTHER_BROWSER_MESSAGES.hubspot);
  const tokens = await deps.hubspot.exchangeCode(body.code, callbackUrl(deps)).catch((error: unknown) => {
    // A code used twice, or too late: HubSpot's 400 BAD_AUTH_CODE.
    if (error instanceof HubspotCallError && error.failure.kind !== 'rate_limited')
      throw new AppError('VALIDATION_FAILED', EXPIRED);
    throw error;
  });
  const portal = await deps.hubspot.portalOf(tokens.accessToken);
  const { workspaceId } = member;
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    const before = parseHubspotSettings((await findWorkspaceIntegration(tx, workspaceId, 'hubspot'))?.settings ?? null);
    // Another portal's list ids mean nothing in this one: the choice starts again.
    if (before && before.hubId !== portal.hubId) {
      await setChosenLists(tx, workspaceId, { customers: [], exclusions: [] });
      await forgetListCompanies(tx, workspaceId);
    }
    const settings: HubspotSettings = {
      hubId: portal.hubId,
      portal: portal.hubDomain,
      connectedBy: member.userId,
      notesEnabled: before?.notesEnabled ?? true,
      reconnectRequired: false,
    };
    await saveWorkspaceIntegration(tx, workspaceId, 'hubspot', {
      settings: JSON.stringify(settings),
      sealedTokens: deps.sealer.seal(JSON.stringify(tokens)),
    });
    await recordAudit(tx, workspaceId, {
      actorUserId: member.userId,
      action: 'source.connected',
      subject: 'HubSpot',
      details: { portal: portal.hubDomain },
    });
  });
  await requestHubspotSync(deps, workspaceId, member.userId);
  const connection = await getHubspotConnection(deps, member);
  if (!connection) throw new Error('the HubSpot connection just saved is gone');
  return connection;
}

export async function getHubspotConnection(deps: HubspotDeps, member: Member): Promise<THubspotConnection | null> {
  const row = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    findWorkspaceIntegration(tx, member.workspaceId, 'hubspot'),
  );
  const settings = parseHubspotSettings(row?.settings ?? null);
  if (!settings) return null;
  return {
    portal: settings.portal,
    reconnectRequired: settings.reconnectRequired,
    notesEnabled: settings.notesEnabled,
    sync: await latestHubspotSync(deps, member.workspaceId),
  };
}

async function requireConnection(deps: HubspotDeps, member: Member) {
  const connection = await getHubspotConnection(deps, member);
  if (!connection) throw new AppError('NOT_FOUND', 'HubSpot is not connected');
  return connection;
}

/**
 * Disconnects HubSpot: the grant is revoked at HubSpot (one it already refuses counts as revoked), the
 * tokens, the chosen lists and their companies forgotten; their people come back into the network.
 */
export async function deleteHubspotToken(deps: HubspotDeps, member: Member): Promise<void> {
  await requireConnection(deps, member);
  const { workspaceId } = member;
  try {
    const account = await hubspotAccount(deps, workspaceId);
    await deps.hubspot.revoke(account.refreshToken());
  } catch (error) {
    // Revoked already, or HubSpot unreachable: forgetting the tokens is what the admin asked for.
    if (!(error instanceof HubspotCallError || error instanceof AppError)) throw error;
  }
  await deps.database.inWorkspace(workspaceId, async (tx) => {
    await deleteWorkspaceIntegration(tx, workspaceId, 'hubspot');
    await setChosenLists(tx, workspaceId, { customers: [], exclusions: [] });
    await forgetListCompanies(tx, workspaceId);
    // A sync still waiting has nothing left to read.
    await failWaitingSyncs(tx, workspaceId, 'HubSpot was disconnected');
    await recordAudit(tx, workspaceId, {
      actorUserId: member.userId,
      action: 'source.disconnected',
      subject: 'HubSpot',
    });
  });
  await deps.jobs.enqueueGraphRecompute(workspaceId);
}

/** The portal's company lists whose name contains the search term (HubSpot answers 100 at most). */
export async function hubspotListOptions(
  deps: HubspotDeps,
  member: Member,
  searchTerm: string | undefined,
): Promise<TCrmListOption[]> {
  await requireConnection(deps, member);
  const account = await hubspotAccount(deps, member.workspaceId);
  try {
    const page = await account.call((token) => deps.hubspot.searchCompanyLists(token, searchTerm ?? ''));
    return page.lists.map((list) => ({ id: list.id, name: list.name }));
  } catch (error) {
    if (error instanceof HubspotCallError && error.failure.kind === 'rate_limited')
      throw new AppError('LIMIT_REACHED', 'HubSpot asks us to slow down: try again in a few seconds');
    throw error;
  }
}

export function hubspotCompanies(
  deps: HubspotDeps,
  member: Member,
  query: THubspotCompaniesParams,
): Promise<TCrmListCompaniesPage> {
  return deps.database.inWorkspace(member.workspaceId, (tx) => findListCompanies(tx, member.workspaceId, query));
}

export async function syncHubspotNow(deps: HubspotDeps, member: Member) {
  const connection = await requireConnection(deps, member);
  if (connection.reconnectRequired)
    throw new AppError('CONNECTION_REVOKED', 'HubSpot access was revoked: connect HubSpot again');
  return requestHubspotSync(deps, member.workspaceId, member.userId);
}

export async function setHubspotNotes(deps: HubspotDeps, member: Member, notesEnabled: boolean) {
  await requireConnection(deps, member);
  await deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const settings = parseHubspotSettings(
      (await findWorkspaceIntegration(tx, member.workspaceId, 'hubspot'))?.settings ?? null,
    );
    if (settings)
      await saveWorkspaceIntegration(tx, member.workspaceId, 'hubspot', {
        settings: JSON.stringify({ ...settings, notesEnabled }),
      });
  });
  return requireConnection(deps, member);
}

/**
 * The CRM clients page saved its lists (`PUT /workspace/command/update`): companies of dropped lists
 * stop being excluded at once; the others come with the sync this queues.
 */
export async function chooseHubspotLists(
  deps: HubspotSyncDeps,
  member: Member,
  lists: { customers?: string[] | undefined; exclusions?: string[] | undefined },
) {
  if (!lists.customers && !lists.exclusions) return;
  const { workspaceId } = member;
  const kept = await deps.database.inWorkspace(workspaceId, async (tx) => {
    await setChosenLists(tx, workspaceId, lists);
    const keep = await findChosenLists(tx, workspaceId);
    await forgetListCompanies(tx, workspaceId, keep);
    return keep;
  });
  const connected = parseHubspotSettings(
    (await deps.database.inWorkspace(workspaceId, (tx) => findWorkspaceIntegration(tx, workspaceId, 'hubspot')))
      ?.settings ?? null,
  );
  if (connected && !connected.reconnectRequired && kept.length > 0)
    await requestHubspotSync(deps, workspaceId, member.userId);
  await deps.jobs.enqueueGraphRecompute(workspaceId);
}
