import { errorSummary, logLine } from '../../middlewares/logger';

import { CSV_BOM, type Cell, csvRow } from '../../../domain/csv';

/** The CSV rules (quoting, formulas, the byte order mark) are domain/csv.ts, shared with the dashboard. */
export { CSV_BOM, type Cell, csvCell, csvRow, type Raw, raw } from '../../../domain/csv';

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
