import { Readable } from 'node:stream';
import { readCsv } from '../../lists/imports/csv-reader.ts';

/** One first-degree connection from LinkedIn's data export. */
export type LinkedinConnection = {
  firstName: string;
  lastName: string;
  profileUrl: string;
  email: string | null;
  company: string | null;
  position: string | null;
  connectedOn: Date | null;
  /** 1-based line of the file the row starts on, for error reports. */
  line: number;
};

export type ConnectionsParseResult = {
  connections: LinkedinConnection[];
  rejected: { line: number; reason: string }[];
};

const HEADER = ['first name', 'last name', 'url', 'email address', 'company', 'position', 'connected on'] as const;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const normalizeHeader = (cell: string) => cell.trim().toLowerCase();

/** `07 Dec 2025` (the export's format) as a UTC date; null when empty or unreadable. */
export function parseConnectedOn(value: string): Date | null {
  const match = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})$/.exec(value.trim());
  if (!match) return null;
  const month = MONTHS.indexOf((match[2] ?? '').toLowerCase());
  if (month < 0) return null;
  const date = new Date(Date.UTC(Number(match[3]), month, Number(match[1])));
  return date.getUTCDate() === Number(match[1]) ? date : null;
}

/** A LinkedIn profile address in one canonical form, so a re-upload matches the same person. */
export function canonicalProfileUrl(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    if (!/(^|\.)linkedin\.com$/i.test(parsed.hostname)) return null;
    const path = parsed.pathname.replace(/\/+$/, '');
    if (!/^\/in\/[^/]+$/i.test(path)) return null;
    return `https://www.linkedin.com${decodeURIComponent(path).toLowerCase()}`;
  } catch {
    return null;
  }
}

/**
 * Reads LinkedIn's `Connections.csv` with the importer's CSV reader (quotes, CRLF, BOM, blank lines).
 * The export opens with a `Notes:` preamble of varying length, so the header row is found by its
 * columns rather than by skipping a fixed number of lines.
 */
export async function parseConnectionsCsv(input: Readable | string | Buffer): Promise<ConnectionsParseResult> {
  const source = typeof input === 'string' || Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const result: ConnectionsParseResult = { connections: [], rejected: [] };
  let columns: Map<string, number> | null = null;

  for await (const records of readCsv(source)) {
    for (const { cells, line } of records) {
      if (!columns) {
        const names = cells.map(normalizeHeader);
        if (HEADER.slice(0, 3).every((name) => names.includes(name))) {
          columns = new Map(names.map((name, index) => [name, index]));
        }
        continue;
      }
      // The reader skips blank lines; a line of blank cells carries nothing either.
      if (cells.every((value) => value.trim() === '')) continue;
      const connection = readConnection(columns, cells, line);
      if ('reason' in connection) result.rejected.push(connection);
      else result.connections.push(connection);
    }
  }
  if (!columns) {
    throw new Error('This is not a LinkedIn Connections.csv export: no "First Name,Last Name,URL" header was found');
  }
  return result;
}

function readConnection(
  columns: Map<string, number>,
  cells: string[],
  line: number,
): LinkedinConnection | { line: number; reason: string } {
  const cell = (name: (typeof HEADER)[number]) => {
    const index = columns.get(name);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const profileUrl = canonicalProfileUrl(cell('url'));
  if (!profileUrl) return { line, reason: 'The URL is not a LinkedIn profile address' };
  if (!cell('first name') && !cell('last name')) return { line, reason: 'The name is empty' };
  return {
    firstName: cell('first name'),
    lastName: cell('last name'),
    profileUrl,
    email: cell('email address').toLowerCase() || null,
    company: cell('company') || null,
    position: cell('position') || null,
    connectedOn: parseConnectedOn(cell('connected on')),
    line,
  };
}
