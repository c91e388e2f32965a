import { CSV_TEMPLATES, type ImportKind, ZClientFields, ZCompanyFields } from '@warmpath/shared';
import type { z } from 'zod';

// What each import reads: its columns (matched by header, case- and space-insensitively, with the
// usual other names), the shared schema that validates a row (the add-client form's rules), and the
// staging table's columns the valid values are copied into.

type FieldSpec = { field: string; names: readonly string[]; required: boolean };

export type KindSpec = {
  fields: readonly FieldSpec[];
  schema: z.ZodType<Record<string, string | undefined>, Record<string, string | undefined>>;
  /** The staging columns after (line, reason), in the order of `fields`. */
  columns: readonly string[];
};

/** How a header cell is compared: no spaces, underscores or BOM, lower case. */
export const normalizeHeader = (cell: string) =>
  cell
    .replace(/^\uFEFF/, '')
    .replace(/[\s_]+/g, '')
    .toLowerCase();

const companyFields: FieldSpec[] = [
  { field: 'companyName', names: ['companyname', 'company', 'name', 'accountname'], required: true },
  { field: 'companyDomain', names: ['companydomain', 'domain', 'website', 'companywebsite'], required: true },
];

export const KINDS: Record<ImportKind, KindSpec> = {
  accounts: { fields: companyFields, schema: ZCompanyFields, columns: ['company_name', 'company_domain'] },
  'crm-clients': { fields: companyFields, schema: ZCompanyFields, columns: ['company_name', 'company_domain'] },
  clients: {
    fields: [
      { field: 'firstName', names: ['firstname'], required: true },
      { field: 'lastName', names: ['lastname'], required: true },
      { field: 'email', names: ['email', 'emailaddress'], required: true },
      { field: 'companyName', names: ['companyname', 'company'], required: true },
      { field: 'companyDomain', names: ['companydomain', 'domain', 'website', 'companywebsite'], required: true },
      {
        field: 'linkedinUrl',
        names: ['linkedinprofileurl', 'linkedinurl', 'linkedin', 'linkedinprofile'],
        required: true,
      },
      { field: 'contactOwner', names: ['contactowner', 'owner'], required: false },
      { field: 'tag', names: ['tag'], required: false },
    ],
    schema: ZClientFields,
    columns: [
      'first_name',
      'last_name',
      'email',
      'company_name',
      'company_domain',
      'linkedin_url',
      'contact_owner',
      'tag',
    ],
  },
};

/** The staging table of an import: every row of the file, valid ones with a null reason. */
export const stagingTableSql = (spec: KindSpec, options: { dropOnCommit: boolean }) =>
  `create temp table import_rows (line bigint not null, reason text, ${spec.columns.map((column) => `${column} text`).join(', ')})${
    options.dropOnCommit ? ' on commit drop' : ''
  }`;

/** A staged row's values as one array, in the staging columns' order: how `import_staged_rows` keeps them. */
export const stagedValuesSql = (spec: KindSpec) =>
  `case when reason is null then array[${spec.columns.join(', ')}] end`;

/** The staging columns read back from `import_staged_rows`'s array of values. */
export const unstagedValuesSql = (spec: KindSpec) =>
  spec.columns.map((column, index) => `values[${index + 1}] as ${column}`).join(', ');

/** Each field's cell index in a record (-1 when the column is absent). */
export type HeaderMap = number[];

/**
 * Reads a header row: each field's column, or null when a required one is missing (the record is
 * then not a header; a file whose first record is not one has no usable header).
 */
export function mapHeader(spec: KindSpec, cells: readonly string[]): HeaderMap | null {
  const names = cells.map(normalizeHeader);
  const map = spec.fields.map((field) => names.findIndex((name) => field.names.includes(name)));
  return spec.fields.every((field, index) => !field.required || (map[index] ?? -1) >= 0) ? map : null;
}

export function missingHeaderMessage(kind: ImportKind): string {
  const expected = CSV_TEMPLATES[kind].columns
    .filter((_, index) => KINDS[kind].fields[index]?.required)
    .map((column) => `"${column}"`)
    .join(', ');
  return `The file has no usable header: its first line must name the columns ${expected} (download the template).`;
}

export type RowResult = { values: (string | null)[]; reason: null } | { values: null; reason: string };

/** Validates one record with the shared schema: the values to stage, or why the row is refused. */
export function validateRow(spec: KindSpec, header: HeaderMap, cells: readonly string[]): RowResult {
  const input: Record<string, string | undefined> = {};
  spec.fields.forEach((field, index) => {
    const column = header[index] ?? -1;
    input[field.field] = column >= 0 ? cells[column] : undefined;
  });
  const parsed = spec.schema.safeParse(input);
  if (!parsed.success) {
    const seen = new Set<string>();
    const reasons: string[] = [];
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (seen.has(key)) continue;
      seen.add(key);
      reasons.push(issue.message);
    }
    return { values: null, reason: reasons.join('; ') };
  }
  return { values: spec.fields.map((field) => parsed.data[field.field] ?? null), reason: null };
}
