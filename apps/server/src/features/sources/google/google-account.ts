import { MESSAGES } from '@warmpath/shared';
import type { Credentials } from 'google-auth-library';
import type { Database } from '../../../db/client.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { Sealer } from '../../../lib/sealing.ts';
import { findGoogleConnection, saveGoogleConnection } from './google.repo.ts';
import type { GoogleAuth, GoogleClientFactory } from './google-client.ts';

export type GoogleAccountDeps = { database: Database; google: GoogleClientFactory; sealer: Sealer };

/**
 * Google refused our refresh token (revoked, or expired): only a new consent helps. An AppError, so a
 * request that meets it (asking for a sync) answers with its code instead of an internal error.
 */
export class GoogleReconnectRequired extends AppError {
  constructor() {
    super('CONNECTION_REVOKED', 'Google access was revoked: connect your Google account again');
    this.name = 'GoogleReconnectRequired';
  }
}

/**
 * An authorised client for a member's Google account. Refreshed tokens are sealed and saved as soon
 * as Google issues them; a refused refresh flags the connection so the member sees they must reconnect.
 */
export async function googleAccount(deps: GoogleAccountDeps, workspaceId: string, userId: string) {
  const connection = await deps.database.inWorkspace(workspaceId, (tx) =>
    findGoogleConnection(tx, workspaceId, userId),
  );
  if (!connection) throw new AppError('NOT_CONNECTED', MESSAGES.mustConnectGoogle);
  if (connection.settings.reconnectRequired) throw new GoogleReconnectRequired();

  let credentials = JSON.parse(deps.sealer.open(connection.sealedTokens)) as Credentials;
  const save = (reconnectRequired: boolean) =>
    deps.database.inWorkspace(workspaceId, (tx) =>
      saveGoogleConnection(tx, workspaceId, userId, {
        sealedTokens: deps.sealer.seal(JSON.stringify(credentials)),
        settings: { ...connection.settings, reconnectRequired },
      }),
    );

  const auth: GoogleAuth = deps.google.oauth();
  auth.setCredentials(credentials);
  auth.on('tokens', (tokens) => {
    // A refresh returns no new refresh token: keep the one we have.
    credentials = { ...credentials, ...tokens, refresh_token: tokens.refresh_token ?? credentials.refresh_token };
    void save(false);
  });

  return {
    auth,
    email: connection.settings.email,
    /** Runs a Google call; a refused refresh token marks the connection and becomes GoogleReconnectRequired. */
    async call<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        if (isInvalidGrant(error)) {
          await save(true);
          throw new GoogleReconnectRequired();
        }
        throw error;
      }
    },
  };
}

export type GoogleAccount = Awaited<ReturnType<typeof googleAccount>>;

/** The HTTP status of a failed Google call (gaxios puts it in several places). */
export function httpStatus(error: unknown): number | undefined {
  const candidate = error as { status?: number; code?: number | string; response?: { status?: number } };
  return (
    candidate.response?.status ?? candidate.status ?? (typeof candidate.code === 'number' ? candidate.code : undefined)
  );
}

function isInvalidGrant(error: unknown): boolean {
  const body = (error as { response?: { data?: { error?: unknown } } }).response?.data;
  return body?.error === 'invalid_grant' || (error instanceof Error && /invalid_grant/.test(error.message));
}
