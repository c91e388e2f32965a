import { listsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import { route } from '../../../plugins/contract-route.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import { assignableUsers, queryAccounts, removeAccount, setMyAccounts, updateAssignees } from './accounts.service.ts';

// Spec section 7, Accounts. Any member reads the list and imports accounts (onboarding asks each user
// for theirs); only admins change assignments or remove an account.
export const accountsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  route(app, listsApi.uploadAccounts, async (request) => uploadCsv(deps, request, 'accounts', request.query.importId));

  route(app, listsApi.listAccounts, async (request) => queryAccounts(deps, memberOf(request), request.query));

  route(app, listsApi.listAssignableAccountUsers, async (request) =>
    assignableUsers(deps, memberOf(request), request.params.id),
  );

  route(app, listsApi.updateAssignees, async (request) =>
    updateAssignees(deps, memberOf(request), request.params.id, request.body.assigneeIds),
  );

  route(app, listsApi.setMyAccounts, async (request) =>
    setMyAccounts(deps, memberOf(request), request.body.accountIds),
  );

  route(app, listsApi.deleteAccount, async (request, reply) => {
    await removeAccount(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });
};
