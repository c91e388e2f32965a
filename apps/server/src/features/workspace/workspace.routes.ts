import { ZWorkspace, ZWorkspaceUpdate } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { changeWorkspace, getWorkspace, type WorkspaceDeps } from './workspace.service.ts';

export const workspaceRoutes: FastifyPluginAsyncZod<WorkspaceDeps> = async (app, deps) => {
  app.get(
    '/workspace/query',
    { config: { access: 'read' }, schema: { tags: ['workspace'], response: { 200: ZWorkspace } } },
    async (request) => getWorkspace(deps, memberOf(request)),
  );

  app.put(
    '/workspace/command/update',
    {
      config: { access: 'admin' },
      // The web app sends the whole workspace; only name, domains and the join flag change.
      schema: { tags: ['workspace'], body: ZWorkspaceUpdate, response: { 200: ZWorkspace } },
    },
    async (request) => changeWorkspace(deps, memberOf(request), request.body),
  );
};
