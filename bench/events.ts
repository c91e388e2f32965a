import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { deliverEvent } from '../apps/server/src/events/deliver.ts';
import { deliveryDeps } from '../apps/server/src/events/delivery-deps.ts';
import { createEventRecorder } from '../apps/server/src/events/record.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { saveWorkspaceIntegration } from '../apps/server/src/integrations/integrations.repo.ts';
import { deliverWebhook } from '../apps/server/src/integrations/webhook/egress.ts';
import { newWebhookSecret, signedHeaders } from '../apps/server/src/integrations/webhook/signing.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { createSealer } from '../apps/server/src/lib/sealing.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
/** Business transactions recording events at once, as that many requests would. */
const RECORDERS = 4;
/** Concurrent POSTs when the receiver is hit directly: the worker's own concurrency. */
const DIRECT_CONCURRENCY = 8;

/**
 * Events out through the outbox to a webhook receiver on loopback: events recorded in their own
 * transactions as fast as four writers go, delivered by the worker (pg-boss, eight at a time), against
 * the same receiver hit directly with the same signed POSTs at the same concurrency (the ceiling).
 * Reports deliveries per second both ways and the worst time from a commit to the receiver's 200.
 */
export async function events() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-events-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const runtime = await openRuntime(config, () => {});
  const receiver = await startReceiver();
  const jobs = await startJobQueue(runtime.databaseUrl, () => {});
  try {
    const encryptionKey = randomBytes(32);
    const sealer = createSealer(encryptionKey);
    const secret = newWebhookSecret();
    const workspaceId = randomUUID();
    await runtime.database.inWorkspace(workspaceId, async (tx) => {
      await insertWorkspace(tx, {
        id: workspaceId,
        name: 'Bench',
        domains: ['events-bench.test'],
        allowDomainJoin: false,
      });
      await insertUser(tx, {
        workspaceId,
        idpSubject: randomUUID(),
        firstName: 'B',
        lastName: 'M',
        email: 'bench@events-bench.test',
        role: 'admin',
      });
      await saveWorkspaceIntegration(tx, workspaceId, 'webhook', {
        settings: JSON.stringify({ url: receiver.url, failingSince: null, disabledAt: null, disabledReason: null }),
        sealedTokens: sealer.seal(secret),
      });
    });

    // The ceiling: the same receiver, the same signed POSTs through the same egress, no outbox.
    const directStart = performance.now();
    await inParallel(EVENTS, DIRECT_CONCURRENCY, async (index) => {
      const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { index } });
      const result = await deliverWebhook({
        url: receiver.url,
        body,
        headers: signedHeaders({ secret, id: `msg_direct_${index}`, timestamp: new Date(), body }),
        allowPrivateTargets: true,
      });
      if (result.status !== 200) throw new Error(`direct POST answered ${result.status}: ${result.error}`);
    });
    const directSeconds = (performance.now() - directStart) / 1000;
    receiver.reset();

    const deps = deliveryDeps(config, runtime.database, encryptionKey, jobs);
    await jobs.workDeliveries((job) => deliverEvent(deps, job));
    const recorder = createEventRecorder(jobs);
    const committedAt = new Map<string, number>();
    const outboxStart = performance.now();
    await inParallel(EVENTS, RECORDERS, async (index) => {
      const name = `Teammate ${index}`;
      await runtime.database.inWorkspace(workspaceId, (tx) =>
        recorder.record(tx, workspaceId, 'teammate.joined', {
          user: { id: randomUUID(), name, email: `t${index}@events-bench.test` },
          role: 'member',
          via: 'invite',
        }),
      );
      committedAt.set(name, performance.now());
    });
    const recordSeconds = (performance.now() - outboxStart) / 1000;
    await receiver.waitFor(EVENTS, 600_000);
    const outboxSeconds = (performance.now() - outboxStart) / 1000;

    let worst = 0;
    for (const [name, arrived] of receiver.arrivals) {
      const committed = committedAt.get(name);
      if (committed !== undefined) worst = Math.max(worst, arrived - committed);
    }
    const directRate = EVENTS / directSeconds;
    const outboxRate = EVENTS / outboxSeconds;
    return {
      events: EVENTS,
      recorders: RECORDERS,
      workerConcurrency: 8,
      direct: { seconds: round(directSeconds), deliveriesPerSecond: round(directRate) },
      outbox: {
        recordSeconds: round(recordSeconds),
        seconds: round(outboxSeconds),
        deliveriesPerSecond: round(outboxRate),
        ratioToDirect: round(outboxRate / directRate, 3),
        worstCommitToReceivedMs: Math.round(worst),
        distinctIdsReceived: receiver.distinctIds(),
        requestsReceived: receiver.requests(),
      },
    };
  } finally {
    await jobs.stop();
    await receiver.close();
    await runtime.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Answers 200 at once; keeps the arrival time of each teammate's event (by name) and the ids seen. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const ids = new Set<string>();
  let requests = 0;
  let waiting: { count: number; resolve: () => void } | null = null;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      ids.add(String(request.headers['webhook-id']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { user?: { name: string } } };
      if (body.data.user) arrivals.set(body.data.user.name, performance.now());
      response.writeHead(200).end();
      if (waiting && arrivals.size >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    reset: () => {
      arrivals.clear();
      ids.clear();
      requests = 0;
    },
    distinctIds: () => ids.size,
    requests: () => requests,
    waitFor: (count: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (arrivals.size >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${count} arrived`)), timeoutMs);
        waiting = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
