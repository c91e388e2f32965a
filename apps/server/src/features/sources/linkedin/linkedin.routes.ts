import { isSafeText, sourcesApi } from '@warmpath/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { assertSafeText, route } from '../../../plugins/contract-route.ts';
import { multipartError } from '../../lists/imports/upload.ts';
import {
  importConnections,
  importPositions,
  LINKEDIN_FILES,
  type LinkedinDeps,
  type LinkedinUpload,
  tooLargeError,
} from './linkedin.service.ts';

/** Multipart's boundaries and part headers around the file: a declared length may exceed the file's by this. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The upload's one file, as it streams in, within its export's size limit. A body declared larger is
 * refused before a byte of it is read; one that grows past the limit stops there (413 either way).
 */
export async function exportUpload(
  request: FastifyRequest,
  file: (typeof LINKEDIN_FILES)[keyof typeof LINKEDIN_FILES],
): Promise<LinkedinUpload> {
  if (Number(request.headers['content-length']) > file.maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLargeError(file);
  const part = await request
    .file({ limits: { files: 1, fileSize: file.maxBytes, fields: 5, fieldSize: 1000, parts: 6, headerPairs: 20 } })
    .catch((error: unknown) => {
      throw multipartError(error);
    });
  if (!part) throw new AppError('FILE_INVALID', `Choose your ${file.name} file`);
  if (!isSafeText(part.filename) || !/\.csv$/i.test(part.filename)) {
    part.file.resume();
    assertSafeText('fileName', part.filename);
    throw new AppError('FILE_INVALID', 'File type must be text/csv,.csv');
  }
  // At the limit the stream ends truncated: it fails at once, so the reader stops there.
  part.file.once('limit', () => part.file.destroy(tooLargeError(file)));
  return { file: part.file, truncated: () => part.file.truncated };
}

export const linkedinRoutes: FastifyPluginAsyncZod<LinkedinDeps> = async (app, deps) => {
  route(app, sourcesApi.uploadLinkedinConnections, async (request) =>
    importConnections(deps, memberOf(request), await exportUpload(request, LINKEDIN_FILES.connections)),
  );

  route(app, sourcesApi.uploadLinkedinPositions, async (request) =>
    importPositions(deps, memberOf(request), await exportUpload(request, LINKEDIN_FILES.positions)),
  );
};
