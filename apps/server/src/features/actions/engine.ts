import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import type { FirstRecommendationsJob, JobQueue } from '../../jobs/queue.ts';
import { networkRows } from '../network/network.repo.ts';
import { recommendationProfile } from '../network/network-filters.ts';
import { connectorLimits } from '../privacy/privacy.repo.ts';
import { findTargetingScheme } from '../targeting/targeting.repo.ts';
import { listWorkspaceIds } from '../users/users.repo.ts';
import {
  type AwaitingFirstRun,
  candidatePage,
  formerClientsNowAt,
  insertRunLog,
  introRequestsReceived,
  latestRunLog,
  markEarlierRecommendationsPending,
  openAsksToday,
  prospectsRecommendedOn,
  pruneRunLog,
  type RecommendableUser,
  type RunLogEntry,
  setRecommendationsRanOn,
  setUserRecommendationsRanOn,
  unreachableAllies,
  upsertRecommendation,
  usersAwaitingFirstRun,
  workspaceDay,
  workspaceUsers,
} from './actions.repo.ts';
import { type Candidate, decide, type RunContext } from './recommend.ts';

// The daily recommendation run (DESIGN.md section 7): per workspace, per user who acts (admins and
// members), the best candidates of the day become actions, and every candidate looked at is logged
// with why it was kept or dropped.

/** Only these roles act on recommendations; a viewer never changes anything, so gets none. */
const ACTING_ROLES: readonly string[] = ['admin', 'member'];
/** The scheduled run starts at this hour of the workspace's day. */
export const RUN_HOUR = 6;
/** Candidates read per page, and at most per user and run: enough to fill the day past many exclusions. */
const PAGE = 100;
const MAX_SCANNED = 1000;

export type UserRunSummary = {
  userId: string;
  email: string;
  kept: number;
  dropped: number;
  /** Actions the user already had today before this run (a second run the same day adds none). */
  alreadyToday: number;
  /** Why the user got no run at all. */
  note: string | null;
};
export type WorkspaceRunSummary = { workspaceId: string; day: string; users: UserRunSummary[] };

/** Each connector's load, read once per run: requests received this week plus today's planned asks. */
async function loadConnectors(
  tx: Tx,
  workspaceId: string,
  day: string,
  candidates: Candidate[],
  load: Map<string, number>,
) {
  const ids = [
    ...new Set(
      candidates.flatMap(({ row }) => [...row.connectors.map((c) => c.id), ...row.clientsConnected.map((c) => c.id)]),
    ),
  ].filter((id) => !load.has(id));
  const received = await introRequestsReceived(tx, workspaceId, ids);
  const planned = await openAsksToday(tx, workspaceId, day, ids);
  for (const id of ids) load.set(id, (received.get(id) ?? 0) + (planned.get(id) ?? 0));
}

/**
 * What every user's run reads alike, read once per run rather than once per user: at 1M prospects,
 * 200 members and 250,000 clients, the former clients' query alone was two fifths of a 9-minute run.
 */
type WorkspaceInputs = Pick<RunContext, 'weeklyIntroCap' | 'connectorCaps' | 'unreachableAllies' | 'formerClients'> & {
  model: Awaited<ReturnType<typeof loadGraphSettings>>['model'];
};

async function workspaceInputs(tx: Tx, workspaceId: string): Promise<WorkspaceInputs> {
  const { model, weeklyIntroCap } = await loadGraphSettings(tx, workspaceId);
  return {
    model,
    weeklyIntroCap,
    connectorCaps: new Map(
      [...(await connectorLimits(tx, workspaceId))].map(([id, limit]) => [
        id,
        limit.acceptsIntros ? (limit.cap ?? weeklyIntroCap) : 0,
      ]),
    ),
    unreachableAllies: await unreachableAllies(tx, workspaceId),
    formerClients: await formerClientsNowAt(tx, workspaceId),
  };
}

async function recommendForUser(
  database: Database,
  workspaceId: string,
  user: RecommendableUser,
  day: { today: string; dailyActionsPerUser: number },
  inputs: WorkspaceInputs,
): Promise<UserRunSummary> {
  const ws = workspaceId;
  const summary = { userId: user.id, email: user.email, kept: 0, dropped: 0, alreadyToday: 0, note: null };
  return database.inWorkspace(ws, async (tx) => {
    // One run per user at a time: the schedule and the CLI may overlap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`recommend:${user.id}`}))`);
    await setUserRecommendationsRanOn(tx, ws, user.id, day.today);
    const already = await prospectsRecommendedOn(tx, ws, user.id, day.today);
    summary.alreadyToday = already.length;
    const slots = day.dailyActionsPerUser - already.length;
    if (slots <= 0) return summary;

    const caller = { workspaceId: ws, userId: user.id };
    const { model, ...shared } = inputs;
    const profile = await recommendationProfile(tx, caller);
    const competitorDomains = (await findTargetingScheme(tx, ws, user.id))?.competitorDomainsToExclude ?? [];
    const context: RunContext = { ...shared, userId: user.id, now: new Date(), connectorLoad: new Map(), slots };
    const log: RunLogEntry[] = [];
    for (let offset = 0; context.slots > 0 && offset < MAX_SCANNED; offset += PAGE) {
      const page = await candidatePage(tx, {
        ...caller,
        day: day.today,
        profile,
        competitorDomains,
        offset,
        limit: PAGE,
      });
      const rows = new Map(
        (
          await networkRows(
            tx,
            caller,
            page.map((flags) => flags.prospect_id),
            model,
          )
        ).map((row) => [row.id, row]),
      );
      const candidates = page.flatMap((flags): Candidate[] => {
        const row = rows.get(flags.prospect_id);
        if (!row) return [];
        return [
          {
            row,
            accountUserIds: flags.account_users,
            crmClient: flags.crm_client,
            competitor: flags.competitor,
            lastSkippedAt: flags.last_skipped_at,
            lastContactedAt: flags.last_contacted_at,
            unknownFacts: flags.unknown_facts,
          },
        ];
      });
      await loadConnectors(tx, ws, day.today, candidates, context.connectorLoad);
      for (const decision of decide(candidates, context)) {
        const { row } = decision.candidate;
        const actionId =
          decision.outcome === 'kept'
            ? await upsertRecommendation(tx, {
                workspaceId: ws,
                day: day.today,
                generatedFor: user.id,
                prospectId: row.id,
                signals: row.signals,
                action: decision.action,
                reason: decision.reason,
              })
            : null;
        log.push({
          prospectId: row.id,
          outcome: decision.outcome,
          reason: decision.reason,
          actionType: decision.outcome === 'kept' ? decision.action.type : null,
          connectorId: decision.outcome === 'kept' ? decision.action.connectorId : null,
          actionId,
        });
        if (decision.outcome === 'kept') summary.kept += 1;
        else summary.dropped += 1;
      }
      if (page.length < PAGE) break;
    }
    await insertRunLog(tx, { workspaceId: ws, runId: randomUUID(), userId: user.id, day: day.today }, log);
    return summary;
  });
}

/**
 * Runs the day's recommendations of a workspace: for every admin and member, or for one user. Safe
 * to run again the same day: users already served keep their actions and get no more.
 */
export async function recommendActions(
  database: Database,
  workspaceId: string,
  options: { userId?: string } = {},
): Promise<WorkspaceRunSummary> {
  const ws = workspaceId;
  const { day, users, inputs } = await database.inWorkspace(ws, async (tx) => {
    const day = await workspaceDay(tx, ws);
    await markEarlierRecommendationsPending(tx, ws, day.today);
    await pruneRunLog(tx, ws, day.today);
    return { day, users: await workspaceUsers(tx, ws, options.userId), inputs: await workspaceInputs(tx, ws) };
  });
  const summaries: UserRunSummary[] = [];
  for (const user of users) {
    if (!ACTING_ROLES.includes(user.role)) {
      summaries.push({
        userId: user.id,
        email: user.email,
        kept: 0,
        dropped: 0,
        alreadyToday: 0,
        note: `a ${user.role} acts on no recommendations`,
      });
      continue;
    }
    summaries.push(await recommendForUser(database, ws, user, day, inputs));
  }
  if (!options.userId) await database.inWorkspace(ws, (tx) => setRecommendationsRanOn(tx, ws, day.today));
  return { workspaceId: ws, day: day.today, users: summaries };
}

/** Workspaces whose day has reached the run's hour without a run yet (the schedule's sweep). */
export async function workspacesDueForRecommendations(database: Database) {
  const due: string[] = [];
  for (const workspaceId of await listWorkspaceIds(database)) {
    const day = await database.inWorkspace(workspaceId, (tx) => workspaceDay(tx, workspaceId));
    if (day.ranOn !== day.today && day.hour >= RUN_HOUR) due.push(workspaceId);
  }
  return due;
}

/**
 * A user's first run waits for their own Google sync to end and for the graph job to roll everything
 * in; with no network at all there is nothing to run on yet.
 */
const isDueForFirstRun = (user: AwaitingFirstRun) => !user.syncing && !user.updating && user.hasNetwork;

/**
 * Queues the first recommendations of users who finished onboarding and whose data is now in the
 * network: called as a graph job ends, and as a user finishes onboarding (in that transaction). Users
 * still waiting for their sync or the graph are picked up by the graph job that rolls their data in;
 * one waiting for the graph alone (a new member's own mark, say, with no sync running) has that job
 * asked for now rather than at the sweep's next minute. Returns the users queued.
 */
export async function queueFirstRecommendations(
  tx: Tx,
  jobs: Pick<JobQueue, 'enqueueFirstRecommendations' | 'enqueueGraphRecompute'>,
  workspaceId: string,
  userIds?: readonly string[],
): Promise<string[]> {
  const awaiting = await usersAwaitingFirstRun(tx, workspaceId, ACTING_ROLES, userIds);
  const due = awaiting.filter(isDueForFirstRun);
  for (const user of due) await jobs.enqueueFirstRecommendations(tx, { workspaceId, userId: user.id });
  // Not while any member's sync writes: the graph job it queues as it ends rolls its evidence in, and
  // nobody is due while marks remain, so a run asked for now would only recompute people the sync is
  // still marking.
  if (awaiting.some((user) => user.updating && !user.teamSyncing)) await jobs.enqueueGraphRecompute(workspaceId);
  return due.map((user) => user.id);
}

/**
 * The worker's side: the first run of a user still due for it. Nothing when a run came first (the
 * morning's, the CLI's) or new evidence arrived meanwhile (the graph job that rolls it in queues again).
 */
export async function recommendFirstActions(
  database: Database,
  { workspaceId, userId }: FirstRecommendationsJob,
): Promise<UserRunSummary | null> {
  const [user] = await database.inWorkspace(workspaceId, (tx) =>
    usersAwaitingFirstRun(tx, workspaceId, ACTING_ROLES, [userId]),
  );
  if (!user || !isDueForFirstRun(user)) return null;
  const run = await recommendActions(database, workspaceId, { userId });
  return run.users[0] ?? null;
}

/**
 * Whether the user's first recommendations are on their way: they finished onboarding, have had no
 * run since, and their sync, the graph job or the run itself is still to come.
 */
export async function firstRecommendationsPending(tx: Tx, workspaceId: string, userId: string) {
  const [user] = await usersAwaitingFirstRun(tx, workspaceId, ACTING_ROLES, [userId]);
  return user ? user.syncing || user.updating || user.hasNetwork : false;
}

/** The user's latest run, candidate by candidate: what was kept, what was dropped, and why. */
export function explainLatestRun(database: Database, workspaceId: string, userId: string) {
  return database.inWorkspace(workspaceId, (tx) => latestRunLog(tx, workspaceId, userId));
}
