import { workflowsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { listWorkflows, type WorkflowsDeps, workflowRuns } from './workflows.service.ts';

// Spec section 7's `GET /workflows/query`, and the runs the detail page shows. Read-only: the
// provider writes workflows with the CLI.
export const workflowsRoutes: FastifyPluginAsyncZod<WorkflowsDeps> = async (app, deps) => {
  route(app, workflowsApi.listWorkflows, async (request) => listWorkflows(deps, memberOf(request)));
  route(app, workflowsApi.listWorkflowRuns, async (request) =>
    workflowRuns(deps, memberOf(request), request.params.id),
  );
};
