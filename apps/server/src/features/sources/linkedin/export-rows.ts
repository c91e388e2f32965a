import { Readable } from 'node:stream';
import { LINKEDIN_UPLOAD } from '@warmpath/shared';
import { CsvFormatError, readCsv } from '../../lists/imports/csv-reader.ts';

// What LinkedIn's CSV exports have in common: a short preamble before the header, rows read as they
// arrive and forgotten once handed on, and the lines not imported listed up to a limit and counted.

export type Rejection = { line: number; reason: string };

/** The lines an upload did not import: the first ones listed with why, every one counted. */
export class Rejections {
  readonly listed: Rejection[] = [];
  count = 0;

  add(rejection: Rejection) {
    this.count++;
    if (this.listed.length < LINKEDIN_UPLOAD.listedRejections) this.listed.push(rejection);
  }
}

/** A row after the header: a cell by its column's (lower-cased) name, trimmed. */
export type ExportRow = { line: number; cell: (name: string) => string };

/** The export's `Notes:` preamble is a line or two: a header further down is not LinkedIn's. */
const MAX_PREAMBLE_RECORDS = 20;
/** Names, companies and positions are short on LinkedIn; a longer cell is not one of its exports'. */
export const MAX_CELL_CHARS = 1_000;

/**
 * The rows of one of LinkedIn's exports as they arrive, in the batches the CSV reader reads them
 * (quotes, CRLF, BOM, blank lines). The header is found by `isHeader` among the first records; a row
 * with a cell longer than any LinkedIn writes is a rejection. A NUL, which PostgreSQL cannot store,
 * reads as U+FFFD, as in the CSV imports.
 */
export async function* exportRows(
  input: Readable | string | Buffer,
  isHeader: (names: string[]) => boolean,
  notAnExport: string,
): AsyncGenerator<(ExportRow | Rejection)[]> {
  const source = typeof input === 'string' || Buffer.isBuffer(input) ? Readable.from([input]) : input;
  let columns: Map<string, number> | null = null;
  let records = 0;
  for await (const batch of readCsv(source)) {
    const rows: (ExportRow | Rejection)[] = [];
    for (const { cells, line } of batch) {
      if (!columns) {
        const names = cells.map((cell) => cell.trim().toLowerCase());
        if (isHeader(names)) columns = new Map(names.map((name, index) => [name, index]));
        else if (++records >= MAX_PREAMBLE_RECORDS) throw new CsvFormatError(notAnExport);
        continue;
      }
      // The reader skips blank lines; a line of blank cells carries nothing either.
      if (cells.every((value) => value.trim() === '')) continue;
      if (cells.some((value) => value.length > MAX_CELL_CHARS)) {
        rows.push({ line, reason: `A field is longer than ${MAX_CELL_CHARS} characters` });
        continue;
      }
      const at = columns;
      rows.push({
        line,
        cell: (name) => {
          const index = at.get(name);
          return index === undefined ? '' : (cells[index] ?? '').trim().replaceAll('\0', '\uFFFD');
        },
      });
    }
    if (rows.length > 0) yield rows;
  }
  if (!columns) throw new CsvFormatError(notAnExport);
}
