import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listenHubSpotSandbox } from '@warmpath/sandbox-hubspot';
import { connect } from '@warmpath/sandbox-hubspot/testing';
import { loadConfig } from '../apps/server/src/config.ts';
import { setChosenLists } from '../apps/server/src/features/integrations/hubspot.repo.ts';
import { syncHubspotLists } from '../apps/server/src/features/integrations/hubspot-sync.ts';
import { insertUser, insertWorkspace } from '../apps/server/src/features/users/users.repo.ts';
import { hubspotAccountDeps } from '../apps/server/src/integrations/hubspot/hubspot-account.ts';
import { saveWorkspaceIntegration } from '../apps/server/src/integrations/integrations.repo.ts';
import { createSealer } from '../apps/server/src/lib/sealing.ts';
import { openRuntime } from '../apps/server/src/runtime.ts';

const LIST_NAME = 'All companies (import)';

/**
 * A 20,000-company HubSpot list synced into a workspace's exclusions, through the official client
 * against the HubSpot sandbox: at HubSpot's own pace (HUBSPOT_CALLS_PER_SECOND's default, 9 calls a
 * second, what a real portal allows), then unthrottled (the floor: the sandbox, the client and our
 * writes alone), then again with nothing changed (the 4-hourly refresh). Reports the time and the
 * round trips of each.
 */
export async function hubspot() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-bench-hubspot-'));
  await fs.chmod(dataDir, 0o755);
  const sandbox = await listenHubSpotSandbox();
  const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), () => {});
  try {
    const encryptionKey = randomBytes(32);
    const email = 'bench@hubspot-bench.test';
    const token = await connect(sandbox, email);
    const portal = sandbox.state.portalFor(email).ready();
    const list = portal.lists.find((candidate) => candidate.name === LIST_NAME);
    if (!list) throw new Error(`the sandbox has no list ${LIST_NAME}`);

    const run = async (label: string, callsPerSecond: number) => {
      const workspaceId = randomUUID();
      const config = loadConfig({
        DATA_DIR: dataDir,
        HUBSPOT_SANDBOX_URL: sandbox.url,
        HUBSPOT_CALLS_PER_SECOND: String(callsPerSecond),
      });
      const deps = hubspotAccountDeps(config, runtime.database, encryptionKey);
      await runtime.database.inWorkspace(workspaceId, async (tx) => {
        await insertWorkspace(tx, {
          id: workspaceId,
          name: label,
          domains: [`${workspaceId.slice(0, 8)}.hubspot-bench.test`],
          allowDomainJoin: false,
        });
        const userId = await insertUser(tx, {
          workspaceId,
          idpSubject: randomUUID(),
          firstName: 'B',
          lastName: 'M',
          email,
          role: 'admin',
        });
        await saveWorkspaceIntegration(tx, workspaceId, 'hubspot', {
          settings: JSON.stringify({ hubId: portal.hubId, portal: portal.name, connectedBy: userId }),
          sealedTokens: createSealer(encryptionKey).seal(
            JSON.stringify({
              accessToken: token.access_token,
              refreshToken: token.refresh_token,
              expiresAt: Date.now() + token.expires_in * 1000,
            }),
          ),
        });
        await setChosenLists(tx, workspaceId, { exclusions: [String(list.listId)] });
      });
      const timed = async () => {
        const started = performance.now();
        const counts = await syncHubspotLists(deps, workspaceId, async () => {});
        return { seconds: Number(((performance.now() - started) / 1000).toFixed(2)), ...counts };
      };
      const first = await timed();
      const refresh = await timed();
      return { callsPerSecond, first, refresh };
    };

    const atHubspotPace = await run('HubSpot pace', 9);
    const floor = await run('floor', 1000);
    return {
      list: { name: LIST_NAME, companies: list.members.size },
      atHubspotPace,
      floor,
      note: 'seconds for one sync of the list into exclusions (members 250 a call, companies 100 a call, then one transaction); refresh: the same list again, nothing changed',
    };
  } finally {
    await runtime.close();
    await sandbox.close();
  }
}
