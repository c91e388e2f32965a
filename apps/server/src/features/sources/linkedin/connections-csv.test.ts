import { LINKEDIN_UPLOAD } from '@warmpath/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONNECTIONS_BATCH,
  canonicalProfileUrl,
  connectionBatches,
  type LinkedinConnection,
  parseConnectedOn,
} from './connections-csv.ts';
import { Rejections } from './export-rows.ts';

/** Every connection of a file, and the lines rejected. */
async function parseConnectionsCsv(input: string) {
  const rejected = new Rejections();
  const connections: LinkedinConnection[] = [];
  for await (const batch of connectionBatches(input, rejected)) connections.push(...batch);
  return { connections, rejected: rejected.listed, rejectedCount: rejected.count };
}

const PREAMBLE = [
  'Notes:',
  '"When exporting your connection data, you may notice that some of the email addresses are missing. You will only see email addresses for connections who have allowed their connections to see or download their email address using this setting https://www.linkedin.com/psettings/privacy/email. You can learn more about this here: https://www.linkedin.com/help/linkedin/answer/261"',
  '',
];
const HEADER = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On';

describe('parseConnectionsCsv', () => {
  it('reads a real-format export: preamble, BOM, CRLF, quoted commas, empty e-mails, non-ASCII names', async () => {
    const file = `\uFEFF${[
      ...PREAMBLE,
      HEADER,
      'Zoë,Müller-Łukasz,https://www.linkedin.com/in/zoe-muller,,"Acme, Inc.","Head of Sales, EMEA",07 Dec 2025',
      'Jean,Dupont,https://www.linkedin.com/in/JeanDupont/,Jean.Dupont@Example.fr,Dupont SAS,CEO,15 Jan 2019',
      '',
      'Bad,Row,https://example.com/not-linkedin,,,,01 Jan 2020',
      '',
    ].join('\r\n')}`;
    const { connections, rejected } = await parseConnectionsCsv(file);
    expect(connections).toEqual([
      {
        firstName: 'Zoë',
        lastName: 'Müller-Łukasz',
        profileUrl: 'https://www.linkedin.com/in/zoe-muller',
        email: null,
        company: 'Acme, Inc.',
        position: 'Head of Sales, EMEA',
        connectedOn: new Date(Date.UTC(2025, 11, 7)),
        line: 5,
      },
      expect.objectContaining({
        profileUrl: 'https://www.linkedin.com/in/jeandupont',
        email: 'jean.dupont@example.fr',
        connectedOn: new Date(Date.UTC(2019, 0, 15)),
        line: 6,
      }),
    ]);
    expect(rejected).toEqual([{ line: 8, reason: 'The URL is not a LinkedIn profile address' }]);
  });

  it('finds the header without a preamble, and refuses a file that has none', async () => {
    const plain = await parseConnectionsCsv(`${HEADER}\nA,B,https://linkedin.com/in/ab,,,,\n`);
    expect(plain.connections).toHaveLength(1);
    await expect(parseConnectionsCsv('name,email\nA,a@b.c\n')).rejects.toThrow(/not a LinkedIn Connections.csv/);
  });

  it('reports a row by the line it starts on, skips lines of blank cells, and reads a BOM before the header', async () => {
    const file = `\uFEFF${HEADER}\n"Ana\nMaria",Silva,https://www.linkedin.com/in/ana,,,,\n , ,\nBad,Row,nope,,,,\n`;
    const { connections, rejected } = await parseConnectionsCsv(file);
    expect(connections).toEqual([expect.objectContaining({ firstName: 'Ana\nMaria', line: 2 })]);
    expect(rejected).toEqual([{ line: 5, reason: 'The URL is not a LinkedIn profile address' }]);
  });

  it("keeps LinkedIn's 30,000 connections at most, in batches, and lists 100 rejected lines of all it counts", async () => {
    const lines = [HEADER];
    for (let i = 0; i < LINKEDIN_UPLOAD.maxConnections + 5; i++)
      lines.push(`P,${i},https://www.linkedin.com/in/p-${i},,,,`);
    for (let i = 0; i < 250; i++) lines.push(`Bad,${i},nope,,,,`);
    const rejected = new Rejections();
    const sizes: number[] = [];
    for await (const batch of connectionBatches(lines.join('\n'), rejected)) sizes.push(batch.length);
    expect(sizes).toEqual(Array(LINKEDIN_UPLOAD.maxConnections / CONNECTIONS_BATCH).fill(CONNECTIONS_BATCH));
    expect(rejected.count).toBe(255);
    expect(rejected.listed).toHaveLength(LINKEDIN_UPLOAD.listedRejections);
    expect(rejected.listed[0]).toEqual({
      line: LINKEDIN_UPLOAD.maxConnections + 2,
      reason: 'LinkedIn allows 30,000 connections: the lines past them are not imported',
    });
    expect(rejected.listed[5]).toEqual({
      line: LINKEDIN_UPLOAD.maxConnections + 7,
      reason: 'The URL is not a LinkedIn profile address',
    });
  });

  it('refuses a file whose header is not among its first lines, without reading the rest', async () => {
    const preamble = Array.from({ length: 25 }, (_, i) => `Notes ${i}`);
    await expect(
      parseConnectionsCsv([...preamble, HEADER, 'A,B,https://linkedin.com/in/ab,,,,'].join('\n')),
    ).rejects.toThrow(/not a LinkedIn Connections.csv/);
  });

  it('reads a NUL as U+FFFD, and refuses a cell longer than any LinkedIn writes', async () => {
    const { connections, rejected } = await parseConnectionsCsv(
      `${HEADER}\nA\u0000a,B,https://linkedin.com/in/ab,,,,\nC,D,https://linkedin.com/in/cd,,${'x'.repeat(1001)},,\n`,
    );
    expect(connections.map((connection) => connection.firstName)).toEqual(['A\uFFFDa']);
    expect(rejected).toEqual([{ line: 3, reason: 'A field is longer than 1000 characters' }]);
  });

  it('reads back any table of connections written as RFC 4180 CSV', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', ' ', 'Z', '\n', 'ł') });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ first: text, last: text, company: text, slug: fc.stringMatching(/^[a-z0-9-]{1,20}$/) }), {
          maxLength: 20,
        }),
        async (rows) => {
          const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
          const named = rows.filter((row) => row.first.trim() || row.last.trim());
          const lines = named.map((row) =>
            [
              quote(row.first),
              quote(row.last),
              `https://www.linkedin.com/in/${row.slug}`,
              '',
              quote(row.company),
              '',
              '',
            ].join(','),
          );
          const { connections } = await parseConnectionsCsv([...PREAMBLE, HEADER, ...lines].join('\r\n'));
          expect(connections.map((c) => [c.firstName, c.lastName, c.company ?? ''])).toEqual(
            named.map((row) => [row.first.trim(), row.last.trim(), row.company.trim()]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('parseConnectedOn and canonicalProfileUrl', () => {
  it('parse the export formats and reject the rest', () => {
    expect(parseConnectedOn('07 Dec 2025')).toEqual(new Date(Date.UTC(2025, 11, 7)));
    expect(parseConnectedOn('31 Feb 2024')).toBeNull();
    expect(parseConnectedOn('')).toBeNull();
    expect(canonicalProfileUrl('http://fr.linkedin.com/in/Some-One/?trk=x')).toBe(
      'https://www.linkedin.com/in/some-one',
    );
    expect(canonicalProfileUrl('https://www.linkedin.com/company/acme')).toBeNull();
    expect(canonicalProfileUrl('not a url')).toBeNull();
  });
});
