/** One field of RFC 4180 CSV: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A CSV file's text: the header line, then the rows, CRLF-separated as RFC 4180 says. */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `${[header, ...rows].map((fields) => fields.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** An import template: every column the importer reads, with an example row. */
export type CsvTemplate = { fileName: string; columns: readonly string[]; example: readonly string[] };

export function csvTemplateFile(template: CsvTemplate): Blob {
  return new Blob([csvText(template.columns, [template.example])], { type: 'text/csv' });
}
