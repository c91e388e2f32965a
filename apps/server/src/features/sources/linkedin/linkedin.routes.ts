import { CSV_UPLOAD, sourcesApi } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { assertSafeText, route } from '../../../plugins/contract-route.ts';
import { importConnections, importPositions, type LinkedinDeps } from './linkedin.service.ts';

export const linkedinRoutes: FastifyPluginAsyncZod<LinkedinDeps> = async (app, deps) => {
  route(app, sourcesApi.uploadLinkedinConnections, async (request) => {
    const file = await request.file({ limits: { files: CSV_UPLOAD.maxFiles, fileSize: CSV_UPLOAD.maxBytes } });
    if (!file) throw new AppError('FILE_INVALID', 'Choose your Connections.csv file');
    assertSafeText('fileName', file.filename);
    if (!/\.csv$/i.test(file.filename)) throw new AppError('FILE_INVALID', 'File type must be text/csv,.csv');
    return importConnections(deps, memberOf(request), file.file);
  });

  route(app, sourcesApi.uploadLinkedinPositions, async (request) => {
    const file = await request.file({ limits: { files: CSV_UPLOAD.maxFiles, fileSize: CSV_UPLOAD.maxBytes } });
    if (!file) throw new AppError('FILE_INVALID', 'Choose your Positions.csv file');
    assertSafeText('fileName', file.filename);
    if (!/\.csv$/i.test(file.filename)) throw new AppError('FILE_INVALID', 'File type must be text/csv,.csv');
    return importPositions(deps, memberOf(request), file.file);
  });
};
