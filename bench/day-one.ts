import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listenGoogleSandbox } from '@warmpath/sandbox-google';
import { approveConsent } from '@warmpath/sandbox-google/testing';
import { COMPANY_SIZES, COMPANY_TYPES, untargetedScheme } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.ts';
import { recommendActions } from '../apps/server/src/features/actions/engine.ts';
import { saveGoogleConnection } from '../apps/server/src/features/sources/google/google.repo.ts';
import { googleAccountDeps } from '../apps/server/src/features/sources/google/google-deps.ts';
import { syncGoogleAccount } from '../apps/server/src/features/sources/google/google-sync.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { recomputeAll } from '../apps/server/src/graph/graph.service.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

/**
 * Issue 21's measure: an admin with a synced sandbox mailbox and a targeting scheme that allows every
 * size, type and department; how many recommendations `recommendActions` keeps, and the shares of
 * prospects with a company name not made from the domain, a title and a size.
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
    const shares = await runtime.database.inWorkspace(workspaceId, async (tx) => {
      await tx.execute(sql`insert into targeting_schemes (workspace_id, user_id, scheme)
                           values (${workspaceId}, ${userId}, ${JSON.stringify(scheme)}::jsonb)`);
      const { rows } = await tx.execute(sql`
        select count(*)::int as prospects,
               round(100.0 * count(*) filter (where c.name is not null and lower(c.name) <> lower(split_part(c.domain, '.', 1))) / greatest(count(*), 1), 1) as named_company_pct,
               round(100.0 * count(*) filter (where p.title is not null) / greatest(count(*), 1), 1) as title_pct,
               round(100.0 * count(*) filter (where c.size_bucket is not null) / greatest(count(*), 1), 1) as size_pct,
               count(*) filter (where p.full_name ~ '[,"()]' or p.full_name = p.email)::int as raw_names
          from network_rows r join people p on p.id = r.prospect_id left join companies c on c.id = r.company_id
         where r.workspace_id = ${workspaceId}`);
      return rows[0];
    });
    const run = await recommendActions(runtime.database, workspaceId, { userId });
    return { synced, shares, run: run.users[0] };
  } finally {
    await runtime.close();
    await google.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
