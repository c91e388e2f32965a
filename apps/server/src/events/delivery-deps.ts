import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { googleAccountDeps } from '../features/sources/google/google-deps.ts';
import { hubspotAccountDeps } from '../integrations/hubspot/hubspot-account.ts';
import { createSlackClient } from '../integrations/slack/slack-client.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { createSealer } from '../lib/sealing.ts';
import type { DeliveryDeps } from './deliver.ts';

/** What a delivery worker needs, from the configuration: every destination's sender. */
export function deliveryDeps(
  config: Config,
  database: Database,
  encryptionKey: Buffer,
  queue: Pick<JobQueue, 'enqueueDelivery'>,
): DeliveryDeps {
  const sealer = createSealer(encryptionKey);
  return {
    database,
    queue,
    webhook: { sealer, allowPrivateTargets: config.webhookAllowPrivateTargets },
    slack: { sealer, client: createSlackClient(config.slack) },
    hubspot: hubspotAccountDeps(config, database, encryptionKey),
    email: googleAccountDeps(config, database, encryptionKey),
    publicUrl: config.publicUrl,
  };
}
