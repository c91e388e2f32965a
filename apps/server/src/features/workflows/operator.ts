import { SIGNAL_LABELS, type SignalType, signalBit, signalMaskOf, type TWorkflowFilters } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { connectedDestinations } from '../../events/record.ts';
import { WORKFLOW_TEMPLATES, type WorkflowTemplate } from './templates.ts';
import {
  findWorkflow,
  findWorkflows,
  firedWithin,
  insertWorkflow,
  matchingProspects,
  prospectsWithSignals,
  REFIRE_AFTER_DAYS,
  setWorkflowActive,
  toWorkflow,
} from './workflows.repo.ts';

// The provider's tools (the CLI's `workflows` command): users read workflows; the provider creates,
// activates and checks them.

/** A new, inactive workflow from a shipped template; `profileUserId` is whose ICP and accounts it means. */
export async function createFromTemplate(
  database: Database,
  workspaceId: string,
  template: WorkflowTemplate,
  profileUserId: string,
) {
  const { signals, filters, engagements, ...text } = WORKFLOW_TEMPLATES[template];
  const row = await database.inWorkspace(workspaceId, (tx) =>
    insertWorkflow(tx, {
      workspaceId,
      ...text,
      signals: [...signals],
      filters: structuredClone(filters) as TWorkflowFilters,
      engagements: [...engagements],
      profileUserId,
      template,
      active: false,
    }),
  );
  return toWorkflow(row);
}

export async function listAll(database: Database, workspaceId: string) {
  return (await database.inWorkspace(workspaceId, (tx) => findWorkflows(tx, workspaceId))).map(toWorkflow);
}

export async function showWorkflow(database: Database, workspaceId: string, id: string) {
  const row = await database.inWorkspace(workspaceId, (tx) => findWorkflow(tx, workspaceId, id));
  return row ? toWorkflow(row) : null;
}

export function activate(database: Database, workspaceId: string, id: string, active: boolean) {
  return database.inWorkspace(workspaceId, (tx) => setWorkflowActive(tx, workspaceId, id, active));
}

/** How many prospects a dry run looks at: the first ones holding the signals, by proximity. */
const DRY_RUN_CANDIDATES = 1000;

export type DryRunLine = { prospect: string; signal: string; outcome: string };

/**
 * What the workflow would push today and why, without pushing: the prospects that hold one of its
 * signals and match its filters, and for each engagement whether it would go out.
 */
export async function dryRun(database: Database, workspaceId: string, id: string) {
  return database.inWorkspace(workspaceId, async (tx) => {
    const workflow = await findWorkflow(tx, workspaceId, id);
    if (!workflow) return null;
    const mask = signalMaskOf(workflow.signals);
    const candidates = await prospectsWithSignals(tx, workspaceId, mask, DRY_RUN_CANDIDATES);
    const matching = await matchingProspects(
      tx,
      workspaceId,
      workflow,
      candidates.map((candidate) => candidate.id),
    );
    const connected = await connectedDestinations(tx, workspaceId);
    const destinations = {
      slack: connected.includes('slack'),
      webhook: connected.includes('webhook'),
      crm: connected.includes('hubspot'),
    };
    const lines: DryRunLine[] = [];
    for (const candidate of candidates) {
      if (!matching.has(candidate.id)) continue;
      for (const type of workflow.signals.filter((signal) => (candidate.signal_mask & signalBit(signal)) !== 0)) {
        const fired = await firedWithin(tx, workspaceId, workflow.id, candidate.id, type as SignalType);
        const pushes = workflow.engagements.map((engagement) => {
          if (engagement === 'PUSH_TO_SLACK') return destinations.slack ? 'Slack' : 'Slack (not connected: skipped)';
          if (engagement === 'PUSH_TO_WEBHOOK') return destinations.webhook ? 'webhook' : 'webhook (none: skipped)';
          return destinations.crm ? 'HubSpot' : 'CRM (not connected: skipped)';
        });
        lines.push({
          prospect: [candidate.full_name, candidate.company_name && `(${candidate.company_name})`]
            .filter(Boolean)
            .join(' '),
          signal: SIGNAL_LABELS[type as SignalType],
          outcome: fired
            ? `already fired in the last ${REFIRE_AFTER_DAYS} days: nothing`
            : `would push to ${[...new Set(pushes)].join(', ')}`,
        });
      }
    }
    return { workflow: toWorkflow(workflow), candidates: candidates.length, lines };
  });
}
