// A delivery worker in its own process, as `npm start` runs one. With KILL_AT it kills itself
// (SIGKILL: no handler runs, nothing is flushed or recorded) the first time any attempt reaches that
// step. The kill tests start one on a test context's queues, then another to finish what it left.

import { loadConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { deliverEvent } from '../src/events/deliver.ts';
import { deliveryDeps } from '../src/events/delivery-deps.ts';
import type { DeliveryStep } from '../src/integrations/attempt.ts';
import { startJobQueue } from '../src/jobs/queue.ts';

const need = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const killAt = (process.env.KILL_AT || null) as DeliveryStep | null;
const databaseUrl = need('DATABASE_URL');
const config = loadConfig(JSON.parse(need('WORKER_CONFIG')) as Record<string, string>);
const database = createDatabase(databaseUrl, { max: 4 });
const jobs = await startJobQueue(databaseUrl, () => {}, {
  schema: need('JOBS_SCHEMA'),
  recovery: JSON.parse(need('DELIVERY_RECOVERY')),
});
const deps = deliveryDeps(config, database, Buffer.from(need('ENCRYPTION_KEY'), 'hex'), jobs);
await jobs.workDeliveries((job) =>
  deliverEvent(
    {
      ...deps,
      at: async (step) => {
        if (step === killAt) process.kill(process.pid, 'SIGKILL');
      },
    },
    job,
  ),
);
process.stdout.write('working\n');
