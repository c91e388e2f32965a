/** The first characters that make a spreadsheet run a cell as a formula. */
export const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'] as const;

/**
 * One CSV cell, safe to open in a spreadsheet: a value a spreadsheet would run as a formula (starting
 * with =, +, -, @, a tab or a carriage return) is prefixed with a quote, and any cell with a comma,
 * quote or line break is quoted (RFC 4180).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if ((FORMULA_START as readonly string[]).includes(text.charAt(0))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[]) =>
  `${cells.map(csvCell).join(',')}\r\n`;
