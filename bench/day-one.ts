import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { generateWorld, listenGoogleSandbox } from '@warmpath/sandbox-google';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import { COMPANY_SIZES, COMPANY_TYPES, untargetedScheme } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.ts';
import { recommendActions } from '../apps/server/src/features/actions/engine.ts';
import { saveGoogleConnection } from '../apps/server/src/features/sources/google/google.repo.ts';
import { googleAccountDeps } from '../apps/server/src/features/sources/google/google-deps.ts';
import { syncGoogleAccount } from '../apps/server/src/features/sources/google/google-sync.ts';
import { importConnections } from '../apps/server/src/features/sources/linkedin/linkedin.service.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { recomputeAll } from '../apps/server/src/graph/graph.service.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * A real-format LinkedIn `Connections.csv` of the mailbox owner: LinkedIn's notes above the header, most
 * e-mail addresses missing (people hide them), the Company and Position as each person wrote them, for
 * the people of the same generated world who would be connected there (those the owner has worked with,
 * not cold or personal contacts).
 */
function connectionsExport(email: string): string {
  const world = generateWorld(email, Date.now());
  const connected = world.people.filter(
    (person) => person.company !== null && ['core', 'active', 'faded', 'occasional', 'metOnce'].includes(person.kind),
  );
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = connected.map((person, n) => {
    const company = world.companies[person.company ?? 0];
    const slug = `${person.givenName}-${person.familyName}-${n}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
    return [
      person.givenName,
      person.familyName,
      `https://www.linkedin.com/in/${slug}`,
      n % 8 === 0 ? person.email : '',
      company?.name ?? '',
      person.title,
      '07 Dec 2025',
    ]
      .map(cell)
      .join(',');
  });
  return [
    'Notes:',
    '"When exporting your connection data, you may notice that some of the email addresses are missing."',
    '',
    'First Name,Last Name,URL,Email Address,Company,Position,Connected On',
    ...lines,
  ].join('\r\n');
}

/**
 * Issue 21's measure: an admin with a synced sandbox mailbox and a targeting scheme that allows every
 * size, type and department; how many recommendations `recommendActions` keeps, and the shares of
 * prospects with a company name not made from the domain, a title and a size: after the mailbox alone,
 * then after the owner's real-format LinkedIn export of the same world.
 */
export async function dayOne() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-dayone-'));
  await fs.chmod(dataDir, 0o755);
  const google = await listenGoogleSandbox();
  const config = loadConfig({ DATA_DIR: dataDir, GOOGLE_SANDBOX_URL: google.url, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, () => {});
  try {
    const email = 'admin@dayone-bench.test';
    const workspaceId = randomUUID();
    const userId = await runtime.database.inWorkspace(workspaceId, async (tx) => {
      await insertWorkspace(tx, {
        id: workspaceId,
        name: 'Day one',
        domains: ['dayone-bench.test'],
        allowDomainJoin: false,
      });
      return insertUser(tx, {
        workspaceId,
        idpSubject: randomUUID(),
        firstName: 'A',
        lastName: 'D',
        email,
        role: 'admin',
      });
    });
    const deps = googleAccountDeps(config, runtime.database, randomBytes(32));
    const client = deps.google.oauth();
    const redirect = await approveConsent(deps.google.authorizationUrl('bench', email), email);
    const { tokens } = await client.getToken(redirect.searchParams.get('code') ?? '');
    await runtime.database.inWorkspace(workspaceId, (tx) =>
      saveGoogleConnection(tx, workspaceId, userId, {
        sealedTokens: deps.sealer.seal(JSON.stringify(tokens)),
        settings: { email, reconnectRequired: false },
      }),
    );
    const synced = await syncGoogleAccount(deps, { workspaceId, userId });
    await recomputeAll(runtime.database, workspaceId, { fromEvidence: true });
    const scheme = {
      ...untargetedScheme(),
      countries: ['FR', 'GB', 'DE', 'ES', 'UA'],
      companySize: [...COMPANY_SIZES],
      companyType: [...COMPANY_TYPES],
      jobDepartments: ['Sales', 'Marketing', 'Engineering', 'Operations', 'Finance'],
    };
    await runtime.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(sql`insert into targeting_schemes (workspace_id, user_id, scheme)
                     values (${workspaceId}, ${userId}, ${JSON.stringify(scheme)}::jsonb)`),
    );
    const sharesNow = () =>
      runtime.database.inWorkspace(workspaceId, async (tx) => {
        const { rows } = await tx.execute(sql`
        select count(*)::int as prospects,
               round(100.0 * count(*) filter (where c.name is not null and lower(c.name) <> lower(split_part(c.domain, '.', 1))) / greatest(count(*), 1), 1) as named_company_pct,
               round(100.0 * count(*) filter (where p.title is not null) / greatest(count(*), 1), 1) as title_pct,
               round(100.0 * count(*) filter (where c.size_bucket is not null) / greatest(count(*), 1), 1) as size_pct,
               count(*) filter (where p.full_name ~ '[,"()]' or p.full_name = p.email)::int as raw_names,
               -- LinkedIn connections standing beside the person the mail knows by the same name.
               count(*) filter (where p.email is null and p.linkedin_url is not null and exists (
                 select 1 from people m where m.workspace_id = p.workspace_id and m.email is not null
                    and person_name_key(m.full_name) = person_name_key(p.full_name)))::int as linkedin_beside_mail
          from network_rows r join people p on p.id = r.prospect_id left join companies c on c.id = r.company_id
         where r.workspace_id = ${workspaceId}`);
        return rows[0];
      });
    const shares = await sharesNow();
    const linkedin = await importConnections(
      { database: runtime.database, jobs: { enqueueGraphRecompute: async () => {} } },
      { workspaceId, userId, role: 'admin', subject: 'bench', email },
      { file: Readable.from([connectionsExport(email)]), truncated: () => false },
    );
    await recomputeAll(runtime.database, workspaceId, { fromEvidence: true });
    const sharesWithLinkedin = await sharesNow();
    const run = await recommendActions(runtime.database, workspaceId, { userId });
    return {
      synced,
      shares,
      linkedin: { imported: linkedin.imported, rejected: linkedin.rejectedCount },
      sharesWithLinkedin,
      run: run.users[0],
    };
  } finally {
    await runtime.close();
    await google.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
