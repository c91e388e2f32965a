import {
  ZClient,
  ZClientForm,
  ZClientsPage,
  ZClientTags,
  ZClientTagsQuery,
  ZIdParams,
  ZImportStatus,
  ZListQuery,
  ZUploadQuery,
} from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import type { ImportDeps } from '../imports/imports.service.ts';
import { uploadCsv } from '../imports/upload.ts';
import { assertMayImportClients, queryClients, queryClientTags, removeClient, saveClient } from './clients.service.ts';

// Spec section 7, Clients. Only admins change allies and tracked clients, or load those two lists
// (spec section 6), but for a member's own upload during onboarding; any member reads the clients
// list and its tags.
export const clientsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  app.post(
    '/clients/command/upload-clients',
    {
      // Members too, during their onboarding's clients step (the service checks which).
      config: { access: 'write' },
      schema: {
        tags: ['clients'],
        consumes: ['multipart/form-data'],
        querystring: ZUploadQuery,
        response: { 200: ZImportStatus },
      },
    },
    async (request) => {
      await assertMayImportClients(deps, memberOf(request));
      return uploadCsv(deps, request, 'clients', request.query.importId);
    },
  );

  app.post(
    '/clients/command/create-update-single-client',
    {
      config: { access: 'admin' },
      schema: { tags: ['clients'], body: ZClientForm, response: { 200: ZClient } },
    },
    async (request) => saveClient(deps, memberOf(request), request.body),
  );

  app.get(
    '/clients/query',
    {
      config: { access: 'read' },
      schema: { tags: ['clients'], querystring: ZListQuery, response: { 200: ZClientsPage } },
    },
    async (request) => queryClients(deps, memberOf(request), 'all', request.query),
  );

  app.get(
    '/clients/query/allies-to-map-network-from',
    {
      config: { access: 'admin' },
      schema: { tags: ['clients'], querystring: ZListQuery, response: { 200: ZClientsPage } },
    },
    async (request) => queryClients(deps, memberOf(request), 'allies', request.query),
  );

  app.get(
    '/clients/query/clients-for-job-changes-tracking',
    {
      config: { access: 'admin' },
      schema: { tags: ['clients'], querystring: ZListQuery, response: { 200: ZClientsPage } },
    },
    async (request) => queryClients(deps, memberOf(request), 'tracked', request.query),
  );

  app.get(
    '/clients/query/tags',
    {
      config: { access: 'read' },
      schema: { tags: ['clients'], querystring: ZClientTagsQuery, response: { 200: ZClientTags } },
    },
    async (request) => queryClientTags(deps, memberOf(request), request.query.searchTerm),
  );

  app.delete(
    '/clients/command/delete-client/:id',
    { config: { access: 'admin' }, schema: { tags: ['clients'], params: ZIdParams } },
    async (request, reply) => {
      await removeClient(deps, memberOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
