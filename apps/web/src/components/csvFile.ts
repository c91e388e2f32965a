import { CSV_UPLOAD } from '@warmpath/shared';

const CSV_EXTENSION = /\.csv$/i;
/** An empty file has no header to read: the smallest file accepted has one byte. */
const MIN_BYTES = 1;

/** Spec section 8's file rejection codes. */
export type FileRejectionCode = 'file-invalid-type' | 'file-too-large' | 'file-too-small' | 'too-many-files';
export type FileRejection = { code: FileRejectionCode; message: string };

const bytes = (count: number) => `${count} ${count === 1 ? 'byte' : 'bytes'}`;

/** What the file picker offers. */
export const CSV_ACCEPT = '.csv,text/csv';

/**
 * Why a chosen file cannot be uploaded as CSV (spec section 5: .csv only, up to 1GB, or the smaller
 * limit of its route), with the code and the spec's generic words; null when it can. The extension
 * decides: browsers disagree on a CSV's type.
 */
export function csvFileRejection(
  file: Pick<File, 'name' | 'size'>,
  maxBytes: number = CSV_UPLOAD.maxBytes,
): FileRejection | null {
  if (!CSV_EXTENSION.test(file.name)) return { code: 'file-invalid-type', message: 'File type must be text/csv,.csv' };
  if (file.size > maxBytes) return { code: 'file-too-large', message: `File is larger than ${bytes(maxBytes)}` };
  if (file.size < MIN_BYTES) return { code: 'file-too-small', message: `File is smaller than ${bytes(MIN_BYTES)}` };
  return null;
}

/** The rejection's message alone, for a single file input. */
export function csvFileError(file: Pick<File, 'name' | 'size'>, maxBytes?: number): string | null {
  return csvFileRejection(file, maxBytes)?.message ?? null;
}

/** A drop or a pick: the one acceptable file, or why the choice is refused (one file only). */
export function chooseCsvFile<T extends Pick<File, 'name' | 'size'>>(
  files: readonly T[],
): { file: T; rejection: null } | { file: null; rejection: FileRejection } | null {
  if (files.length === 0) return null;
  const [file] = files;
  if (files.length > CSV_UPLOAD.maxFiles || file === undefined) {
    return { file: null, rejection: { code: 'too-many-files', message: 'Too many files' } };
  }
  const rejection = csvFileRejection(file);
  return rejection ? { file: null, rejection } : { file, rejection: null };
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** A file size as people read it: '512 B', '12.3 MB', '1.0 GB' (powers of 1024). */
export function formatBytes(count: number): string {
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}
