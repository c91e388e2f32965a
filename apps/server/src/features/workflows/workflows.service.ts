import type { TWorkflow, TWorkflowPush, TWorkflowRuns } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import { findWorkflow, findWorkflows, latestRuns, type RunRow, toWorkflow } from './workflows.repo.ts';

export type WorkflowsDeps = { database: Database };

/** How many runs the detail page shows. */
const RUNS_SHOWN = 50;

export async function listWorkflows(deps: WorkflowsDeps, member: Member): Promise<TWorkflow[]> {
  const rows = await deps.database.inWorkspace(member.workspaceId, (tx) => findWorkflows(tx, member.workspaceId));
  return rows.map(toWorkflow);
}

/** A push as the page shows it: skipped with why, else its delivery's status. */
function pushOf(run: RunRow, push: RunRow['pushes'][number]): TWorkflowPush {
  if (!push.eventId) return { engagement: push.engagement, status: 'skipped', detail: push.skipped };
  const delivery = run.deliveries.find((candidate) => candidate.event_id === push.eventId);
  return {
    engagement: push.engagement,
    status: delivery?.status ?? 'pending',
    detail: delivery?.status === 'failed' ? delivery.last_error : null,
  };
}

export async function workflowRuns(deps: WorkflowsDeps, member: Member, workflowId: string): Promise<TWorkflowRuns> {
  const ws = member.workspaceId;
  return deps.database.inWorkspace(ws, async (tx) => {
    if (!(await findWorkflow(tx, ws, workflowId))) throw new AppError('NOT_FOUND', 'Workflow not found');
    const runs = await latestRuns(tx, ws, workflowId, RUNS_SHOWN);
    return {
      runs: runs.map((run) => ({
        id: run.id,
        firedAt: new Date(run.fired_at).toISOString(),
        signalType: run.signal_type,
        prospect: { id: run.prospect_id, name: run.prospect_name, companyName: run.company_name },
        pushes: run.pushes.map((push) => pushOf(run, push)),
      })),
    };
  });
}
