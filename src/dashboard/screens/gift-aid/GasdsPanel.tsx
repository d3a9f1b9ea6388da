import { useState } from 'react';
import { ukTaxYearOf } from '../../../../domain/dates';
import { formatPence } from '../../../lib/format';
import { api, client } from '../../../lib/api';
import { useApiGet } from '../../lib/use-api';
import { Alert, SelectInput } from '../../ui/primitives';

const giftAid = client.api['gift-aid'];

const LIMIT_TEXT = {
  small_donations: 'all the small donations recorded',
  annual_limit: "HMRC's limit of £8,000 of small donations a tax year",
  matching_rule: 'at most 10 times the Gift Aid donations claimed for the same tax year',
} as const;

/** The Small Donations Scheme for one organization and tax year: the figure to claim, what limits it, and "Record as claimed". */
export function GasdsPanel({ organizationId, token }: { organizationId: string; token: string | null }) {
  const current = ukTaxYearOf(new Date()).startYear;
  const [year, setYear] = useState(String(current));
  const query = { organization_id: organizationId, tax_year: year };
  const [load, reload] = useApiGet(organizationId ? giftAid.gasds.$path({ query }) : null, (o) =>
    giftAid.gasds.$get({ query }, o),
  );
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const g = load.status === 'ok' ? load.data : null;

  async function record() {
    setNotice(null);
    const res = await api(
      (o) => giftAid.gasds.$post({ json: { organization_id: organizationId, tax_year: Number(year) } }, o),
      { token },
    );
    if (!res.ok) setNotice({ tone: 'error', text: res.error.message });
    else
      setNotice({
        tone: 'success',
        text: `Recorded as claimed: ${formatPence(res.data.claims.at(-1)?.donations ?? 0)} of small donations.`,
      });
    reload();
  }

  return (
    <section className="gift-aid-gasds" aria-label="Gift Aid Small Donations Scheme">
      <h2 className="dash-h2">Small Donations Scheme (GASDS)</h2>
      <p className="dash-hint">
        Cash and contactless gifts of £30 or less without a declaration, recorded by hand. HMRC pays a 25% top-up on at
        most £8,000 of them a tax year, and on no more than 10 times the Gift Aid donations claimed for the same year.
      </p>
      <div className="dash-form gift-aid-gasds-form">
        <SelectInput
          label="Tax year"
          value={year}
          onChange={setYear}
          options={[current, current - 1, current - 2].map((y) => ({
            label: `${y}-${String((y + 1) % 100).padStart(2, '0')}`,
            value: String(y),
          }))}
        />
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {load.status === 'error' ? <Alert>{load.error.message}</Alert> : null}
      {g ? (
        <dl className="gift-aid-gasds-figures">
          <div>
            <dt>Small donations recorded</dt>
            <dd>
              {formatPence(g.small_donations)} ({g.small_gifts} gifts)
            </dd>
          </div>
          <div>
            <dt>Gift Aid donations claimed this year</dt>
            <dd>{formatPence(g.gift_aid_donations)}</dd>
          </div>
          <div>
            <dt>Already claimed under GASDS</dt>
            <dd>{formatPence(g.already_claimed)}</dd>
          </div>
          <div>
            <dt>To claim now</dt>
            <dd>
              <strong>{formatPence(g.claimable)}</strong>, top-up {formatPence(g.top_up)}
              <div className="dash-hint">Limited by {LIMIT_TEXT[g.limited_by]}.</div>
            </dd>
          </div>
        </dl>
      ) : null}
      {g && g.claimable > 0 ? (
        <button type="button" className="btn btn-primary" onClick={record}>
          Record {formatPence(g.claimable)} as claimed
        </button>
      ) : null}
    </section>
  );
}
