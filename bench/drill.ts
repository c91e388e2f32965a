import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { SentMailJson } from '@warmpath/sandbox-google';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import type {
  TClientsPage,
  TContactsPage,
  TImportStatus,
  TMe,
  TWarmIntroItem,
  TWarmIntroModalData,
} from '@warmpath/shared';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config.ts';
import { seedDemo } from '../apps/server/src/demo/seed-demo.ts';
import { mintAccessToken } from '../apps/server/src/idp/provider.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';
import { startSandbox } from '../apps/server/src/sandboxes.ts';
import { HEADER, row, uploadClientsFile } from './import.ts';
import { type ServerGroup, startServerGroup } from './server.ts';

/**
 * The kill -9 drill (`npm run drill`, issue 23). The server is killed as a power cut would: SIGKILL to
 * its whole process group, its embedded PostgreSQL and sandboxes with it, during a clients import (once
 * while the file arrives, once while it merges) and during intro requests' e-mails and webhook
 * deliveries; then started again on the same data directory. What must hold: an import whose file was
 * still arriving is marked failed and left nothing half-merged, one whose file was accepted is merged
 * after the restart, once, and a second upload of the same file adds no row twice;
 * every e-mail accepted before the kill is in the sender's Sent exactly once, and every webhook event
 * reaches the receiver (by its `webhook-id`, which receivers use to drop the repeats that at-least-once
 * delivery allows). The Google sandbox and the webhook receiver run outside the killed group: they are
 * the outside world, which a crash of ours does not reset. Figures go to bench/results/drill.json; the
 * process exits 1 if anything was lost or doubled.
 */
const DATA_DIR = process.env.DRILL_DATA_DIR ?? path.join(REPO_ROOT, '.data-drill');
const PORT = Number(process.env.DRILL_PORT ?? 3301);
const GOOGLE_PORT = PORT + 11;
const IMPORT_ROWS = Number(process.env.DRILL_IMPORT_ROWS ?? 300_000);
/** Rounds of intro requests, each killed at a later moment of its deliveries. */
const SEND_ROUNDS = Number(process.env.DRILL_SEND_ROUNDS ?? 3);
/** The receiver answers slowly, so that some deliveries are in flight when the server dies. */
const RECEIVER_DELAY_MS = 400;
const RECOVERY_TIMEOUT_MS = 240_000;
const DOMAIN = 'drill-company.test';
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const problems: string[] = [];
const check = (held: boolean, problem: string) => {
  if (!held) problems.push(problem);
  log(`drill: ${held ? 'ok' : 'FAILED'}: ${problem}`);
};

/** The drill's server: the outside Google sandbox, webhooks to loopback allowed, uploads unthrottled. */
const serverOptions = (googleUrl: string) => ({
  dataDir: DATA_DIR,
  port: PORT,
  env: {
    GOOGLE_SANDBOX_URL: googleUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_UPLOAD_PER_ADDRESS: '1000000/1',
    RATE_LIMIT_UPLOAD_PER_USER: '1000000/1',
  },
});

/** A customer's endpoint: answers 200 after a pause, keeps every delivery it was sent. */
async function startReceiver() {
  const received: { id: string; type: string }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { type } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
      received.push({ id: String(request.headers['webhook-id']), type });
      setTimeout(() => response.writeHead(200).end(), RECEIVER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/warmpath`,
    received,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

async function api<T>(token: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://localhost:${PORT}/api${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new workspace's admin with the small demo's network, Google connected and a webhook set. */
async function prepareWorkspace(googleUrl: string, webhookUrl: string) {
  const config = loadConfig({ DATA_DIR, PORT: String(PORT), LOG_LEVEL: 'silent', GOOGLE_SANDBOX_URL: googleUrl });
  const runtime = await openRuntime(config, log);
  try {
    const email = `admin@${DOMAIN}`;
    const token = await mintAccessToken(config, runtime.database.db, { email, name: 'Ada Admin' });
    const subject = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    const me = await api<TMe>(token, 'POST', '/users/command/create-workspace-admin', {
      idpId: subject,
      firstName: 'Ada',
      lastName: 'Admin',
      email,
      workspaceName: 'Drill',
      workspaceDomains: [DOMAIN],
      allowDomainJoin: false,
    });
    await seedDemo(runtime.database, { workspaceId: me.workspaceId, seedUserId: me.id, size: 'small', log: () => {} });

    const start = await fetch(`http://localhost:${PORT}/api/google/authenticate?redirectUrl=%2Fnetwork`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const nonce = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const callback = await approveConsent(((await start.json()) as { url: string }).url, email);
    const back = await fetch(callback, { headers: { cookie: nonce }, redirect: 'manual' });
    if (back.status !== 302) throw new Error(`the Google callback answered ${back.status}: ${await back.text()}`);
    await api(token, 'POST', '/workspace/command/set-webhook-url', { webhookUrl });
    return { token, me, email };
  } finally {
    await runtime.close();
  }
}

/** The file a client's CRM gives: IMPORT_ROWS rows, written once. */
async function importFile() {
  const file = path.join(DATA_DIR, 'clients.csv');
  const out = fs.createWriteStream(file);
  out.write(`${HEADER.join(',')}\r\n`);
  for (let n = 0; n < IMPORT_ROWS; n += 2000) {
    let chunk = '';
    for (let i = n; i < Math.min(n + 2000, IMPORT_ROWS); i++) chunk += row(i, '');
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return file;
}

/** The clients upload; resolves with the completed import, or with null if the server died under it. */
const upload = (file: string, token: string, importId: string) =>
  uploadClientsFile(PORT, file, token, importId, { mapNetwork: 'false' }).then(
    (answer) => (answer.status === 200 ? (JSON.parse(answer.body) as TImportStatus) : null),
    () => null,
  );

const clientsCount = async (token: string) =>
  (await api<TClientsPage>(token, 'GET', '/clients/query?page=1&pageSize=1')).pagination.totalCount;

/** Kills the server once the import reaches `moment`, restarts it, and checks what the import left. */
async function importKilled(
  start: () => Promise<ServerGroup>,
  server: ServerGroup,
  token: string,
  file: string,
  moment: 'receiving' | 'merging',
) {
  const before = await clientsCount(token);
  const importId = randomUUID();
  const answer = upload(file, token, importId);
  const deadline = performance.now() + 300_000;
  let seen: TImportStatus | null = null;
  for (;;) {
    const status = await api<TImportStatus>(token, 'GET', `/imports/query/${importId}`).catch(() => null);
    const reached =
      status &&
      (moment === 'receiving'
        ? status.rowsProcessed > IMPORT_ROWS / 4 && status.mergeStep === null
        : status.mergeStep !== null);
    if (reached || status?.status === 'completed' || performance.now() > deadline) {
      seen = status;
      break;
    }
    await sleep(25);
  }
  await server.kill();
  await answer;
  log(`drill: killed while ${moment} (${seen?.rowsProcessed ?? 0} rows read, merge step ${seen?.mergeStep ?? '-'})`);
  const restarted = await start();
  check(seen?.status !== 'completed', `the import was still running when killed ${moment}`);
  let mergedSecondsAfterRestart: number | null = null;
  if (moment === 'receiving') {
    // The file had not all arrived: nothing of it can be merged, and its status says so.
    const after = await api<TImportStatus>(token, 'GET', `/imports/query/${importId}`);
    check(
      after.status === 'failed' && after.error !== null,
      `the import killed ${moment} is marked failed: ${after.error}`,
    );
    const count = await clientsCount(token);
    check(
      count === before,
      `the import killed ${moment} left nothing half-merged (${count} clients, ${before} before)`,
    );
  } else {
    // The file was accepted: its merge is a job, which the restarted worker takes again once the dead
    // one's lease has lapsed, and its rows are merged once.
    const recovered = performance.now();
    let after = await api<TImportStatus>(token, 'GET', `/imports/query/${importId}`);
    while (after.status === 'merging' && performance.now() - recovered < RECOVERY_TIMEOUT_MS) {
      await sleep(500);
      after = await api<TImportStatus>(token, 'GET', `/imports/query/${importId}`);
    }
    mergedSecondsAfterRestart = Number(((performance.now() - recovered) / 1000).toFixed(1));
    const count = await clientsCount(token);
    check(
      after.status === 'completed' && count - before === after.added && after.added > 0,
      `the import killed ${moment} is merged after the restart, once (${after.status}, ${after.added} added, ${count - before} new clients, in ${mergedSecondsAfterRestart} s)`,
    );
  }
  return {
    server: restarted,
    rowsReadAtKill: seen?.rowsProcessed ?? 0,
    mergeStepAtKill: seen?.mergeStep ?? null,
    mergedSecondsAfterRestart,
  };
}

async function sentMail(googleUrl: string, from: string) {
  const answer = await fetch(`${googleUrl}/_control/sent-mail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { messages } = (await answer.json()) as { messages: SentMailJson[] };
  return messages.filter((mail) => mail.from.email.toLowerCase() === from);
}

/**
 * Intro requests for prospects not asked about before, each to a different recipient (the prospect's
 * owner, or else the connector: the weekly cap counts per recipient), never the admin themself.
 */
async function introItems(token: string, me: TMe, asked: Set<string>, count: number) {
  const page = await api<TContactsPage>(token, 'POST', '/contacts/query?page=1&pageSize=100', { filters: [] });
  const items: TWarmIntroItem[] = [];
  const recipients = new Set<string>([me.id]);
  for (const prospect of page.rows) {
    const connector = prospect.connectors.find((c) => !c.isCurrentUser && !recipients.has(c.id));
    if (!connector || asked.has(prospect.id) || !prospect.email) continue;
    const modal = await api<TWarmIntroModalData>(
      token,
      'GET',
      `/contacts/query/warm-intro-modal-data?source=connector&targetId=${prospect.id}&connectorId=${connector.id}`,
    );
    const recipient = modal.contactOwner?.id ?? connector.id;
    if (recipients.has(recipient)) continue;
    recipients.add(recipient);
    asked.add(prospect.id);
    items.push({
      connectorId: connector.id,
      prospectContactId: prospect.id,
      connectorMessage: modal.templates.connectorMessage,
      introTargetMessage: modal.templates.introTargetMessage,
      source: 'connector',
      confirmRepeat: true,
    });
    if (items.length === count) break;
  }
  return items;
}

/** Sends a round of intro requests, kills the server after `killAfterMs`, restarts it, waits for delivery. */
async function sendsKilled(
  start: () => Promise<ServerGroup>,
  server: ServerGroup,
  context: { token: string; me: TMe; email: string; googleUrl: string },
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  asked: Set<string>,
  killAfterMs: number,
) {
  const items = await introItems(context.token, context.me, asked, 20);
  const mailBefore = (await sentMail(context.googleUrl, context.email)).length;
  const hooksBefore = receiver.received.length;
  const { sent } = await api<{ sent: number }>(context.token, 'POST', '/contacts/command/send-warm-intro-email', items);
  await sleep(killAfterMs);
  const mailAtKill = (await sentMail(context.googleUrl, context.email)).length - mailBefore;
  const hooksAtKill = receiver.received.slice(hooksBefore).filter((d) => d.type === 'intro.requested').length;
  await server.kill();
  log(
    `drill: ${sent} intros accepted; killed after ${killAfterMs} ms with ${mailAtKill} e-mails and ${hooksAtKill} webhooks out`,
  );
  const restarted = await start();
  const recovered = performance.now();
  const distinctHooks = () =>
    new Set(
      receiver.received
        .slice(hooksBefore)
        .filter((d) => d.type === 'intro.requested')
        .map((d) => d.id),
    ).size;
  for (;;) {
    const mails = (await sentMail(context.googleUrl, context.email)).length - mailBefore;
    if ((mails >= sent && distinctHooks() >= sent) || performance.now() - recovered > RECOVERY_TIMEOUT_MS) break;
    await sleep(500);
  }
  const deliveredAfterS = (performance.now() - recovered) / 1000;
  // Anything sent twice would arrive within the retries' delay: wait that long before counting.
  await sleep(20_000);
  // Newest first: this round's are the first of the list.
  const all = await sentMail(context.googleUrl, context.email);
  const mails = all.slice(0, all.length - mailBefore);
  const roundMails = mails.length;
  const messageIds = new Set(mails.map((mail) => mail.messageId));
  const hooks = receiver.received.slice(hooksBefore).filter((d) => d.type === 'intro.requested');
  check(roundMails === sent, `each of the ${sent} intro e-mails is in Sent (${roundMails} there)`);
  check(messageIds.size === roundMails, `no e-mail sent twice (${roundMails - messageIds.size} repeated Message-IDs)`);
  check(
    distinctHooks() === sent,
    `each of the ${sent} intro.requested events reached the webhook (${distinctHooks()})`,
  );
  return {
    server: restarted,
    round: {
      accepted: sent,
      killAfterMs,
      emailsOutAtKill: mailAtKill,
      webhooksOutAtKill: hooksAtKill,
      allDeliveredSecondsAfterRestart: Number(deliveredAfterS.toFixed(1)),
      emailsInSent: roundMails,
      webhookDeliveries: hooks.length,
      webhookRepeats: hooks.length - distinctHooks(),
    },
  };
}

async function main() {
  await fsp.rm(DATA_DIR, { recursive: true, force: true });
  await fsp.mkdir(DATA_DIR, { recursive: true });
  await fsp.chmod(DATA_DIR, 0o755);
  const google = await startSandbox('google', { port: GOOGLE_PORT, publicUrl: undefined });
  const receiver = await startReceiver();
  const restarts: number[] = [];
  const start = async () => {
    const started = await startServerGroup(serverOptions(google.url));
    restarts.push(Number(started.startSeconds.toFixed(1)));
    return started;
  };
  let server: ServerGroup = await startServerGroup(serverOptions(google.url));
  try {
    log('drill: preparing a workspace (small demo network, Google, webhook)');
    const context = { ...(await prepareWorkspace(google.url, receiver.url)), googleUrl: google.url };
    const file = await importFile();

    const imports = [];
    for (const moment of ['receiving', 'merging'] as const) {
      const killed = await importKilled(start, server, context.token, file, moment);
      server = killed.server;
      const { rowsReadAtKill, mergeStepAtKill, mergedSecondsAfterRestart } = killed;
      imports.push({ moment, rowsReadAtKill, mergeStepAtKill, mergedSecondsAfterRestart });
    }
    const before = await clientsCount(context.token);
    const whole = await upload(file, context.token, randomUUID());
    const after = await clientsCount(context.token);
    check(whole?.status === 'completed', 'the same file uploaded again after the kills completes');
    check(
      after - before === (whole?.added ?? -1),
      `every row it added is there once (${after - before} new clients, ${whole?.added} added, ${whole?.rejected} rejected)`,
    );

    const rounds = [];
    const asked = new Set<string>();
    for (let round = 0; round < SEND_ROUNDS; round++) {
      const killed = await sendsKilled(start, server, context, receiver, asked, 50 + round * 400);
      server = killed.server;
      rounds.push(killed.round);
    }
    const result = {
      drill: 'kill -9',
      measuredAt: new Date().toISOString(),
      importRows: IMPORT_ROWS,
      imports,
      reimport: { added: whole?.added, rejected: whole?.rejected },
      sends: rounds,
      restartSeconds: restarts,
      problems,
    };
    await fsp.writeFile(
      path.join(import.meta.dirname, 'results', 'drill.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    log(JSON.stringify(result, null, 2));
  } finally {
    await server.stop().catch(() => {});
    await receiver.close();
    await google.stop();
  }
  if (problems.length > 0) {
    log(`drill: ${problems.length} problem(s):\n${problems.join('\n')}`);
    process.exit(1);
  }
  log('drill: nothing lost, nothing doubled');
}

await main();
