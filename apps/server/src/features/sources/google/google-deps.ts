import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/client.ts';
import { createSealer } from '../../../lib/sealing.ts';
import type { GoogleAccountDeps } from './google-account.ts';
import { createGoogleClientFactory } from './google-client.ts';

/** What every use of a member's Google account needs: the clients, the database, the token sealer. */
export function googleAccountDeps(config: Config, database: Database, encryptionKey: Buffer): GoogleAccountDeps {
  return { database, google: createGoogleClientFactory(config), sealer: createSealer(encryptionKey) };
}
