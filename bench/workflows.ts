import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { listenSlackSandbox } from '@warmpath/sandbox-slack';
import { submitConsent } from '@warmpath/sandbox-slack/testing';
import { signalBit } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.ts';
import { seedDemo } from '../apps/server/src/demo/seed-demo.ts';
import { deliverEvent } from '../apps/server/src/events/deliver.ts';
import { deliveryDeps } from '../apps/server/src/events/delivery-deps.ts';
import { createEventRecorder } from '../apps/server/src/events/record.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { workflowEngine } from '../apps/server/src/features/workflows/workflow-engine.ts';
import { insertWorkflow } from '../apps/server/src/features/workflows/workflows.repo.ts';
import { recomputeDirty } from '../apps/server/src/graph/graph.service.ts';
import { saveWorkspaceIntegration } from '../apps/server/src/integrations/integrations.repo.ts';
import { createSlackClient } from '../apps/server/src/integrations/slack/slack-client.ts';
import { newWebhookSecret } from '../apps/server/src/integrations/webhook/signing.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { createSealer } from '../apps/server/src/lib/sealing.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 100);

/**
 * How long after the graph job commits a raised signal a workflow's pushes arrive: on the small demo
 * workspace, an active agent listening to website visits pushes to Slack (the sandbox, through the
 * official client) and to a webhook on loopback. One visit at a time, each through the graph job as
 * a real one goes; the time is from the job's commit to the receiver's arrival (Slack: the posted
 * message's timestamp), with the delivery worker running as in production.
 */
export async function workflows() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-workflows-'));
  await fs.chmod(dataDir, 0o755);
  const slack = await listenSlackSandbox({ port: 0 });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SLACK_SANDBOX_URL: slack.url,
  });
  const runtime = await openRuntime(config, () => {});
  const receiver = await startReceiver();
  const jobs = await startJobQueue(runtime.databaseUrl, () => {});
  try {
    const encryptionKey = randomBytes(32);
    const sealer = createSealer(encryptionKey);
    const ws = randomUUID();
    const userId = await runtime.database.inWorkspace(ws, async (tx) => {
      await insertWorkspace(tx, { id: ws, name: 'Bench', domains: ['workflows-bench.test'], allowDomainJoin: false });
      return insertUser(tx, {
        workspaceId: ws,
        idpSubject: randomUUID(),
        firstName: 'Bench',
        lastName: 'Admin',
        email: 'admin@workflows-bench.test',
        role: 'admin',
      });
    });
    await seedDemo(runtime.database, { workspaceId: ws, seedUserId: userId, size: 'small', log: () => {} });

    // Slack connected as an admin connects it: the install screen, then the code traded for the token.
    const slackClient = createSlackClient(config.slack);
    const redirectUri = `${config.publicUrl}/api/public/slack/callback`;
    const callback = await submitConsent(slack, slackClient.authorizeUrl({ state: 'bench', redirectUri }), {
      channel: '#sales',
    });
    const installation = await slackClient.exchangeCode(callback.searchParams.get('code') ?? '', redirectUri);
    await runtime.database.inWorkspace(ws, async (tx) => {
      await saveWorkspaceIntegration(tx, ws, 'slack', {
        settings: JSON.stringify({
          teamId: installation.team.id,
          teamName: installation.team.name,
          channelId: installation.incomingWebhook?.channelId,
          channelName: installation.incomingWebhook?.channel,
          reconnectRequired: false,
        }),
        sealedTokens: sealer.seal(installation.accessToken),
      });
      await saveWorkspaceIntegration(tx, ws, 'webhook', {
        settings: JSON.stringify({ url: receiver.url, failingSince: null, disabledAt: null, disabledReason: null }),
        sealedTokens: sealer.seal(newWebhookSecret()),
      });
      await insertWorkflow(tx, {
        workspaceId: ws,
        name: 'Visitor',
        description: 'Anyone on the website',
        active: true,
        signals: ['VISITED_WEBSITE'],
        filters: { contactLevel: [], companyLevel: { filters: [], targetedAccounts: false } },
        engagements: ['PUSH_TO_SLACK', 'PUSH_TO_WEBHOOK'],
        profileUserId: userId,
      });
    });
    const prospects = await runtime.database.inWorkspace(ws, async (tx) => {
      const rows = await tx.execute<{ id: string }>(sql`
        select prospect_id as id from network_rows
         where workspace_id = ${ws} and signal_mask & ${signalBit('VISITED_WEBSITE')} = 0
         order by prospect_id limit ${SIGNALS}`);
      return rows.rows.map((row) => row.id);
    });

    const deps = deliveryDeps(config, runtime.database, encryptionKey, jobs);
    await jobs.workDeliveries((job) => deliverEvent(deps, job));
    const listener = workflowEngine({ events: createEventRecorder(jobs), publicUrl: config.publicUrl });
    const committedAt = new Map<string, number>();
    for (const prospectId of prospects) {
      await runtime.database.inWorkspace(ws, async (tx) => {
        await tx.execute(sql`insert into website_events (workspace_id, person_id, path, occurred_at)
                             values (${ws}, ${prospectId}, '/features', now())`);
        await tx.execute(sql`insert into graph_dirty (workspace_id, person_id) values (${ws}, ${prospectId})
                             on conflict do nothing`);
      });
      await recomputeDirty(runtime.database, ws, { signals: listener });
      committedAt.set(prospectId, Date.now());
    }
    await receiver.waitFor(prospects.length, 120_000);
    await waitUntil(() => slack.state.messages().length >= prospects.length, 120_000);

    const latencies = (arrivals: Map<string, number>) =>
      [...arrivals].map(([id, at]) => at - (committedAt.get(id) ?? at)).sort((a, b) => a - b);
    const slackArrivals = new Map(
      slack.state.messages().flatMap((message): [string, number][] => {
        const id = prospects.find((candidate) => JSON.stringify(message.blocks).includes(candidate));
        return id ? [[id, Number(message.ts) * 1000]] : [];
      }),
    );
    return {
      signals: prospects.length,
      slack: summary(latencies(slackArrivals)),
      webhook: summary(latencies(receiver.arrivals)),
    };
  } finally {
    await jobs.stop();
    await receiver.close();
    await slack.close();
    await runtime.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function summary(sorted: number[]) {
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
  return {
    arrived: sorted.length,
    medianMs: Math.round(at(0.5)),
    p95Ms: Math.round(at(0.95)),
    worstMs: Math.round(at(1)),
  };
}

async function waitUntil(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Answers 200 at once; keeps each workflow push's arrival time, by prospect. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { prospect?: { id: string } } };
      if (body.data.prospect) arrivals.set(body.data.prospect.id, Date.now());
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    waitFor: (count: number, timeoutMs: number) => waitUntil(() => arrivals.size >= count, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
