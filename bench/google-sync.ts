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

    const moves = await movesAgainstTruth(runtime, workspaceId, google.sandbox.user(email).world.people);

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
      inference: { seconds: round(inferenceSeconds), inferred, detected: detected[0], moves },
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

/**
 * The mail rule's moves against the generated world's truth (who changed jobs, from which address to
 * which): how many it raised, how many of those are real (precision), and how many real moves whose
 * both addresses wrote to the mailbox it found (recall).
 */
async function movesAgainstTruth(
  runtime: Awaited<ReturnType<typeof openRuntime>>,
  workspaceId: string,
  people: readonly { email: string; formerEmail?: string }[],
) {
  const { rows } = await runtime.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ old: string; new: string }>(`select evidence->>'oldAddress' as old, evidence->>'newAddress' as new
                    from job_changes where kind = 'moved' and source = 'mail'`),
  );
  const { rows: writers } = await runtime.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ email: string }>(`select distinct p.email from interaction_participants ip
                    join people p on p.workspace_id = ip.workspace_id and p.id = ip.person_id
                   where ip.role = 'from' and p.email is not null`),
  );
  const wrote = new Set(writers.map((row) => row.email));
  const truth = new Set(
    people.flatMap((person) => (person.formerEmail ? [`${person.formerEmail} ${person.email}`] : [])),
  );
  const visible = [...truth].filter((pair) => pair.split(' ').every((address) => wrote.has(address)));
  const right = rows.filter((row) => truth.has(`${row.old} ${row.new}`)).length;
  return {
    raised: rows.length,
    real: right,
    precisionPct: rows.length ? round((100 * right) / rows.length) : null,
    visibleRealMoves: visible.length,
    recallPct: visible.length ? round((100 * right) / visible.length) : null,
  };
}

/** The sandbox's consent, as a browser would give it, exchanged for offline tokens. */
async function grantOffline(deps: ReturnType<typeof googleAccountDeps>, email: string) {
  const client = deps.google.oauth();
  const consentUrl = deps.google.authorizationUrl('bench', email);
  const redirect = await approveConsent(consentUrl, email);
  const code = redirect.searchParams.get('code') ?? '';
  return (await client.getToken(code)).tokens;
}
