import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { SimpleTable } from '../../ui/SimpleTable';

/** One gift as the Gift Aid screens list it: waiting to be claimed, or on a claim's schedule line. */
export type GiftAidGiftRow = {
  donationId: string;
  /** The schedule line, for a claim's gifts. */
  line?: number;
  note?: string;
  date: string;
  donorId?: string | null;
  donorName: string;
  house?: string;
  postcode?: string;
  campaign: string;
  amount: number;
  giftAid: number;
};

/**
 * The one table of gifts on the Gift Aid screen: the eligible gifts and a claim's gifts (with their
 * schedule line). Each gift links to its page, each donor to theirs.
 */
export function GiftAidGiftTable({
  label,
  rows,
  withAddress = false,
}: {
  label: string;
  rows: GiftAidGiftRow[];
  withAddress?: boolean;
}) {
  const withLine = rows.some((r) => r.line !== undefined);
  return (
    <SimpleTable
      label={label}
      rows={rows}
      rowKey={(g) => g.donationId}
      columns={[
        withLine && {
          header: 'Line',
          cell: (g) => (
            <>
              {g.line}
              {g.note ? <span className="dash-hint"> {g.note}</span> : null}
            </>
          ),
        },
        { header: 'Date', cell: (g) => formatDate(g.date) },
        {
          header: 'Donor',
          cell: (g) =>
            g.donorId ? <a href={`/dashboard/donors/edit/${g.donorId}`}>{g.donorName || 'Donor'}</a> : g.donorName,
        },
        withAddress && { header: 'House', cell: (g) => g.house },
        withAddress && { header: 'Postcode', cell: (g) => g.postcode },
        {
          header: 'For',
          cell: (g) => (
            <>
              <a href={`/dashboard/donations/edit/${g.donationId}`}>{g.campaign}</a>
              {!withLine && g.note ? <span className="dash-hint"> {g.note}</span> : null}
            </>
          ),
        },
        { header: 'Amount', cell: (g) => formatPence(g.amount) },
        { header: 'Gift Aid', cell: (g) => formatPence(g.giftAid) },
      ]}
    />
  );
}
