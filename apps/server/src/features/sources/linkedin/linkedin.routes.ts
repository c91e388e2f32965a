import { CSV_UPLOAD, ZLinkedinImportResult } from '@warmpath/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { importConnections, type LinkedinDeps } from './linkedin.service.ts';

export const linkedinRoutes: FastifyPluginAsyncZod<LinkedinDeps> = async (app, deps) => {
  app.post(
    '/linkedin/command/upload-connections',
    {
      config: { access: 'self' },
      schema: { tags: ['linkedin'], consumes: ['multipart/form-data'], response: { 200: ZLinkedinImportResult } },
    },
    async (request) => {
      const file = await request.file({ limits: { files: CSV_UPLOAD.maxFiles, fileSize: CSV_UPLOAD.maxBytes } });
      if (!file) throw new AppError('FILE_INVALID', 'Choose your Connections.csv file');
      if (!/\.csv$/i.test(file.filename)) throw new AppError('FILE_INVALID', 'File type must be text/csv,.csv');
      return importConnections(deps, memberOf(request), file.file);
    },
  );
};
