import { Readable } from 'node:stream';
import { listsApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberOf } from '../../../plugins/auth.ts';
import { route } from '../../../plugins/contract-route.ts';
import { type ImportDeps, importStatus, rejectedRowsCsv } from './imports.service.ts';

// The status of an import, polled while its file uploads, and the rows it refused.
export const importsRoutes: FastifyPluginAsyncZod<ImportDeps> = async (app, deps) => {
  route(app, listsApi.getImportStatus, async (request) => importStatus(deps, memberOf(request), request.params.id));

  route(app, listsApi.downloadRejectedRows, async (request, reply) => {
    const member = memberOf(request);
    // The import is looked up first, so an unknown id is a 404 rather than an empty file.
    await importStatus(deps, member, request.params.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="rejected-rows-${request.params.id}.csv"`)
      .send(Readable.from(rejectedRowsCsv(deps, member, request.params.id)));
  });
};
