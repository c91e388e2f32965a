import { z } from 'zod';
import { WORKFLOW_ENGAGEMENTS } from '../enums.ts';
import { SIGNAL_TYPES } from '../signals.ts';
import { ZFilterItem } from './network.ts';

/**
 * Spec section 3, Workflow filters. Each contact level is a set of the network table's own filters
 * (departments, personas, proximities, engagements, ...), all of which a prospect must match; a
 * prospect matches the contact levels when it matches one of them (none: any prospect). The company
 * level adds conditions on the prospect's company: the network's company filters (sizes, industries,
 * the ideal customer profile, my accounts) and being one of the team's targeted accounts.
 */
export const ZWorkflowFilters = z.object({
  contactLevel: z.array(z.array(ZFilterItem).max(20)).max(10),
  companyLevel: z.object({ filters: z.array(ZFilterItem).max(20), targetedAccounts: z.boolean() }),
});
export type TWorkflowFilters = z.infer<typeof ZWorkflowFilters>;

/** Spec section 3, Workflow: read-only for users; the provider creates and activates them. */
export const ZWorkflow = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  active: z.boolean(),
  signals: z.array(z.enum(SIGNAL_TYPES)),
  filters: ZWorkflowFilters,
  engagements: z.array(z.enum(WORKFLOW_ENGAGEMENTS)),
});
export type TWorkflow = z.infer<typeof ZWorkflow>;

/** Where a workflow's engagement pushed, and what became of it. */
export const WORKFLOW_PUSH_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export const ZWorkflowPush = z.object({
  engagement: z.enum(WORKFLOW_ENGAGEMENTS),
  status: z.enum(WORKFLOW_PUSH_STATUSES),
  /** Why it was skipped (the destination is not connected) or why it failed; null otherwise. */
  detail: z.string().nullable(),
});
export type TWorkflowPush = z.infer<typeof ZWorkflowPush>;

/** One time a workflow fired: a signal raised on a prospect that matched its filters. */
export const ZWorkflowRun = z.object({
  id: z.uuid(),
  firedAt: z.iso.datetime(),
  signalType: z.enum(SIGNAL_TYPES),
  prospect: z.object({ id: z.uuid(), name: z.string(), companyName: z.string().nullable() }),
  pushes: z.array(ZWorkflowPush),
});
export type TWorkflowRun = z.infer<typeof ZWorkflowRun>;
export const ZWorkflowRuns = z.object({ runs: z.array(ZWorkflowRun) });
export type TWorkflowRuns = z.infer<typeof ZWorkflowRuns>;
