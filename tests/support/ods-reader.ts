/**
 * A minimal OpenDocument spreadsheet reader for tests (no ODS library is installed): reads a
 * stored (uncompressed) ZIP through its central directory, checks each entry's CRC-32, and turns
 * content.xml's first table into rows of typed cells.
 */
import { crc32 } from '../../api/lib/zip';

export type OdsEntry = { name: string; data: Uint8Array; method: number; offset: number; extraLength: number };
export type OdsCell = { type: string | null; value: string | null; dateValue: string | null; text: string };

export function readZip(bytes: Uint8Array): OdsEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: OdsEntry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (method !== 0) throw new Error(`${name}: compressed entries are not supported by this reader`);
    const localExtra = view.getUint16(offset + 28, true);
    const start = offset + 30 + view.getUint16(offset + 26, true) + localExtra;
    const data = bytes.subarray(start, start + size);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC mismatch`);
    entries.push({ name, data, method, offset, extraLength: localExtra });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

const attr = (tag: string, name: string) => {
  const match = new RegExp(`${name}="([^"]*)"`).exec(tag);
  return match ? unescapeXml(match[1]) : null;
};
const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The first table of content.xml as rows of cells (repeated cells expanded). */
export function readOdsRows(bytes: Uint8Array): OdsCell[][] {
  const content = readZip(bytes).find((e) => e.name === 'content.xml');
  if (!content) throw new Error('no content.xml');
  const xml = new TextDecoder().decode(content.data);
  const table = /<table:table [^>]*>([\s\S]*?)<\/table:table>/.exec(xml)?.[1] ?? '';
  const rows: OdsCell[][] = [];
  for (const rowMatch of table.matchAll(/<table:table-row[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
    const cells: OdsCell[] = [];
    for (const cell of (rowMatch[1] ?? '').matchAll(
      /<table:table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g,
    )) {
      const tag = cell[1];
      const text = [...(cell[2] ?? '').matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)]
        .map((p) => unescapeXml(p[1]))
        .join('\n');
      const repeat = Number(attr(tag, 'table:number-columns-repeated') ?? 1);
      for (let i = 0; i < repeat; i++) {
        cells.push({
          type: attr(tag, 'office:value-type'),
          value: attr(tag, 'office:value'),
          dateValue: attr(tag, 'office:date-value'),
          text,
        });
      }
    }
    rows.push(cells);
  }
  return rows;
}
