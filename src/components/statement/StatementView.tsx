import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { formatLongUkDate, formatPence, ukTaxYearOf } from '../../../domain';
import { api, type ApiError, client, type Data } from '../../lib/api';
import { $token, initAuth } from '../../stores/auth';

type Statement = Data<typeof client.api.me.statement.$get>;

const day = (iso: string) => formatLongUkDate(new Date(iso));

/** The printable annual statement: loads with the signed-in token, prints on A4 (statement.css). */
export default function StatementView() {
  const token = useStore($token);
  const current = ukTaxYearOf(new Date()).startYear;
  const years = useMemo(() => Array.from({ length: 7 }, (_, i) => current - i), [current]);
  const initial = Number(new URLSearchParams(window.location.search).get('tax_year')) || current;
  const [year, setYear] = useState(years.includes(initial) ? initial : current);
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'ok'; data: Statement } | { status: 'error'; error: ApiError }
  >({ status: 'loading' });
  const [ready, setReady] = useState(false);

  useEffect(() => {
    void initAuth().then(() => setReady(true));
  }, []);

  useEffect(() => {
    if (!ready) return;
    if (!token) {
      setState({ status: 'error', error: { statusCode: 401, message: 'Sign in to see your statement.' } });
      return;
    }
    setState({ status: 'loading' });
    const url = new URL(window.location.href);
    url.searchParams.set('tax_year', String(year));
    window.history.replaceState(null, '', url);
    void api((o) => client.api.me.statement.$get({ query: { tax_year: String(year) } }, o)).then((res) =>
      setState(res.ok ? { status: 'ok', data: res.data } : { status: 'error', error: res.error }),
    );
  }, [ready, token, year]);

  return (
    <main className="statement">
      {/* The sheet's own h1 names the page once it is loaded; until then (or signed out) this one does. */}
      {state.status === 'ok' ? null : <h1 className="visually-hidden">Annual giving statement</h1>}
      <div className="statement-tools no-print">
        <a href="/dashboard/donations/me">← My Donations</a>
        <label>
          Tax year{' '}
          <select value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                6 April {y} to 5 April {y + 1}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => window.print()}
          disabled={state.status !== 'ok'}
        >
          Print or save as PDF
        </button>
      </div>
      {state.status === 'loading' ? <p role="status">Loading your statement…</p> : null}
      {state.status === 'error' ? (
        <p role="alert" className="statement-error">
          {state.error.message} {state.error.statusCode === 401 ? <a href="/dashboard/donations/me">Sign in</a> : null}
        </p>
      ) : null}
      {state.status === 'ok' ? <StatementSheet s={state.data} /> : null}
    </main>
  );
}

function StatementSheet({ s }: { s: Statement }) {
  return (
    <article className="statement-sheet" aria-labelledby="statement-title">
      <header className="statement-head">
        <div>
          <h1 id="statement-title">Annual giving statement</h1>
          <p className="statement-period">
            Tax year {s.tax_year.label}: {day(s.tax_year.from)} to {day(s.tax_year.to)}
          </p>
        </div>
        <dl className="statement-donor">
          <dt>Donor</dt>
          <dd>{s.donor.name || 'Name not on file'}</dd>
          <dt>Email</dt>
          <dd>{s.donor.email}</dd>
          <dt>Issued</dt>
          <dd>{day(s.generated_at)}</dd>
        </dl>
      </header>
      {s.gifts.length === 0 ? (
        <p className="statement-empty">No gifts in this tax year.</p>
      ) : (
        <table className="statement-table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Cause</th>
              <th scope="col">Type</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Gift Aid</th>
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {s.gifts.map((g) => (
              <tr key={g._id}>
                <td>{day(g.date)}</td>
                <td>
                  {g.cause}
                  <span className="statement-charity">{g.charity}</span>
                </td>
                <td>{g.type === 'monthly' ? 'Monthly' : 'One-off'}</td>
                <td className="num">
                  {formatPence(g.net)}
                  {g.refunded > 0 ? (
                    <span className="statement-refund">
                      {formatPence(g.amount)} less {formatPence(g.refunded)} refunded
                    </span>
                  ) : null}
                </td>
                <td data-label="Gift Aid">{g.gift_aid ? <span className="gift-aid-yes">Yes</span> : 'No'}</td>
                <td className="ref" data-label="Reference">
                  {g.reference}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total given ({s.totals.count} gift{s.totals.count === 1 ? '' : 's'})
              </th>
              <td className="num">{formatPence(s.totals.net)}</td>
              <td colSpan={2}></td>
            </tr>
            <tr>
              <th scope="row" colSpan={3}>
                Of which Gift Aided
              </th>
              <td className="num">{formatPence(s.totals.gift_aid_net)}</td>
              <td colSpan={2}>Gift Aid claimed: {formatPence(s.totals.gift_aid_value)}</td>
            </tr>
          </tfoot>
        </table>
      )}
      <footer className="statement-foot">
        <p>
          If you pay higher-rate or additional-rate tax, you can claim the difference between that rate and basic rate
          on the Gift Aided total in your Self Assessment tax return. Refunded amounts are not included.
        </p>
        {s.charities.map((c) => (
          <p key={c.name}>
            {c.name}
            {c.registration ? `, ${c.registration}` : ''}
            {c.address ? `, ${c.address}` : ''}
          </p>
        ))}
      </footer>
    </article>
  );
}
