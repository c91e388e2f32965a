import {
  ZAccount,
  ZAccountsPage,
  ZAssignableAccountUsers,
  ZIdParams,
  ZImportStatus,
  ZListQuery,
  ZUpdateAssignees,
  ZUploadQuery,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import { assignableUsers, queryAccounts, removeAccount, updateAssignees } from './accounts.service.ts';

// Spec section 7, Accounts. Any member reads the list and imports accounts (onboarding asks each user
// for theirs); only admins change assignments or remove an account.
export const accountsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  app.post(
    '/accounts/command/upload-accounts',
    {
      config: { access: 'write' },
      schema: {
        tags: ['accounts'],
        consumes: ['multipart/form-data'],
        querystring: ZUploadQuery,
        response: { 200: ZImportStatus },
      },
    },
    async (request) => uploadCsv(deps, request, 'accounts', request.query.importId),
  );

  app.get(
    '/accounts/query',
    {
      config: { access: 'read' },
      schema: { tags: ['accounts'], querystring: ZListQuery, response: { 200: ZAccountsPage } },
    },
    async (request) => queryAccounts(deps, memberOf(request), request.query),
  );

  app.get(
    '/accounts/query/assignable-account-users/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['accounts'], params: ZIdParams, response: { 200: ZAssignableAccountUsers } },
    },
    async (request) => assignableUsers(deps, memberOf(request), request.params.id),
  );

  app.post(
    '/accounts/command/update-assignees/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['accounts'], params: ZIdParams, body: ZUpdateAssignees, response: { 200: ZAccount } },
    },
    async (request) => updateAssignees(deps, memberOf(request), request.params.id, request.body.assigneeIds),
  );

  app.delete(
    '/accounts/command/delete/:id',
    { config: { access: 'admin' }, schema: { tags: ['accounts'], params: ZIdParams } },
    async (request, reply) => {
      await removeAccount(deps, memberOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
