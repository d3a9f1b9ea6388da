import { formatHmrcDate, londonIsoDate, penceToDecimal } from '../../../domain';
import { zipStore } from '../../lib/zip';
import { type CsvRow, SCHEDULE_COLUMNS } from './schedule';

/**
 * The claim as an OpenDocument spreadsheet laid out like HMRC's Gift Aid schedule: the earliest
 * donation date at the top, then Item, Title, First name, Last name, House name or number,
 * Postcode, Aggregated donations, Sponsored event, Donation date, Amount. Dates are date cells
 * (office:date-value, shown DD/MM/YY) and amounts float cells (two decimals), so no spreadsheet's
 * locale can read 03/12/25 as 12 March or 1,000.00 as text. Pure: the same rows give the same bytes.
 */

export const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';

/** HMRC's spreadsheet numbers its lines and asks for a first name "or initial"; the rest is the CSV's. */
export const ODS_COLUMNS = ['Item', 'Title', 'First name or initial', ...SCHEDULE_COLUMNS.slice(2)] as const;

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"',
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
].join(' ');

const xml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string,
  );

const textCell = (value: string, style = '') =>
  value
    ? `<table:table-cell${style ? ` table:style-name="${style}"` : ''} office:value-type="string"><text:p>${xml(value)}</text:p></table:table-cell>`
    : '<table:table-cell/>';
const dateCell = (date: Date) =>
  `<table:table-cell table:style-name="ceDate" office:value-type="date" office:date-value="${londonIsoDate(date)}"><text:p>${formatHmrcDate(date)}</text:p></table:table-cell>`;
const moneyCell = (pence: number) =>
  `<table:table-cell table:style-name="ceMoney" office:value-type="float" office:value="${penceToDecimal(pence)}"><text:p>${penceToDecimal(pence)}</text:p></table:table-cell>`;
const intCell = (n: number) =>
  `<table:table-cell office:value-type="float" office:value="${n}"><text:p>${n}</text:p></table:table-cell>`;
const row = (cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;
/** A heading over the first five columns: in column A alone (Item, 1.2 cm) it showed as "Earlies". */
const HEADING_SPAN = 5;
const headingCell = (value: string) =>
  `<table:table-cell table:style-name="ceBold" table:number-columns-spanned="${HEADING_SPAN}" office:value-type="string"><text:p>${xml(value)}</text:p></table:table-cell>${'<table:covered-table-cell/>'.repeat(HEADING_SPAN - 1)}`;

function contentXml(rows: CsvRow[], earliest: Date, totalPence: number): string {
  const body = [
    row([headingCell('Earliest donation date in the period of claim (DD/MM/YY)'), dateCell(earliest)]),
    row([headingCell('Total donations'), moneyCell(totalPence)]),
    row([textCell('')]),
    row(ODS_COLUMNS.map((title) => textCell(title, 'ceBold'))),
    ...rows.map((r, index) =>
      row([
        intCell(index + 1),
        textCell(r.title),
        textCell(r.firstName),
        textCell(r.lastName),
        textCell(r.house),
        textCell(r.postcode),
        textCell(r.aggregated),
        textCell(r.sponsored ? 'Yes' : ''),
        dateCell(r.donationDate),
        moneyCell(r.amountPence),
      ]),
    ),
  ];
  const widths = ['1.2cm', '1.5cm', '4cm', '4cm', '5cm', '2.4cm', '6.5cm', '3.2cm', '2.8cm', '2.4cm'];
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${NS} office:version="1.2">` +
    '<office:automatic-styles>' +
    '<number:date-style style:name="NDate"><number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/><number:text>/</number:text><number:year/></number:date-style>' +
    '<number:number-style style:name="NMoney"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1"/></number:number-style>' +
    widths
      .map(
        (w, i) =>
          `<style:style style:name="co${i}" style:family="table-column"><style:table-column-properties style:column-width="${w}"/></style:style>`,
      )
      .join('') +
    '<style:style style:name="ceDate" style:family="table-cell" style:data-style-name="NDate"/>' +
    '<style:style style:name="ceMoney" style:family="table-cell" style:data-style-name="NMoney"/>' +
    '<style:style style:name="ceBold" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style>' +
    '</office:automatic-styles>' +
    '<office:body><office:spreadsheet><table:table table:name="Gift Aid schedule">' +
    widths.map((_, i) => `<table:table-column table:style-name="co${i}"/>`).join('') +
    body.join('') +
    '</table:table></office:spreadsheet></office:body></office:document-content>'
  );
}

const manifestXml =
  '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
  `<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="${ODS_MIME}"/>` +
  '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>' +
  '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>' +
  '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>' +
  '</manifest:manifest>';

const stylesXml = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${NS} office:version="1.2"><office:styles/></office:document-styles>`;

/** The claim's creation time is the only date in the metadata: a later download is the same file. */
const metaXml = (createdAt: Date) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta ${NS} office:version="1.2"><office:meta><meta:generator>Gift Aid schedule</meta:generator><dc:title>Gift Aid schedule</dc:title><meta:creation-date>${createdAt.toISOString().slice(0, 19)}</meta:creation-date></office:meta></office:document-meta>`;

export function scheduleOds(
  rows: CsvRow[],
  claim: { earliest: Date; totalPence: number; createdAt: Date },
): Uint8Array {
  return zipStore([
    // ODF: the mimetype entry comes first, stored, so the file type can be read at a fixed offset.
    { name: 'mimetype', data: ODS_MIME },
    { name: 'META-INF/manifest.xml', data: manifestXml },
    { name: 'content.xml', data: contentXml(rows, claim.earliest, claim.totalPence) },
    { name: 'styles.xml', data: stylesXml },
    { name: 'meta.xml', data: metaXml(claim.createdAt) },
  ]);
}
