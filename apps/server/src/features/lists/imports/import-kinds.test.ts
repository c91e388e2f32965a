import { Readable } from 'node:stream';
import { CSV_TEMPLATES, LIST_VALIDATION, VALIDATION, ZClientFields } from '@warmpath/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsv } from './csv-reader.ts';
import { KINDS, mapHeader, missingHeaderMessage, validateRow } from './import-kinds.ts';

const clients = KINDS.clients;
const templateHeader = () => {
  const header = mapHeader(clients, CSV_TEMPLATES.clients.columns);
  if (!header) throw new Error('the template must be a usable header');
  return header;
};

describe('headers', () => {
  it('match case- and space-insensitively, in any order, with other columns ignored', () => {
    const header = mapHeader(clients, [
      'Notes',
      'LINKEDIN PROFILE URL',
      ' e-mail',
      'Email',
      'first_name',
      'LastName',
      'company  name',
      'Company Domain',
    ]);
    expect(header).toEqual([4, 5, 3, 6, 7, 1, -1, -1]);
  });

  it('need every required column', () => {
    expect(mapHeader(clients, ['First name', 'Last name', 'Email'])).toBeNull();
    expect(mapHeader(KINDS.accounts, ['Company name', 'Company domain'])).toEqual([0, 1]);
    expect(missingHeaderMessage('accounts')).toContain('"Company name", "Company domain"');
  });

  it('of every template are usable, and its example row is valid', () => {
    for (const kind of ['accounts', 'clients', 'crm-clients'] as const) {
      const template = CSV_TEMPLATES[kind];
      const header = mapHeader(KINDS[kind], template.columns);
      expect(header).not.toBeNull();
      expect(validateRow(KINDS[kind], header ?? [], template.example).reason).toBeNull();
    }
  });
});

describe('rows', () => {
  const row = (overrides: Partial<Record<(typeof CSV_TEMPLATES.clients.columns)[number], string>>) => {
    const values: Record<string, string> = Object.fromEntries(
      CSV_TEMPLATES.clients.columns.map((column, index) => [column, CSV_TEMPLATES.clients.example[index] ?? '']),
    );
    return CSV_TEMPLATES.clients.columns.map((column) => overrides[column] ?? values[column] ?? '');
  };

  it('are trimmed and normalized like the form', () => {
    const result = validateRow(
      clients,
      templateHeader(),
      row({
        'First name': '  Jane ',
        Email: ' Jane.Doe@Acme.COM ',
        'Company domain': 'https://Acme.com/',
        'Linkedin profile URL': 'linkedin.com/in/Jane-Doe/',
        'Contact owner': '',
        Tag: '',
      }),
    );
    expect(result).toEqual({
      reason: null,
      values: [
        'Jane',
        'Doe',
        'jane.doe@acme.com',
        'Acme',
        'acme.com',
        'https://www.linkedin.com/in/jane-doe',
        null,
        null,
      ],
    });
  });

  it('are refused with the form messages, one per field', () => {
    const result = validateRow(
      clients,
      templateHeader(),
      row({ 'First name': ' ', Email: 'jane@acme', 'Company domain': 'acme', 'Contact owner': 'owner' }),
    );
    expect(result.reason).toBe(
      [
        VALIDATION.firstNameRequired,
        VALIDATION.emailInvalid,
        VALIDATION.companyDomainInvalid,
        LIST_VALIDATION.contactOwnerInvalid,
      ].join('; '),
    );
  });

  it('missing an optional column are still valid', () => {
    const header = mapHeader(clients, CSV_TEMPLATES.clients.columns.slice(0, 6));
    expect(validateRow(clients, header ?? [], CSV_TEMPLATES.clients.example.slice(0, 6)).reason).toBeNull();
  });
});

const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', ',', '"', '\n', '@', '.', '/', 'é') });
const clientInput = fc.record({
  firstName: fc.oneof(text, fc.constantFrom('Jane', ' Ann ')),
  lastName: fc.oneof(text, fc.constant('Doe')),
  email: fc.oneof(text, fc.emailAddress()),
  companyName: fc.oneof(text, fc.constant('Acme, Inc.')),
  companyDomain: fc.oneof(
    text,
    fc.domain(),
    fc.domain().map((domain) => `https://${domain}/`),
  ),
  linkedinUrl: fc.oneof(
    text,
    fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((slug) => `https://www.linkedin.com/in/${slug}`),
  ),
  contactOwner: fc.oneof(fc.constant(''), fc.emailAddress(), text),
  tag: fc.oneof(fc.constant(''), text),
});

describe('a row read from CSV', () => {
  it('is judged exactly as the add-client form judges the same values', async () => {
    await fc.assert(
      fc.asyncProperty(clientInput, async (input) => {
        const fields = clients.fields.map((field) => input[field.field as keyof typeof input]);
        const line = (values: readonly string[]) =>
          `${values.map((value) => `"${value.replaceAll('"', '""')}"`).join(',')}\r\n`;
        const file = line(CSV_TEMPLATES.clients.columns) + line(fields);
        const records = [];
        for await (const batch of readCsv(Readable.from([Buffer.from(file)]))) records.push(...batch);
        const [headerRecord, record] = records;
        const header = mapHeader(clients, headerRecord?.cells ?? []);
        const form = ZClientFields.safeParse(input);
        if (!record) {
          // Every cell empty: a blank line, which the form refuses too.
          expect(form.success).toBe(false);
          return;
        }
        const result = validateRow(clients, header ?? [], record.cells);
        if (form.success) {
          expect(result.values).toEqual(
            clients.fields.map((field) => form.data[field.field as keyof typeof form.data] ?? null),
          );
        } else {
          expect(result.reason).not.toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });
});
