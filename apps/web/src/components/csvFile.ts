import { CSV_UPLOAD } from '@warmpath/shared';

const CSV_EXTENSION = /\.csv$/i;

/**
 * Why a chosen file cannot be uploaded as CSV (spec section 5: .csv only, up to 1GB), in the spec's
 * generic rejection words; null when it can. The extension decides: browsers disagree on a CSV's type.
 */
export function csvFileError(file: Pick<File, 'name' | 'size'>): string | null {
  if (!CSV_EXTENSION.test(file.name)) return 'File type must be text/csv,.csv';
  if (file.size > CSV_UPLOAD.maxBytes) return `File is larger than ${CSV_UPLOAD.maxBytes} bytes`;
  return null;
}

/** What the file picker offers. */
export const CSV_ACCEPT = '.csv,text/csv';
