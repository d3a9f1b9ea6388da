import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';

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
    <div className="dash-table-wrap">
      <div className="dash-table-scroll">
        <table className="dash-table" aria-label={label}>
          <thead>
            <tr>
              {withLine ? <th>Line</th> : null}
              <th>Date</th>
              <th>Donor</th>
              {withAddress ? (
                <>
                  <th>House</th>
                  <th>Postcode</th>
                </>
              ) : null}
              <th>For</th>
              <th>Amount</th>
              <th>Gift Aid</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr key={g.donationId}>
                {withLine ? (
                  <td>
                    {g.line}
                    {g.note ? <span className="dash-hint"> {g.note}</span> : null}
                  </td>
                ) : null}
                <td>{formatDate(g.date)}</td>
                <td>
                  {g.donorId ? (
                    <a href={`/dashboard/donors/edit/${g.donorId}`}>{g.donorName || 'Donor'}</a>
                  ) : (
                    g.donorName
                  )}
                </td>
                {withAddress ? (
                  <>
                    <td>{g.house}</td>
                    <td>{g.postcode}</td>
                  </>
                ) : null}
                <td>
                  <a href={`/dashboard/donations/edit/${g.donationId}`}>{g.campaign}</a>
                  {!withLine && g.note ? <span className="dash-hint"> {g.note}</span> : null}
                </td>
                <td>{formatPence(g.amount)}</td>
                <td>{formatPence(g.giftAid)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
