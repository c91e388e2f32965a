import type { EventData, SignalType, TNetworkRow, WorkflowEngagement } from '@warmpath/shared';
import type { Tx } from '../../db/client.ts';
import type { WorkflowRunPush } from '../../db/schema/index.ts';
import type { EventsDeps } from '../../events/record.ts';
import { eventPeople } from '../../events/subjects.ts';
import type { RaisedSignal, RaisedSignalsListener } from '../../graph/raised.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { networkRows } from '../network/network.repo.ts';
import { claimRun, findWorkflows, hasActiveWorkflow, matchingProspects, setRunPushes } from './workflows.repo.ts';

const NOBODY = '00000000-0000-0000-0000-000000000000';

/** Where each engagement pushes; PUSH_TO_CRM and PUSH_TO_HUBSPOT both go to the connected CRM (HubSpot). */
const ENGAGEMENT_DESTINATION: Record<WorkflowEngagement, WorkflowRunPush['destination']> = {
  PUSH_TO_SLACK: 'slack',
  PUSH_TO_WEBHOOK: 'webhook',
  PUSH_TO_CRM: 'crm',
  PUSH_TO_HUBSPOT: 'crm',
};

const NOT_CONNECTED: Record<WorkflowRunPush['destination'], string> = {
  slack: 'Slack is not connected',
  webhook: 'No webhook is connected',
  crm: 'No CRM is connected',
};

/** The closest colleague or ally of a prospect: who could introduce them. */
function bestConnector(row: TNetworkRow | undefined): EventData<'workflow.triggered'>['bestConnector'] {
  const paths = [
    ...(row?.connectors ?? []).map((connector) => ({ name: connector.fullName, proximity: connector.proximity })),
    ...(row?.clientsConnected ?? []).map((ally) => ({ name: ally.name, proximity: ally.proximity })),
  ].sort((a, b) => b.proximity - a.proximity);
  return paths[0] ?? null;
}

/**
 * The workflow agents, as a listener of the graph job's raised signals: every active workflow that
 * listens to a raised signal, and whose filters the prospect matches, fires once for that prospect
 * and signal, and pushes one `workflow.triggered` event per engagement to its destination, in the
 * graph batch's transaction (the outbox delivers it, once). A destination that is not connected is
 * recorded as skipped on the run.
 */
export function workflowEngine(deps: EventsDeps): RaisedSignalsListener {
  return {
    listens: (tx, workspaceId) => hasActiveWorkflow(tx, workspaceId),
    raised: (tx, workspaceId, signals) => fire(deps, tx, workspaceId, signals),
  };
}

async function fire(deps: EventsDeps, tx: Tx, workspaceId: string, raised: RaisedSignal[]) {
  const fired: { workflow: Awaited<ReturnType<typeof findWorkflows>>[number]; prospectId: string; type: SignalType }[] =
    [];
  for (const workflow of await findWorkflows(tx, workspaceId, { activeOnly: true })) {
    const heard = raised.filter(({ type }) => workflow.signals.includes(type));
    if (heard.length === 0) continue;
    const matching = await matchingProspects(tx, workspaceId, workflow, [
      ...new Set(heard.map(({ prospectId }) => prospectId)),
    ]);
    for (const { prospectId, type } of heard) if (matching.has(prospectId)) fired.push({ workflow, prospectId, type });
  }
  if (fired.length === 0) return;

  const prospectIds = [...new Set(fired.map(({ prospectId }) => prospectId))];
  const { model } = await loadGraphSettings(tx, workspaceId);
  const rows = new Map(
    (await networkRows(tx, { workspaceId, userId: NOBODY }, prospectIds, model)).map((row) => [row.id, row]),
  );
  const person = await eventPeople(tx, workspaceId, deps.publicUrl, prospectIds);
  for (const { workflow, prospectId, type } of fired) {
    const runId = await claimRun(tx, workspaceId, workflow.id, prospectId, type);
    if (!runId) continue;
    const data: EventData<'workflow.triggered'> = {
      workflow: { id: workflow.id, name: workflow.name },
      signalType: type,
      prospect: person(prospectId),
      bestConnector: bestConnector(rows.get(prospectId)),
    };
    const pushes: WorkflowRunPush[] = [];
    for (const engagement of workflow.engagements) {
      const destination = ENGAGEMENT_DESTINATION[engagement];
      // PUSH_TO_CRM and PUSH_TO_HUBSPOT together are one push to the CRM.
      if (pushes.some((push) => push.destination === destination)) continue;
      const eventId = await deps.events.record(tx, workspaceId, 'workflow.triggered', data, {
        only: destination === 'crm' ? 'hubspot' : destination,
      });
      pushes.push({ engagement, destination, eventId, skipped: eventId ? null : NOT_CONNECTED[destination] });
    }
    await setRunPushes(tx, workspaceId, runId, pushes);
  }
}
