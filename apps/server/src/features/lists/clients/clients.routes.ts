import { listsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import { route } from '../../../plugins/contract-route.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import {
  assertMayImportClients,
  decideJobChangeFor,
  queryClients,
  queryClientTags,
  queryJobChanges,
  removeClient,
  saveClient,
} from './clients.service.ts';

// Spec section 7, Clients. Only admins change allies and tracked clients, or load those two lists
// (spec section 6), but for a member's own upload during onboarding; any member reads the clients
// list and its tags.
export const clientsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  // Members too, during their onboarding's clients step (the service checks which).
  route(app, listsApi.uploadClients, async (request) => {
    await assertMayImportClients(deps, memberOf(request));
    return uploadCsv(deps, request, 'clients', request.query.importId);
  });

  route(app, listsApi.saveClient, async (request) => saveClient(deps, memberOf(request), request.body));

  route(app, listsApi.listClients, async (request) => queryClients(deps, memberOf(request), 'all', request.query));

  route(app, listsApi.listAllies, async (request) => queryClients(deps, memberOf(request), 'allies', request.query));

  route(app, listsApi.listTrackedClients, async (request) =>
    queryClients(deps, memberOf(request), 'tracked', request.query),
  );

  route(app, listsApi.listJobChanges, async (request) => queryJobChanges(deps, memberOf(request), request.query));

  for (const [contract, confirmed] of [
    [listsApi.confirmJobChange, true],
    [listsApi.dismissJobChange, false],
  ] as const) {
    route(app, contract, async (request, reply) => {
      await decideJobChangeFor(deps, memberOf(request), request.params.id, confirmed);
      return reply.code(204).send();
    });
  }

  route(app, listsApi.listClientTags, async (request) =>
    queryClientTags(deps, memberOf(request), request.query.searchTerm),
  );

  route(app, listsApi.deleteClient, async (request, reply) => {
    await removeClient(deps, memberOf(request), request.params.id);
    return reply.code(204).send();
  });
};
