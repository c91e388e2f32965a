import type { SignalType, TWorkflow } from '@warmpath/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { type WorkflowRunPush, workflowRuns, workflows } from '../../db/schema/index.ts';
import { compileFilters } from '../network/network-filters.ts';

export type WorkflowRow = typeof workflows.$inferSelect;

/** The run of the same (workflow, prospect, signal) within this many days is the same run. */
export const REFIRE_AFTER_DAYS = 30;

/** No member: filters about someone's profile (ICP, personas, my accounts) then match nobody. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

export const toWorkflow = (row: WorkflowRow): TWorkflow => ({
  id: row.id,
  name: row.name,
  description: row.description,
  active: row.active,
  signals: row.signals,
  filters: row.filters,
  engagements: row.engagements,
});

export async function findWorkflows(tx: Tx, workspaceId: string, options: { activeOnly?: boolean } = {}) {
  return tx
    .select()
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), options.activeOnly ? eq(workflows.active, true) : undefined))
    .orderBy(workflows.createdAt, workflows.id);
}

export async function findWorkflow(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), eq(workflows.id, id)));
  return row ?? null;
}

export async function insertWorkflow(tx: Tx, workflow: typeof workflows.$inferInsert) {
  const [row] = await tx.insert(workflows).values(workflow).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function setWorkflowActive(tx: Tx, workspaceId: string, id: string, active: boolean) {
  const updated = await tx
    .update(workflows)
    .set({ active })
    .where(and(eq(workflows.workspaceId, workspaceId), eq(workflows.id, id)))
    .returning({ id: workflows.id });
  return updated.length > 0;
}

/**
 * Of the given prospects, those the workflow's filters match, with the network table's own filter
 * rules: each contact level's filters all hold (one level is enough), and the company level's.
 */
export async function matchingProspects(tx: Tx, workspaceId: string, workflow: WorkflowRow, prospectIds: string[]) {
  if (prospectIds.length === 0) return new Set<string>();
  const caller = { workspaceId, userId: workflow.profileUserId ?? NOBODY };
  const { contactLevel, companyLevel } = workflow.filters;
  const levels = await Promise.all(
    contactLevel.map(async (items) => (await compileFilters(tx, caller, items)).where()),
  );
  const company = (await compileFilters(tx, caller, companyLevel.filters)).where();
  const rows = await tx.execute<{ prospect_id: string }>(sql`
    select r.prospect_id from network_rows r
     where r.workspace_id = ${workspaceId} and r.prospect_id = any(${sql.param(prospectIds)}::uuid[])
       and ${levels.length > 0 ? sql`(${sql.join(levels, sql` or `)})` : sql`true`}
       and ${company}
       and ${
         companyLevel.targetedAccounts
           ? sql`exists (select 1 from accounts a where a.workspace_id = ${workspaceId} and a.company_id = r.company_id)`
           : sql`true`
       }`);
  return new Set(rows.rows.map((row) => row.prospect_id));
}

/**
 * Claims the run of a (workflow, prospect, signal): its id, or null when it already fired within
 * REFIRE_AFTER_DAYS. The unique key makes a rerun of the graph job, or two at once, fire it once.
 */
export async function claimRun(tx: Tx, workspaceId: string, workflowId: string, prospectId: string, type: SignalType) {
  const claimed = await tx.execute<{ id: string }>(sql`
    insert into workflow_runs as w (workspace_id, workflow_id, prospect_id, signal_type)
    values (${workspaceId}, ${workflowId}, ${prospectId}, ${type})
    on conflict (workspace_id, workflow_id, prospect_id, signal_type) do update
       set fired_at = now(), pushes = '[]'::jsonb
     where w.fired_at < now() - make_interval(days => ${REFIRE_AFTER_DAYS})
    returning w.id`);
  return claimed.rows[0]?.id ?? null;
}

export async function setRunPushes(tx: Tx, workspaceId: string, runId: string, pushes: WorkflowRunPush[]) {
  await tx
    .update(workflowRuns)
    .set({ pushes })
    .where(and(eq(workflowRuns.workspaceId, workspaceId), eq(workflowRuns.id, runId)));
}

export type RunRow = {
  id: string;
  fired_at: Date;
  signal_type: SignalType;
  prospect_id: string;
  prospect_name: string;
  company_name: string | null;
  pushes: WorkflowRunPush[];
  /** The status and last error of each push's delivery, by event id. */
  deliveries: { event_id: string; status: 'pending' | 'delivered' | 'failed'; last_error: string | null }[];
};

/** A workflow's latest runs, newest first, with the prospect and each push's delivery. */
export async function latestRuns(tx: Tx, workspaceId: string, workflowId: string, limit: number) {
  const result = await tx.execute<RunRow>(sql`
    select w.id, w.fired_at, w.signal_type, w.prospect_id, p.full_name as prospect_name, co.name as company_name,
           w.pushes,
           coalesce((select json_agg(json_build_object('event_id', d.event_id, 'status', d.status, 'last_error', d.last_error))
                       from deliveries d
                      where d.workspace_id = w.workspace_id
                        and d.event_id in (select (push ->> 'eventId')::uuid from jsonb_array_elements(w.pushes) push
                                            where push ->> 'eventId' is not null)), '[]'::json) as deliveries
      from workflow_runs w
      join people p on p.workspace_id = w.workspace_id and p.id = w.prospect_id
      left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
     where w.workspace_id = ${workspaceId} and w.workflow_id = ${workflowId}
     order by w.fired_at desc
     limit ${limit}`);
  return result.rows;
}

/** Whether the workspace has an active workflow listening to any signal. */
export async function hasActiveWorkflow(tx: Tx, workspaceId: string) {
  const [row] = await tx
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), eq(workflows.active, true)))
    .orderBy(desc(workflows.createdAt))
    .limit(1);
  return row !== undefined;
}

/** Prospects holding any of the signals of `mask`, closest first. */
export async function prospectsWithSignals(tx: Tx, workspaceId: string, mask: number, limit: number) {
  const rows = await tx.execute<{
    id: string;
    full_name: string;
    company_name: string | null;
    signal_mask: number;
  }>(sql`
    select r.prospect_id as id, r.full_name, co.name as company_name, r.signal_mask
      from network_rows r
      left join companies co on co.workspace_id = r.workspace_id and co.id = r.company_id
     where r.workspace_id = ${workspaceId} and r.signal_mask & ${mask} <> 0
     order by r.proximity desc, r.prospect_id
     limit ${limit}`);
  return rows.rows.map((row) => ({ ...row, signal_mask: Number(row.signal_mask) }));
}

/** Whether the (workflow, prospect, signal) fired within REFIRE_AFTER_DAYS. */
export async function firedWithin(
  tx: Tx,
  workspaceId: string,
  workflowId: string,
  prospectId: string,
  type: SignalType,
) {
  const rows = await tx.execute(sql`
    select 1 from workflow_runs
     where workspace_id = ${workspaceId} and workflow_id = ${workflowId} and prospect_id = ${prospectId}
       and signal_type = ${type} and fired_at > now() - make_interval(days => ${REFIRE_AFTER_DAYS})`);
  return rows.rows.length > 0;
}
