import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CsvFormatError,
  CsvReader,
  type CsvRecord,
  MAX_FIELD_CHARS,
  MAX_RECORD_CELLS,
  MAX_RECORD_CHARS,
  readCsv,
} from './csv-reader.ts';

async function read(input: string | Buffer | (string | Buffer)[]): Promise<CsvRecord[]> {
  const chunks = Array.isArray(input) ? input : [input];
  const records: CsvRecord[] = [];
  for await (const batch of readCsv(Readable.from(chunks.map((chunk) => Buffer.from(chunk))))) records.push(...batch);
  return records;
}
const cells = (records: CsvRecord[]) => records.map((record) => record.cells);

describe('CsvReader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', async () => {
    expect(cells(await read('a,"b,c","say ""hi""","two\r\nlines"\n'))).toEqual([
      ['a', 'b,c', 'say "hi"', 'two\r\nlines'],
    ]);
  });

  it('takes CRLF, LF or a lone CR as the end of a record, with or without a final one', async () => {
    expect(cells(await read('a,b\r\nc,d\ne,f\rg,h'))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('drops a UTF-8 BOM and keeps empty fields', async () => {
    expect(cells(await read('\uFEFFname,,x\n,,y\n'))).toEqual([
      ['name', '', 'x'],
      ['', '', 'y'],
    ]);
  });

  it('skips blank lines anywhere, trailing ones included', async () => {
    expect(cells(await read('a\n\n,,\r\nb\r\n\r\n\n'))).toEqual([['a'], ['b']]);
  });

  it('gives each record the line it starts on', async () => {
    const records = await read('h1,h2\n"multi\nline",x\n\ny,z\r\nlast,row');
    expect(records.map((record) => record.line)).toEqual([1, 2, 5, 6]);
  });

  it('reads records split anywhere across chunks, inside a CRLF or a multi-byte character too', async () => {
    const text = 'é,"a\r\nb"\r\n"x""y",z\r\n';
    const bytes = Buffer.from(text);
    for (let split = 1; split < bytes.length; split++) {
      const records = await read([bytes.subarray(0, split), bytes.subarray(split)]);
      expect(cells(records)).toEqual([
        ['é', 'a\r\nb'],
        ['x"y', 'z'],
      ]);
      expect(records.map((record) => record.line)).toEqual([1, 3]);
    }
  });

  it('keeps text after a closing quote rather than losing it', async () => {
    expect(cells(await read('"a"b,c\n'))).toEqual([['ab', 'c']]);
  });

  it('stops at a field that never ends (a missing closing quote)', () => {
    const reader = new CsvReader();
    const long = `a,"${'x'.repeat(MAX_FIELD_CHARS + 1)}`;
    expect(() => reader.push(long, () => {})).toThrow(CsvFormatError);
  });

  it('stops at a line that never ends, of many short cells or a few long ones, fed in chunks', () => {
    const cellsLine = new CsvReader();
    const chunk = 'column,'.repeat(100);
    expect(() => {
      for (let i = 0; i < 20; i++) cellsLine.push(chunk, () => {});
    }).toThrow('Line 1: a line has more than 1000 columns');
    const longLine = new CsvReader();
    const cell = `${'x'.repeat(MAX_FIELD_CHARS - 1)},`;
    expect(() => {
      for (let i = 0; i < 6; i++) longLine.push(cell, () => {});
    }).toThrow(`Line 1: a line is longer than ${MAX_RECORD_CHARS} characters`);
  });

  it('reads a wide line under the bounds and starts the count again on the next', () => {
    const records: CsvRecord[] = [];
    const reader = new CsvReader();
    const wide = `${Array.from({ length: MAX_RECORD_CELLS }, (_, i) => `c${i}`).join(',')}\n`;
    reader.push(wide + wide, (record) => records.push(record));
    expect(records.map((record) => record.cells.length)).toEqual([MAX_RECORD_CELLS, MAX_RECORD_CELLS]);
  });
});

/** A table written as RFC 4180 CSV: fields quoted when they must be (and sometimes when not). */
function writeCsv(rows: string[][], options: { crlf: boolean; bom: boolean; quoteAll: boolean; finalBreak: boolean }) {
  const eol = options.crlf ? '\r\n' : '\n';
  const field = (value: string) =>
    options.quoteAll || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  const body = rows.map((row) => row.map(field).join(',')).join(eol);
  return `${options.bom ? '\uFEFF' : ''}${body}${options.finalBreak ? eol : ''}`;
}

const cell = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', ',', '"', '\r', '\n', 'é', '€', '😀') }),
  fc.string(),
);

describe('CsvReader on any table', () => {
  it('reads back what RFC 4180 CSV wrote, split into any chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 5 })
          .chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }))),
        fc.record({ crlf: fc.boolean(), bom: fc.boolean(), quoteAll: fc.boolean(), finalBreak: fc.boolean() }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (rows, options, cuts) => {
          // A row of empty cells is a blank line (skipped); a one-column row of "" is only one when unquoted.
          const expected = rows.filter((row) => row.some((value) => value !== ''));
          const bytes = Buffer.from(writeCsv(rows, options));
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((start, index) => bytes.subarray(start, [...points, bytes.length][index]));
          expect(cells(await read(chunks))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
