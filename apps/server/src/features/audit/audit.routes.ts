import { workspaceApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../plugins/auth.ts';
import { route } from '../../plugins/contract-route.ts';
import { type AuditDeps, listAuditLog } from './audit.service.ts';

/** Admin › Workspace › Audit log. */
export const auditRoutes: FastifyPluginAsyncZod<AuditDeps> = async (app, deps) => {
  route(app, workspaceApi.listAuditLog, async (request) => listAuditLog(deps, memberOf(request), request.query));
};
