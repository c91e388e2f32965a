import { Readable } from 'node:stream';
import { ZIdParams, ZImportStatus } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import { type ImportDeps, importStatus, rejectedRowsCsv } from './imports.service.ts';

// The status of an import, polled while its file uploads, and the rows it refused.
export const importsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  app.get(
    '/imports/query/:id',
    {
      config: { access: 'read' },
      schema: { tags: ['imports'], params: ZIdParams, response: { 200: ZImportStatus } },
    },
    async (request) => importStatus(deps, memberOf(request), request.params.id),
  );

  app.get(
    '/imports/query/:id/rejected-rows',
    { config: { access: 'read' }, schema: { tags: ['imports'], params: ZIdParams } },
    async (request, reply) => {
      const member = memberOf(request);
      // The import is looked up first, so an unknown id is a 404 rather than an empty file.
      await importStatus(deps, member, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rejected-rows-${request.params.id}.csv"`)
        .send(Readable.from(rejectedRowsCsv(deps, member, request.params.id)));
    },
  );
};
