import { CSV_BOM, csvRow, raw } from '../../../../domain/csv';
import { penceToDecimal } from '../../../../domain/money';

/** What a payout's CSV reads of the payout the API answered. */
export type PayoutForCsv = {
  _id: string;
  arrival_date: string;
  lines: {
    balance_transaction_id: string;
    type: string;
    donation_id: string | null;
    donor_name: string | null;
    campaign_title: string | null;
    amount: number;
    fee: number;
    net: number;
  }[];
};

const HEADER = [
  'Payout',
  'Arrives',
  'Balance transaction',
  'Type',
  'Donation',
  'Donor',
  'Campaign',
  'Gross',
  'Fee',
  'Net',
];

/** Pounds as a number a spreadsheet sums ("-12.50" for a refund, never made text). */
const pounds = (pence: number) => raw(penceToDecimal(pence));

/**
 * A payout's lines as the finance team's CSV, with the same rules as the API's exports
 * (domain/csv.ts): the byte order mark Excel needs for "£" and "Zoë", CRLF, quoting, and donor
 * or campaign names that look like formulas made inert.
 */
export function payoutCsv(p: PayoutForCsv, typeLabel: (type: string) => string): string {
  const rows = p.lines.map((l) =>
    csvRow([
      p._id,
      p.arrival_date.slice(0, 10),
      l.balance_transaction_id,
      typeLabel(l.type),
      l.donation_id,
      l.donor_name,
      l.campaign_title,
      pounds(l.amount),
      pounds(l.fee),
      pounds(l.net),
    ]),
  );
  return CSV_BOM + csvRow(HEADER) + rows.join('');
}
