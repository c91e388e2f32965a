import type { Readable } from 'node:stream';
import { LINKEDIN_UPLOAD } from '@warmpath/shared';
import { exportRows, type Rejections } from './export-rows.ts';

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
 * On) as it arrives. A position without a company, or with dates that cannot be read or that end
 * before they start, is added to `rejected` with its line; past LINKEDIN_UPLOAD.maxPositions (more than
 * any career), lines are counted, not kept.
 */
export async function parsePositionsCsv(input: Readable | string | Buffer, rejected: Rejections) {
  const positions: LinkedinPosition[] = [];
  const rows = exportRows(
    input,
    (names) => names.includes('company name') && names.includes('started on'),
    'This is not a LinkedIn Positions.csv export: no "Company Name,…,Started On" header was found',
  );
  for await (const read of rows) {
    for (const row of read) {
      if ('reason' in row) {
        rejected.add(row);
        continue;
      }
      const { line, cell } = row;
      const company = cell('company name');
      const startedOn = parsePositionDate(cell('started on'));
      const finishedOn = parsePositionDate(cell('finished on'));
      if (!company) rejected.add({ line, reason: 'The company name is empty' });
      else if (startedOn === undefined || finishedOn === undefined)
        rejected.add({ line, reason: "The dates are not LinkedIn's 'Mar 2019'" });
      else if (startedOn && finishedOn && finishedOn < startedOn)
        rejected.add({ line, reason: 'The position finishes before it starts' });
      else if (positions.length >= LINKEDIN_UPLOAD.maxPositions)
        rejected.add({
          line,
          reason: `More than ${LINKEDIN_UPLOAD.maxPositions} positions: the lines past them are not imported`,
        });
      else positions.push({ company, title: cell('title') || null, startedOn, finishedOn, line });
    }
  }
  return positions;
}
