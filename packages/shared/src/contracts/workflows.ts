import { z } from 'zod';
import { ZIdParams } from '../schemas/common.ts';
import { ZWorkflow, ZWorkflowRuns } from '../schemas/workflows.ts';
import { defineRoutes } from './define-route.ts';

// Every role reads the workspace's workflows; nobody writes them through the API (spec section 2:
// the provider activates them, with the CLI).
const readErrors = { 403: 'The caller is not a member of a workspace' } as const;

/** The workflow agents ('Agent running plays') and what they did. */
export const workflowsApi = defineRoutes('workflows', {
  listWorkflows: {
    method: 'GET',
    path: '/workflows/query',
    summary: "The workspace's workflows",
    access: 'identity',
    responses: { 200: z.array(ZWorkflow) },
    errors: readErrors,
  },
  listWorkflowRuns: {
    method: 'GET',
    path: '/workflows/query/:id/runs',
    summary: "A workflow's latest runs (the signals it fired on) and where each push went",
    access: 'identity',
    params: ZIdParams,
    responses: { 200: ZWorkflowRuns },
    errors: { ...readErrors, 404: 'No workflow with this id' },
  },
});
