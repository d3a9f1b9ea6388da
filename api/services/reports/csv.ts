import { errorSummary, logLine } from '../../middlewares/logger';

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

/**
 * A streamed CSV: the header row, then pages fetched one at a time until a short page, so the
 * worker never holds the whole export in memory.
 */
export function csvStream<T>(
  header: string[],
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  toCells: (row: T) => Cell[],
  pageSize = 500,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let offset = 0;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(header)));
    },
    async pull(controller) {
      if (done) return;
      try {
        const rows = await fetchPage(offset, pageSize);
        offset += rows.length;
        if (rows.length) controller.enqueue(encoder.encode(rows.map((r) => csvRow(toCells(r))).join('')));
        if (rows.length < pageSize) {
          done = true;
          controller.close();
        }
      } catch (err) {
        logLine('error', 'export failed while streaming', { error: errorSummary(err) });
        controller.error(err);
      }
    },
  });
}
