import type { Readable } from 'node:stream';
import { LINKEDIN_UPLOAD } from '@warmpath/shared';
import { type ExportRow, exportRows, type Rejection, type Rejections } from './export-rows.ts';

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

const HEADER = ['first name', 'last name', 'url', 'email address', 'company', 'position', 'connected on'] as const;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Connections merged a statement at a time: a few hundred kilobytes of rows, whatever the file. */
export const CONNECTIONS_BATCH = 2_000;

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
  // Most junk is not even near an address: no exception (slow, by the million) to say so.
  if (!/linkedin\.com/i.test(url)) return null;
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
 * Reads LinkedIn's `Connections.csv` as it arrives: the valid connections in batches of
 * CONNECTIONS_BATCH, each line not imported added to `rejected`; nothing else of the file is kept. The
 * export opens with a `Notes:` preamble of varying length, so the header row is found by its columns
 * rather than by skipping a fixed number of lines. Past LinkedIn's 30,000 connections, lines are
 * counted, not imported.
 */
export async function* connectionBatches(
  input: Readable | string | Buffer,
  rejected: Rejections,
): AsyncGenerator<LinkedinConnection[]> {
  let batch: LinkedinConnection[] = [];
  let kept = 0;
  const rows = exportRows(
    input,
    (names) => HEADER.slice(0, 3).every((name) => names.includes(name)),
    'This is not a LinkedIn Connections.csv export: no "First Name,Last Name,URL" header was found',
  );
  for await (const read of rows) {
    for (const row of read) {
      const connection = 'reason' in row ? row : readConnection(row);
      if ('reason' in connection) rejected.add(connection);
      else if (kept >= LINKEDIN_UPLOAD.maxConnections)
        rejected.add({
          line: connection.line,
          reason: `LinkedIn allows ${LINKEDIN_UPLOAD.maxConnections.toLocaleString('en-US')} connections: the lines past them are not imported`,
        });
      else {
        kept++;
        batch.push(connection);
        if (batch.length === CONNECTIONS_BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
  }
  if (batch.length > 0) yield batch;
}

function readConnection({ line, cell }: ExportRow): LinkedinConnection | Rejection {
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
