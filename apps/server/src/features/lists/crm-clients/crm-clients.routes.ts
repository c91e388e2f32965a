import { listsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import { route } from '../../../plugins/contract-route.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import { queryCrmClients } from './crm-clients.service.ts';

// Spec section 7, CRM clients: customer companies, excluded from recommendations. Admins only (spec section 6).
export const crmClientsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  route(app, listsApi.listCrmClients, async (request) => queryCrmClients(deps, memberOf(request), request.query));

  route(app, listsApi.uploadCrmClients, async (request) =>
    uploadCsv(deps, request, 'crm-clients', request.query.importId),
  );
};
