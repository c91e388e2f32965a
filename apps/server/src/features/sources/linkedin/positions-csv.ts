import { Readable } from 'node:stream';
import { readCsv } from '../../lists/imports/csv-reader.ts';

/** One position of the member's own history, from LinkedIn's full data export. */
export type LinkedinPosition = {
  company: string;
  title: string | null;
  /** The first day of the month it started (LinkedIn gives months); null when the file does not say. */
  startedOn: string | null;
  /** Null while it lasts. */
  finishedOn: string | null;
  line: number;
};

export type PositionsParseResult = { positions: LinkedinPosition[]; rejected: { line: number; reason: string }[] };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * `Mar 2019` or `2019` (the export's formats) as an ISO date: the first of that month, or January.
 * Null when empty; undefined when unreadable.
 */
export function parsePositionDate(value: string): string | null | undefined {
  const text = value.trim();
  if (text === '') return null;
  const monthYear = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (monthYear) {
    const month = MONTHS.indexOf((monthYear[1] ?? '').toLowerCase());
    return month < 0 ? undefined : `${monthYear[2]}-${String(month + 1).padStart(2, '0')}-01`;
  }
  const year = /^(\d{4})$/.exec(text);
  return year ? `${year[1]}-01-01` : undefined;
}

/**
 * Reads LinkedIn's `Positions.csv` (Company Name, Title, Description, Location, Started On, Finished
 * On) with the importer's CSV reader. A position without a company, or with dates that cannot be
 * read or that end before they start, is reported with its line.
 */
export async function parsePositionsCsv(input: Readable | string | Buffer): Promise<PositionsParseResult> {
  const source = typeof input === 'string' || Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const result: PositionsParseResult = { positions: [], rejected: [] };
  let columns: Map<string, number> | null = null;
  for await (const records of readCsv(source)) {
    for (const { cells, line } of records) {
      if (!columns) {
        const names = cells.map((cell) => cell.trim().toLowerCase());
        if (names.includes('company name') && names.includes('started on')) {
          columns = new Map(names.map((name, index) => [name, index]));
        }
        continue;
      }
      if (cells.every((value) => value.trim() === '')) continue;
      const cell = (name: string) => {
        const index = columns?.get(name);
        return index === undefined ? '' : (cells[index] ?? '').trim();
      };
      const company = cell('company name');
      const startedOn = parsePositionDate(cell('started on'));
      const finishedOn = parsePositionDate(cell('finished on'));
      if (!company) result.rejected.push({ line, reason: 'The company name is empty' });
      else if (startedOn === undefined || finishedOn === undefined)
        result.rejected.push({ line, reason: "The dates are not LinkedIn's 'Mar 2019'" });
      else if (startedOn && finishedOn && finishedOn < startedOn)
        result.rejected.push({ line, reason: 'The position finishes before it starts' });
      else result.positions.push({ company, title: cell('title') || null, startedOn, finishedOn, line });
    }
  }
  if (!columns) {
    throw new Error('This is not a LinkedIn Positions.csv export: no "Company Name,…,Started On" header was found');
  }
  return result;
}
