import { StringDecoder } from 'node:string_decoder';

// A streaming RFC 4180 reader: quoted fields with commas, quotes ("") and line breaks, CRLF or LF
// (a lone CR too), a UTF-8 BOM, empty fields, blank lines skipped. It keeps only the record being
// read, so a 1 GB file reads in flat memory. Hand-written: the importer's throughput is bounded by it,
// and a plain character loop reads several times faster than the general-purpose parsers.

/** One record and the line of the file it starts on (1-based), for error reports. */
export type CsvRecord = { cells: string[]; line: number };

/** A field longer than this is a missing closing quote swallowing the file, not data. */
export const MAX_FIELD_CHARS = 1 << 20;
/**
 * A line with more columns, or more characters in all, is not a list: without these bounds a line
 * that never ends (`a,a,a,...` for a gigabyte) is held whole, one short cell at a time.
 */
export const MAX_RECORD_CELLS = 1000;
export const MAX_RECORD_CHARS = 4 << 20;

export class CsvFormatError extends Error {}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

enum Mode {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: the end of the field, or the first of a doubled quote. */
  QuoteInQuoted,
}

export class CsvReader {
  private mode = Mode.FieldStart;
  private cells: string[] = [];
  /** Characters in `cells`, checked against MAX_RECORD_CHARS. */
  private cellsChars = 0;
  private field = '';
  private line = 1;
  private recordLine = 1;
  /** The last chunk ended on a CR: a LF opening the next one belongs to it. */
  private afterCr = false;
  private started = false;

  /** Reads a chunk of text, calling `emit` for each record it completes. */
  push(text: string, emit: (record: CsvRecord) => void) {
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.afterCr && i < text.length) {
      this.afterCr = false;
      if (text.charCodeAt(i) === LF) i++;
    }
    const n = text.length;
    while (i < n) {
      const mode = this.mode;
      if (mode === Mode.FieldStart || mode === Mode.Unquoted) {
        if (mode === Mode.FieldStart && text.charCodeAt(i) === QUOTE) {
          this.mode = Mode.Quoted;
          i++;
          continue;
        }
        // The common case: a plain field, read up to its delimiter in one slice.
        const start = i;
        let c = 0;
        while (i < n) {
          c = text.charCodeAt(i);
          if (c === COMMA || c === LF || c === CR) break;
          i++;
        }
        if (i === n) {
          this.mode = Mode.Unquoted;
          this.append(text, start, i);
          break;
        }
        const value = text.slice(start, i);
        this.pushCell(this.field === '' ? value : this.field + value);
        this.field = '';
        this.mode = Mode.FieldStart;
        i = c === COMMA ? i + 1 : this.endRecord(text, i, c, emit);
      } else if (mode === Mode.Quoted) {
        const start = i;
        while (i < n) {
          const c = text.charCodeAt(i);
          if (c === QUOTE) break;
          // A CR ending the chunk is left uncounted: whether a LF follows is not known yet.
          if (c === LF || (c === CR && i + 1 < n && text.charCodeAt(i + 1) !== LF)) this.line++;
          i++;
        }
        this.append(text, start, i);
        if (i < n) {
          this.mode = Mode.QuoteInQuoted;
          i++;
        }
      } else {
        const c = text.charCodeAt(i);
        if (c === QUOTE) {
          this.field += '"';
          this.mode = Mode.Quoted;
          i++;
        } else if (c === COMMA || c === LF || c === CR) {
          this.pushCell(this.field);
          this.field = '';
          this.mode = Mode.FieldStart;
          i = c === COMMA ? i + 1 : this.endRecord(text, i, c, emit);
        } else {
          // Text after a closing quote (`"a"b`) is not RFC 4180; it is kept as written rather than lost.
          this.mode = Mode.Unquoted;
        }
      }
    }
  }

  /** The end of the input: completes the last record if the file does not end with a line break. */
  end(emit: (record: CsvRecord) => void) {
    if (this.mode !== Mode.FieldStart || this.cells.length > 0) {
      this.pushCell(this.field);
      this.finishRecord(emit);
    }
  }

  private pushCell(value: string) {
    this.cells.push(value);
    this.cellsChars += value.length;
    if (this.cells.length > MAX_RECORD_CELLS) {
      throw new CsvFormatError(`Line ${this.recordLine}: a line has more than ${MAX_RECORD_CELLS} columns`);
    }
    if (this.cellsChars > MAX_RECORD_CHARS) {
      throw new CsvFormatError(`Line ${this.recordLine}: a line is longer than ${MAX_RECORD_CHARS} characters`);
    }
  }

  private append(text: string, start: number, end: number) {
    if (end === start) return;
    this.field += text.slice(start, end);
    if (this.field.length > MAX_FIELD_CHARS) {
      throw new CsvFormatError(
        `Line ${this.recordLine}: a field is longer than ${MAX_FIELD_CHARS} characters (is a closing quote missing?)`,
      );
    }
  }

  /** Ends the record at the line break at `i`; returns the index after the break. */
  private endRecord(text: string, i: number, c: number, emit: (record: CsvRecord) => void): number {
    let next = i + 1;
    if (c === CR) {
      if (next === text.length) this.afterCr = true;
      else if (text.charCodeAt(next) === LF) next++;
    }
    this.finishRecord(emit);
    this.line++;
    this.recordLine = this.line;
    return next;
  }

  private finishRecord(emit: (record: CsvRecord) => void) {
    const cells = this.cells;
    this.cells = [];
    this.cellsChars = 0;
    // Blank lines (and lines of empty cells) carry nothing: skipped, wherever they are.
    for (const cell of cells) {
      if (cell !== '') {
        emit({ cells, line: this.recordLine });
        return;
      }
    }
  }
}

/**
 * The records of a byte stream (UTF-8), batched per chunk so a consumer awaits once per chunk rather
 * than once per record.
 */
export async function* readCsv(source: AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord[]> {
  const reader = new CsvReader();
  const decoder = new StringDecoder('utf8');
  let batch: CsvRecord[] = [];
  const emit = (record: CsvRecord) => {
    batch.push(record);
  };
  for await (const chunk of source) {
    reader.push(typeof chunk === 'string' ? chunk : decoder.write(chunk), emit);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  reader.push(decoder.end(), emit);
  reader.end(emit);
  if (batch.length > 0) yield batch;
}
