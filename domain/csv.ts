/**
 * CSV for finance teams (RFC 4180): CRLF line ends, a cell is quoted when it holds a comma, quote,
 * line break or edge space, quotes are doubled. Text that a spreadsheet would run as a formula
 * (starting with = + - @, or a tab or carriage return) gets a leading apostrophe (OWASP "CSV
 * injection"). Amounts we format ourselves are passed as `Raw` so "-12.50" stays a number.
 */

export type Raw = { raw: string };
export type Cell = string | number | boolean | null | undefined | Raw;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export const raw = (value: string): Raw => ({ raw: value });

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'object') text = value.raw;
  else if (typeof value === 'boolean') text = value ? 'Yes' : 'No';
  else if (typeof value === 'number') text = String(value);
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: Cell[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/** Excel reads UTF-8 only with a byte order mark (names like "Zoë" or "£"). */
export const CSV_BOM = '\uFEFF';
