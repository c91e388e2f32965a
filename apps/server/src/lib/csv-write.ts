/**
 * One CSV cell, safe to open in a spreadsheet: a value a spreadsheet would run as a formula (starting
 * with =, +, -, @, a tab or a carriage return) is prefixed with a quote, and any cell with a comma,
 * quote or line break is quoted (RFC 4180).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[]) =>
  `${cells.map(csvCell).join(',')}\r\n`;
