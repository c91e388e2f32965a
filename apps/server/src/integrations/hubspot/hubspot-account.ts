import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { createSealer, type Sealer } from '../../lib/sealing.ts';
import { findWorkspaceIntegration, saveWorkspaceIntegration } from '../integrations.repo.ts';
import { createHubspotClient, HubspotCallError, type HubspotClient, type HubspotTokens } from './hubspot-client.ts';

/**
 * A workspace's HubSpot connection, as kept in `integrations.settings` (kind 'hubspot'); the tokens are
 * sealed in `integrations.sealed_tokens`.
 */
export const ZHubspotSettings = z.object({
  hubId: z.number(),
  /** The portal's domain, to name it on the card. */
  portal: z.string(),
  /** The admin who connected it: the scheduled syncs run in their name. */
  connectedBy: z.uuid(),
  /** Whether intros, messages and replies are written back as notes on the HubSpot contact. */
  notesEnabled: z.boolean().default(true),
  /** HubSpot refused the grant (app uninstalled, refresh token revoked): nothing is read or written until an admin connects again. */
  reconnectRequired: z.boolean().default(false),
});
export type HubspotSettings = z.infer<typeof ZHubspotSettings>;

export function parseHubspotSettings(stored: string | null): HubspotSettings | null {
  if (stored === null) return null;
  const parsed = ZHubspotSettings.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}

export function hubspotEnabled(settings: HubspotSettings | null): settings is HubspotSettings {
  return settings !== null && !settings.reconnectRequired;
}

export type HubspotAccountDeps = { database: Database; sealer: Sealer; hubspot: HubspotClient };

export function hubspotAccountDeps(config: Config, database: Database, encryptionKey: Buffer): HubspotAccountDeps {
  return { database, sealer: createSealer(encryptionKey), hubspot: createHubspotClient(config.hubspot) };
}

/** HubSpot refused the grant: only a new connection helps. */
export class HubspotReconnectRequired extends AppError {
  constructor() {
    super('CONNECTION_REVOKED', 'HubSpot access was revoked: connect HubSpot again');
    this.name = 'HubspotReconnectRequired';
  }
}

/** An access token is refreshed this long before HubSpot's expiry (30 minutes), so no call meets a dead one. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * The workspace's HubSpot access: runs calls with a live access token, refreshing it before it expires
 * (and once more when HubSpot says it expired anyway). Refreshed tokens are sealed and saved at once; a
 * refused grant marks the connection 'Reconnect' and becomes `HubspotReconnectRequired`.
 */
export async function hubspotAccount(deps: HubspotAccountDeps, workspaceId: string) {
  const row = await deps.database.inWorkspace(workspaceId, (tx) =>
    findWorkspaceIntegration(tx, workspaceId, 'hubspot'),
  );
  const settings = parseHubspotSettings(row?.settings ?? null);
  if (!row?.sealedTokens || !settings) throw new AppError('NOT_FOUND', 'HubSpot is not connected');
  if (settings.reconnectRequired) throw new HubspotReconnectRequired();
  let tokens = JSON.parse(deps.sealer.open(row.sealedTokens)) as HubspotTokens;

  const markRevoked = () =>
    deps.database.inWorkspace(workspaceId, (tx) =>
      saveWorkspaceIntegration(tx, workspaceId, 'hubspot', {
        settings: JSON.stringify({ ...settings, reconnectRequired: true }),
      }),
    );
  const refresh = async () => {
    try {
      tokens = await deps.hubspot.refresh(tokens.refreshToken);
    } catch (error) {
      if (error instanceof HubspotCallError && error.failure.kind === 'revoked') {
        await markRevoked();
        throw new HubspotReconnectRequired();
      }
      throw error;
    }
    await deps.database.inWorkspace(workspaceId, (tx) =>
      saveWorkspaceIntegration(tx, workspaceId, 'hubspot', {
        settings: JSON.stringify(settings),
        sealedTokens: deps.sealer.seal(JSON.stringify(tokens)),
      }),
    );
  };

  return {
    settings,
    /** The refresh token, to revoke the grant on disconnect. */
    refreshToken: () => tokens.refreshToken,
    async call<T>(work: (accessToken: string) => Promise<T>): Promise<T> {
      if (tokens.expiresAt - REFRESH_MARGIN_MS <= Date.now()) await refresh();
      try {
        return await work(tokens.accessToken);
      } catch (error) {
        if (!(error instanceof HubspotCallError)) throw error;
        if (error.failure.kind === 'expired') {
          await refresh();
          return work(tokens.accessToken);
        }
        if (error.failure.kind === 'revoked') {
          await markRevoked();
          throw new HubspotReconnectRequired();
        }
        throw error;
      }
    },
  };
}

export type HubspotAccount = Awaited<ReturnType<typeof hubspotAccount>>;
