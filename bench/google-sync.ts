import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listenGoogleSandbox } from '@warmpath/sandbox-google';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import { loadConfig } from '../apps/server/src/config.ts';
import { saveGoogleConnection } from '../apps/server/src/features/sources/google/google.repo.ts';
import { googleAccountDeps } from '../apps/server/src/features/sources/google/google-deps.ts';
import { syncGoogleAccount } from '../apps/server/src/features/sources/google/google-sync.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { inferDeparturesFromBounces } from '../apps/server/src/graph/departures.ts';
import { inferJobChangesFromMail } from '../apps/server/src/graph/job-changes.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * A first (full) sync of the sandbox's largest generated mailbox, what its mail implies (job changes,
 * departures from its bounces), then an incremental sync after 100 new messages: the real clients, the
 * real evidence writes, a fresh embedded PostgreSQL.
 */
export async function googleSync() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-sync-'));
  await fs.chmod(dataDir, 0o755);
  const google = await listenGoogleSandbox();
  const config = loadConfig({ DATA_DIR: dataDir, GOOGLE_SANDBOX_URL: google.url, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, () => {});
  try {
    const email = 'bench+large@acme-bench.test';
    const workspaceId = randomUUID();
    const userId = await runtime.database.inWorkspace(workspaceId, async (tx) => {
      await insertWorkspace(tx, {
        id: workspaceId,
        name: 'Bench',
        domains: ['acme-bench.test'],
        allowDomainJoin: false,
      });
      return insertUser(tx, {
        workspaceId,
        idpSubject: randomUUID(),
        firstName: 'B',
        lastName: 'M',
        email,
        role: 'admin',
      });
    });
    const deps = googleAccountDeps(config, runtime.database, randomBytes(32));
    const tokens = await grantOffline(deps, email);
    await runtime.database.inWorkspace(workspaceId, (tx) =>
      saveGoogleConnection(tx, workspaceId, userId, {
        sealedTokens: deps.sealer.seal(JSON.stringify(tokens)),
        settings: { email, reconnectRequired: false },
      }),
    );

    const mailbox = google.sandbox.stats(email);
    const started = performance.now();
    const full = await syncGoogleAccount(deps, { workspaceId, userId });
    const fullSeconds = (performance.now() - started) / 1000;

    // What the worker does next: the job changes and departures the mail implies.
    const inferenceStart = performance.now();
    const inferred = await runtime.database.inWorkspace(workspaceId, async (tx) => ({
      jobChanges: await inferJobChangesFromMail(tx, workspaceId),
      departures: await inferDeparturesFromBounces(tx, workspaceId),
    }));
    const inferenceSeconds = (performance.now() - inferenceStart) / 1000;
    const { rows: detected } = await runtime.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(`select (select count(*) from dead_addresses)::int as dead_addresses,
                         count(*) filter (where kind = 'moved')::int as moves,
                         count(*) filter (where kind = 'moved' and confidence = 'certain')::int as moves_certain,
                         count(*) filter (where kind = 'left')::int as departures,
                         count(*) filter (where kind = 'left' and confidence = 'certain')::int as departures_certain
                    from job_changes`),
    );

    google.sandbox.addMail(email, { count: 100, from: 'someone@new-company.test', to: [email] });
    const incrementalStart = performance.now();
    const incremental = await syncGoogleAccount(deps, { workspaceId, userId });
    const incrementalSeconds = (performance.now() - incrementalStart) / 1000;

    const { rows } = await runtime.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(`select (select count(*) from people)::int as people, (select count(*) from companies)::int as companies,
                         (select count(*) from interactions)::int as interactions,
                         (select count(*) from interaction_participants)::int as participants,
                         (select count(*) from address_book_entries)::int as address_book`),
    );
    return {
      mailbox,
      full: { seconds: round(fullSeconds), messagesPerSecond: Math.round(full.messages / fullSeconds), counts: full },
      inference: { seconds: round(inferenceSeconds), inferred, detected: detected[0] },
      incremental: { seconds: round(incrementalSeconds), counts: incremental },
      evidence: rows[0],
    };
  } finally {
    await runtime.close();
    await google.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The sandbox's consent, as a browser would give it, exchanged for offline tokens. */
async function grantOffline(deps: ReturnType<typeof googleAccountDeps>, email: string) {
  const client = deps.google.oauth();
  const consentUrl = deps.google.authorizationUrl('bench', email);
  const redirect = await approveConsent(consentUrl, email);
  const code = redirect.searchParams.get('code') ?? '';
  return (await client.getToken(code)).tokens;
}
