import { workspaceApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { changeWorkspace, getWorkspace, type WorkspaceDeps } from './workspace.service.ts';

export const workspaceRoutes: FastifyPluginAsyncZod<WorkspaceDeps> = async (app, deps) => {
  route(app, workspaceApi.getWorkspace, async (request) => getWorkspace(deps, memberOf(request)));

  route(app, workspaceApi.updateWorkspace, async (request) => changeWorkspace(deps, memberOf(request), request.body));
};
