import type { TActionCounts, TMe, TRecommendedActionsPage } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyoneScheme } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';
import { googleAccountDeps } from '../sources/google/google-deps.ts';
import { runGoogleSyncJob } from '../sources/google/google-sync-runs.ts';
import { explainLatestRun, queueFirstRecommendations, recommendActions, recommendFirstActions } from './engine.ts';

// A new team's first recommendations come as soon as its data is in the network, not at the next
// morning's run: this file's workers do what main.ts's do, the morning's sweep left out.

let ctx: TestContext;
/** This file's workspaces: the graph sweep sees every workspace of the shared database. */
const ours = new Set<string>();

beforeAll(async () => {
  ctx = await createTestContext();
  const google = googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey);
  await ctx.jobs.work({
    googleSync: async (job) => {
      if (ours.has(job.workspaceId)) await runGoogleSyncJob({ ...google, jobs: ctx.jobs }, job);
    },
    graphRecompute: async ({ workspaceId }) => {
      if (!ours.has(workspaceId)) return;
      await recomputeDirty(ctx.database, workspaceId);
      await ctx.database.inWorkspace(workspaceId, (tx) => queueFirstRecommendations(tx, ctx.jobs, workspaceId));
    },
    recommendFirstActions: async (job) => {
      if (ours.has(job.workspaceId)) await recommendFirstActions(ctx.database, job);
    },
    // No workspace is ever due for the morning's run here: what appears comes from the first run.
    recommendActions: async () => {},
    workspacesDueForRecommendations: async () => [],
    hubspotSync: async () => {},
    refreshHubspotLists: async () => {},
    purgeAnonymousVisits: async () => {},
    purgeAuditLog: async () => {},
  });
});
afterAll(() => ctx.close());

const post = (token: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api${url}`, headers: bearer(token), payload });

async function recommended(token: string) {
  const response = await post(token, '/actions/query/recommended-actions?page=1&pageSize=100', { filters: [] });
  expect(response.statusCode).toBe(200);
  return response.json<TRecommendedActionsPage>();
}
const counts = async (token: string) =>
  (await ctx.app.inject({ url: '/api/actions/query/counts', headers: bearer(token) })).json<TActionCounts>();
const me = async (token: string) =>
  (await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(token) })).json<TMe>();

const everyone = everyoneScheme();

async function finishOnboarding(token: string) {
  expect((await post(token, '/users/command/set-targeted-accounts-preferences', everyone)).statusCode).toBe(200);
  const done = await post(token, '/users/command/advance-onboarding', { step: 'COMPLETED' });
  expect(done.json()).toMatchObject({ hasCompletedOnboarding: true });
}

/** Asks for the user's recommended actions until some are there. */
async function firstRecommendations(token: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await recommended(token);
    if (page.pagination.totalCount > 0 || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let team: { workspaceId: string; domain: string; adminToken: string } | null = null;

describe('the first recommendations', () => {
  it('reach a new admin once their first sync is in the network, without the morning run, and only once', async () => {
    const admin = await ctx.registerAdmin();
    const workspaceId = admin.me.workspaceId;
    ours.add(workspaceId);
    // Connecting Google queues the first sync; onboarding ends while it is still to run.
    await ctx.connectGoogle(admin.token, admin.email);
    await finishOnboarding(admin.token);
    const before = await counts(admin.token);
    expect(before).toMatchObject({ recommended: 0, preparingRecommendations: true });

    // The sync, then the graph job, then the user's first run: a whole mailbox on two shared cores.
    const page = await firstRecommendations(admin.token, 170_000);
    expect(page.pagination.totalCount).toBeGreaterThan(0);
    const after = await counts(admin.token);
    expect(after).toMatchObject({ recommended: page.pagination.totalCount, preparingRecommendations: false });

    // Asking again finds nobody due; the job run again does nothing; the morning's run adds nobody twice.
    const again = await ctx.database.inWorkspace(workspaceId, (tx) =>
      queueFirstRecommendations(tx, ctx.jobs, workspaceId),
    );
    expect(again).toEqual([]);
    expect(await recommendFirstActions(ctx.database, { workspaceId, userId: admin.me.id })).toBeNull();
    const morning = await recommendActions(ctx.database, workspaceId);
    expect(morning.users.find((user) => user.userId === admin.me.id)).toMatchObject({
      alreadyToday: page.pagination.totalCount,
      kept: 0,
    });
    const ids = (await recommended(admin.token)).rows.map((row) => row.actionId);
    expect(ids).toHaveLength(page.pagination.totalCount);
    expect(new Set(ids).size).toBe(ids.length);
    team = { workspaceId, domain: admin.domain, adminToken: admin.token };
  }, 200_000);

  it('reach a teammate at once when they finish onboarding into a network that is already built', async () => {
    if (!team) throw new Error('the admin’s workspace was not built');
    const member = await ctx.addUser(team.workspaceId, 'member', team.domain);
    // Before finishing onboarding nothing is on its way.
    expect(await counts(member.token)).toMatchObject({ recommended: 0, preparingRecommendations: false });
    // Joining marked the member for the graph: rolled in here, so finishing onboarding itself queues the run.
    await recomputeDirty(ctx.database, team.workspaceId);
    await finishOnboarding(member.token);
    const page = await firstRecommendations(member.token, 30_000);
    expect(page.pagination.totalCount).toBeGreaterThan(0);
    const memberId = (await me(member.token)).id;
    expect(page.rows.every((row) => row.recommendationUsers.some((user) => user.id === memberId))).toBe(true);
    // Finishing onboarding again changes nothing.
    await post(member.token, '/users/command/advance-onboarding', { step: 'COMPLETED' });
    expect((await counts(member.token)).preparingRecommendations).toBe(false);
    expect((await recommended(member.token)).pagination.totalCount).toBe(page.pagination.totalCount);
  }, 60_000);

  it('come for a teammate whose own mark is still to be rolled in, without waiting for the graph sweep', async () => {
    if (!team) throw new Error('the admin’s workspace was not built');
    const member = await ctx.addUser(team.workspaceId, 'member', team.domain);
    await finishOnboarding(member.token);
    expect(await counts(member.token)).toMatchObject({ recommended: 0, preparingRecommendations: true });
    // The sweep asks for a graph job once a minute: the run comes well before it. Every ask of this
    // team goes through the admin, whose weekly intro cap the first teammate used: the run keeps
    // nothing, and says why for each candidate.
    const deadline = Date.now() + 20_000;
    while ((await counts(member.token)).preparingRecommendations && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await counts(member.token)).preparingRecommendations).toBe(false);
    const log = await explainLatestRun(ctx.database, team.workspaceId, (await me(member.token)).id);
    expect(log.length).toBeGreaterThan(0);
    expect(log.map((entry) => entry.reason)).toContain('every connector is at the weekly intro cap (3)');
  }, 60_000);
});
