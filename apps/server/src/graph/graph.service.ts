import { type SQL, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';
import type { Pacer } from '../jobs/requests-first.ts';
import { isConnectorClient, membersCte } from './graph.sql.ts';
import type { ProximityModel } from './proximity.ts';
import { type RaisedSignalsListener, raisedBetween, signalMasks } from './raised.ts';
import { rebuildEdges, rebuildNetworkSummaries, rollUpNetworkRows, summariesBuilt, trustSql } from './recompute.ts';
import { loadGraphSettings } from './settings.ts';

/** People per incremental step: one transaction each, so reads and writers never wait long. */
export const RECOMPUTE_BATCH = 5000;

export type RecomputeReport = { people: number; edges: number; rowsWritten: number; rowsRemoved: number; ms: number };
const emptyReport = (): RecomputeReport => ({ people: 0, edges: 0, rowsWritten: 0, rowsRemoved: 0, ms: 0 });

/**
 * A batch of dirty people, read without locking them: evidence writers re-marking someone meanwhile
 * never wait for a recompute. Each mark is cleared only as it was read (`clearDirty`), so a re-mark
 * made during the batch survives it and is picked up by the next.
 */
async function readDirty(tx: Tx, workspaceId: string, limit: number) {
  const batch = await tx.execute<{ person_id: string; marked_at: string }>(sql`
    select person_id, marked_at::text as marked_at from graph_dirty
     where workspace_id = ${workspaceId} order by marked_at limit ${limit}`);
  return batch.rows;
}

async function clearDirty(tx: Tx, workspaceId: string, batch: { person_id: string; marked_at: string }[]) {
  // A mark another transaction holds is being made again (a sync's or an import's `markDirty`): skipped,
  // it is not this batch's to clear (its time changes as that commits, and the next batch takes it). Waiting
  // for it instead deadlocked with a sync whose transaction marks people in several statements, each in
  // person order but not all together (scale bench, 2026-11-26: the sync failed and was retried).
  await tx.execute(sql`
    with read as (
      select * from unnest(${sql.param(batch.map((row) => row.person_id))}::uuid[],
                           ${sql.param(batch.map((row) => row.marked_at))}::timestamptz[]) as r(person_id, marked_at)),
    locked as (
      select d.person_id from graph_dirty d join read on d.person_id = read.person_id and d.marked_at = read.marked_at
       where d.workspace_id = ${workspaceId}
       order by d.person_id
         for update of d skip locked)
    delete from graph_dirty d using locked
     where d.workspace_id = ${workspaceId} and d.person_id = locked.person_id`);
}

/** The team's trust in the given allies, by ally (absent: no link to a member, the floor). */
async function allyTrust(tx: Tx, workspaceId: string, model: ProximityModel, allies: SQL) {
  const result = await tx.execute<{ ally_id: string; trust: number }>(
    sql`with ${membersCte(workspaceId)} ${trustSql(workspaceId, model, allies)}`,
  );
  return new Map(result.rows.map((row) => [row.ally_id, Number(row.trust)]));
}

/** The tables a recompute plans its statements on. */
const GRAPH_TABLES = [
  'people',
  'interactions',
  'interaction_participants',
  'linkedin_connections',
  'employments',
  'clients',
  'edges',
  'network_rows',
  'graph_dirty',
];

/** Statistics of the graph's tables brought up to date after a bulk write, before anything plans on them. */
export const refreshGraphStatistics = (database: Database) => database.analyze(GRAPH_TABLES);

/**
 * The graph job: statistics refreshed, then the dirty people recomputed. A sync writes thousands of
 * rows at once, faster than autovacuum re-reads the statistics, and the recompute's plans depend on
 * them (seconds rather than minutes).
 */
export async function recomputeAfterWrites(
  database: Database,
  workspaceId: string,
  options: { signals?: RaisedSignalsListener; pace?: Pacer } = {},
) {
  await refreshGraphStatistics(database);
  return recomputeDirty(database, workspaceId, { ...options, asJob: true });
}

/**
 * Marks the transaction's network writes as the graph job's (migration 0070): a network copy behind
 * only by them may answer while it is patched. A recompute a member's request waits for (an erasure,
 * a new ally) is not marked: the member's next page shows it.
 */
export const writeAsGraphJob = (tx: Tx) => tx.execute(sql`select set_config('app.network_writer', 'job', true)`);

/**
 * The incremental recompute: takes the people marked dirty in batches and rebuilds only their edges
 * and rows. When one of them is a mapped ally, the team's trust in the ally may have changed, so the
 * rows of everyone the ally knows are rolled up again too. Each batch commits on its own; a crash
 * mid-batch rolls it back, and the marks it had read are still there for the next run.
 *
 * A run ends with its first batch that is not full: it has caught up with the marks made before it,
 * and those made meanwhile wait for the next run (the writer's own, or the minute's sweep), so a run
 * beside a sync does not chase the marks of every page of its mail. In the scale bench's window most
 * batches are full anyway (an import's 50,000 new people): about 23 either way (2026-11-27).
 *
 * `pace` is called between batches: the graph job's gives way to requests (jobs/requests-first.ts).
 * `asJob`: the graph job's batches are marked as its own (`writeAsGraphJob`).
 *
 * `signals` hears of the signals each batch raises: those a prospect did not have (a new meeting, a
 * visit, a job change), a new prospect's included. The first build of a workspace's network raises
 * none: everything would be new, and nothing would be news.
 */
export async function recomputeDirty(
  database: Database,
  workspaceId: string,
  {
    batch = RECOMPUTE_BATCH,
    signals,
    pace = async () => {},
    asJob = false,
  }: { batch?: number; signals?: RaisedSignalsListener; pace?: Pacer; asJob?: boolean } = {},
) {
  const report = emptyReport();
  const started = performance.now();
  let rebuildSummaries = false;
  for (;;) {
    const done = await database.inWorkspace(workspaceId, async (tx) => {
      if (asJob) await writeAsGraphJob(tx);
      const dirty = await readDirty(tx, workspaceId, batch);
      if (dirty.length === 0) return true;
      const personIds = dirty.map((row) => row.person_id);
      const { model } = await loadGraphSettings(tx, workspaceId);
      report.people += personIds.length;
      const dirtyAllies = sql`select c.person_id from clients c
                               where c.workspace_id = ${workspaceId} and c.person_id = any(${sql.param(personIds)}::uuid[])
                                 and ${isConnectorClient('c')}`;
      const trustBefore = await allyTrust(tx, workspaceId, model, dirtyAllies);
      report.edges += await rebuildEdges(tx, workspaceId, { personIds });
      const trustAfter = await allyTrust(tx, workspaceId, model, dirtyAllies);
      // Everyone an ally knows is rolled up again only when the team's trust in the ally moved: an
      // ally knows tens of thousands at scale, and most new evidence leaves the trust where it was.
      const moved = [...new Set([...trustBefore.keys(), ...trustAfter.keys()])].filter(
        (ally) => trustBefore.get(ally) !== trustAfter.get(ally),
      );
      const allyReach =
        moved.length === 0
          ? { rows: [] }
          : await tx.execute<{ prospect_id: string }>(sql`
              select distinct e.prospect_id from edges e
               where e.workspace_id = ${workspaceId} and e.connector_id = any(${sql.param(moved)}::uuid[])`);
      const rollUp = [...new Set([...personIds, ...allyReach.rows.map((row) => row.prospect_id)])];
      // Summaries follow each batch's difference; a workspace that has none yet gets them built once, at the end.
      const inStep = await summariesBuilt(tx, workspaceId);
      rebuildSummaries ||= !inStep;
      const listening = inStep && signals ? await signals.listens(tx, workspaceId) : false;
      const masksBefore = listening ? await signalMasks(tx, workspaceId, rollUp) : null;
      const rows = await rollUpNetworkRows(
        tx,
        workspaceId,
        { personIds: rollUp },
        model,
        inStep ? 'in-step' : 'rebuilt-later',
      );
      report.rowsWritten += rows.written;
      report.rowsRemoved += rows.removed;
      if (signals && masksBefore && rows.written > 0) {
        const raised = raisedBetween(masksBefore, await signalMasks(tx, workspaceId, rollUp));
        if (raised.length > 0) await signals.raised(tx, workspaceId, raised);
      }
      await clearDirty(tx, workspaceId, dirty);
      return dirty.length < batch;
    });
    if (done) break;
    await pace();
  }
  if (rebuildSummaries) await database.inWorkspace(workspaceId, (tx) => rebuildNetworkSummaries(tx, workspaceId));
  report.ms = Math.round(performance.now() - started);
  return report;
}

/**
 * The full recompute, for a changed model: rescores every edge from the evidence it keeps and
 * rebuilds every network row, in one transaction (readers keep the previous rows until it commits).
 * Only the rows that change are written, and the summaries follow their difference. With
 * `fromEvidence`, everything is rebuilt: the edges from raw evidence, batch by batch, then the rows,
 * and the summaries recounted from the rows.
 */
export async function recomputeAll(database: Database, workspaceId: string, options: { fromEvidence?: boolean } = {}) {
  const report = emptyReport();
  const started = performance.now();
  if (options.fromEvidence) {
    await database.inWorkspace(workspaceId, (tx) =>
      tx.execute(sql`insert into graph_dirty (workspace_id, person_id)
                     select workspace_id, id from people where workspace_id = ${workspaceId}
                     on conflict do nothing`),
    );
    const incremental = await recomputeDirty(database, workspaceId);
    report.people = incremental.people;
    report.edges = incremental.edges;
  }
  await database.inWorkspace(workspaceId, async (tx) => {
    // The roll-up sorts and groups every edge of the workspace at once.
    await tx.execute(sql`set local work_mem = '256MB'`);
    const { model } = await loadGraphSettings(tx, workspaceId);
    const inStep = !options.fromEvidence && (await summariesBuilt(tx, workspaceId));
    const rows = await rollUpNetworkRows(tx, workspaceId, 'all', model, inStep ? 'in-step' : 'rebuilt-later');
    report.rowsWritten += rows.written;
    report.rowsRemoved += rows.removed;
    if (!inStep) await rebuildNetworkSummaries(tx, workspaceId);
  });
  report.ms = Math.round(performance.now() - started);
  return report;
}
