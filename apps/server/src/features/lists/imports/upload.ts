import { randomUUID } from 'node:crypto';
import { CSV_UPLOAD, type ImportKind, isSafeText, type TImportStatus } from '@warmpath/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/app-error.ts';
import { memberOf } from '../../../plugins/auth.ts';
import { assertSafeText } from '../../../plugins/contract-route.ts';
import { IMPORT_FAILED_ERROR, type ImportDeps, type ReceivedImport, receiveImport } from './imports.service.ts';

const FLAG_FIELDS = ['mapNetwork', 'trackJobChanges'] as const;
type Flags = Record<(typeof FLAG_FIELDS)[number], boolean>;

function readFlags(fields: Map<string, string>): Flags {
  const flags: Flags = { mapNetwork: false, trackJobChanges: false };
  for (const name of FLAG_FIELDS) {
    const value = fields.get(name);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false')
      throw new AppError('VALIDATION_FAILED', `${name} must be 'true' or 'false'`);
    flags[name] = value === 'true';
  }
  return flags;
}

/** Fastify's multipart limits, as the errors the spec's upload panel knows. */
export function multipartError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return new AppError('FILE_INVALID', 'Too many files');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError('VALIDATION_FAILED', 'Too many fields');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
  if (code === 'FST_PROTO_VIOLATION') return new AppError('VALIDATION_FAILED', 'A field has a reserved name');
  // The parser's own errors (busboy's, without a code) are the client's malformed body, not our failure.
  const message = error instanceof Error ? error.message : '';
  if (/^Multipart: Boundary not found$|unexpected end of multipart data|^Malformed part header/i.test(message)) {
    return new AppError(
      'VALIDATION_FAILED',
      'The multipart body is malformed: send fields, then the file, with a boundary',
    );
  }
  return error;
}

/**
 * Reads an upload's multipart body (spec section 7: one `file` part; the clients upload's flags as
 * fields before it) and runs it through the import pipeline. Answers with the completed import.
 */
export async function uploadCsv(
  deps: ImportDeps,
  request: FastifyRequest,
  kind: ImportKind,
  importId: string | undefined,
): Promise<TImportStatus> {
  const member = memberOf(request);
  const fields = new Map<string, string>();
  let received: ReceivedImport | null = null;
  try {
    const parts = request.parts({
      limits: { files: CSV_UPLOAD.maxFiles, fileSize: CSV_UPLOAD.maxBytes, fields: 10, fieldSize: 1000, parts: 12 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = String(part.value);
        assertSafeText('field name', part.fieldname);
        assertSafeText(part.fieldname, value);
        // The file streams into the import as it arrives: a flag after it would come too late to count.
        if (received) throw new AppError('VALIDATION_FAILED', `${part.fieldname} must come before the file`);
        fields.set(part.fieldname, value);
        continue;
      }
      if (!isSafeText(part.filename) || !/\.csv$/i.test(part.filename)) {
        part.file.resume();
        assertSafeText('fileName', part.filename);
        throw new AppError('FILE_INVALID', 'File type must be text/csv,.csv');
      }
      const flags = kind === 'clients' ? readFlags(fields) : { mapNetwork: false, trackJobChanges: false };
      received = await receiveImport(
        deps,
        member,
        { id: importId ?? randomUUID(), kind, fileName: [...part.filename].slice(0, 255).join(''), ...flags },
        part.file,
        { truncated: () => part.file.truncated },
      );
    }
  } catch (error) {
    const mapped = multipartError(error);
    if (!(mapped instanceof AppError)) {
      request.log.error({ err: error }, 'import failed');
      await received?.abandon(IMPORT_FAILED_ERROR);
      throw new AppError('IMPORT_FAILED', IMPORT_FAILED_ERROR);
    }
    await received?.abandon(mapped.message);
    throw mapped;
  }
  if (!received) throw new AppError('FILE_INVALID', 'Choose a CSV file to upload');
  try {
    return await received.merge();
  } catch (error) {
    request.log.error({ err: error }, 'import merge failed');
    throw new AppError('IMPORT_FAILED', IMPORT_FAILED_ERROR);
  }
}
