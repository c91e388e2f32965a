import { ZCrmClientsPage, ZImportStatus, ZListQuery, ZUploadQuery } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import { queryCrmClients } from './crm-clients.service.ts';

// Spec section 7, CRM clients: customer companies, excluded from recommendations. Admins only (spec section 6).
export const crmClientsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  app.get(
    '/crm-clients/query',
    {
      config: { access: 'admin' },
      schema: { tags: ['crm-clients'], querystring: ZListQuery, response: { 200: ZCrmClientsPage } },
    },
    async (request) => queryCrmClients(deps, memberOf(request), request.query),
  );

  app.post(
    '/crm-clients/command/upload-crm-clients',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['crm-clients'],
        consumes: ['multipart/form-data'],
        querystring: ZUploadQuery,
        response: { 200: ZImportStatus },
      },
    },
    async (request) => uploadCsv(deps, request, 'crm-clients', request.query.importId),
  );
};
