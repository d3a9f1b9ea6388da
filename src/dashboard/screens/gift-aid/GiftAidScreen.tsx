import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { GiftAidFields, giftAidReady, type GiftAidValue } from '../../../components/donation/GiftAidFields';
import { formatPence } from '../../../lib/format';
import { api, client, type Data } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashToken, $dashUser, isAdmin } from '../../session';
import { Alert, Badge, OrganizationSelect, PageHeader, Spinner, TextInput } from '../../ui/primitives';
import { SimpleTable } from '../../ui/SimpleTable';
import { ClaimPanel } from './ClaimPanel';
import { ClaimsTable } from './ClaimsTable';
import { declarationValue } from './declaration-value';
import { GiftAidGiftTable } from './GiftAidGiftTable';
import { GasdsPanel } from './GasdsPanel';

const giftAid = client.api['gift-aid'];
type Review = Data<typeof giftAid.declarations.review.$get>[number];

const SHOWN = 50;

/** /dashboard/gift-aid: eligible gifts, "Create claim", claims with their schedules, adjustments. */
export function GiftAidScreen() {
  const token = useStore($dashToken);
  const user = useStore($dashUser);
  const [orgsLoad] = useApiGet('/api/organizations?limit=100', (o) =>
    client.api.organizations.$get({ query: { limit: 100 } }, o),
  );
  const orgs = useMemo(() => (orgsLoad.status === 'ok' ? orgsLoad.data : []), [orgsLoad]);
  const [orgId, setOrgId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [aggregate, setAggregate] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);

  useEffect(() => {
    if (!orgId && orgs.length) setOrgId(orgs[0]._id);
  }, [orgs, orgId]);

  // Empty dates are left out of the query (hc skips undefined).
  const query = { organization_id: orgId, from: from || undefined, to: to || undefined };
  // Said in the form's words, and nothing asked of the server, while the days are the wrong way round.
  const inverted = from !== '' && to !== '' && to < from;
  const [eligible, reloadEligible] = useApiGet(orgId && !inverted ? giftAid.eligible.$path({ query }) : null, (o) =>
    giftAid.eligible.$get({ query }, o),
  );
  const [claims, reloadClaims] = useApiGet('/api/gift-aid/claims', (o) => giftAid.claims.$get({ query: {} }, o));
  const [adjustments, reloadAdjustments] = useApiGet('/api/gift-aid/adjustments', (o) =>
    giftAid.adjustments.$get({ query: {} }, o),
  );
  const [review, reloadReview] = useApiGet(isAdmin(user) ? '/api/gift-aid/declarations/review' : null, (o) =>
    giftAid.declarations.review.$get(undefined, o),
  );
  const reloadAll = () => {
    reloadEligible();
    reloadClaims();
    reloadAdjustments();
  };

  async function createClaim() {
    setBusy(true);
    setNotice(null);
    const res = await api(
      (o) =>
        giftAid.claims.$post(
          { json: { organization_id: orgId, ...(from ? { from } : {}), ...(to ? { to } : {}), aggregate } },
          o,
        ),
      { token },
    );
    setBusy(false);
    if (!res.ok) setNotice({ tone: 'error', text: res.error.message });
    else {
      setOpenId(res.data._id);
      setNotice({
        tone: 'success',
        text: `Claim created: ${res.data.row_count} lines, ${formatPence(res.data.total)} donated, ${formatPence(res.data.gift_aid)} Gift Aid, earliest donation ${formatDate(res.data.earliest_date)}. It is open below: check its gifts, download its schedule, then mark it submitted.`,
      });
    }
    reloadAll();
  }

  // What follows the eligible gifts waits for their first answer: shown before, it was pushed down
  // (off the screen) when they came. Later reloads (new dates) keep it where it is.
  const eligibleSettled =
    eligible.status === 'ok' ||
    eligible.status === 'error' ||
    inverted ||
    orgsLoad.status === 'error' ||
    (orgsLoad.status === 'ok' && orgs.length === 0);
  const [belowShown, setBelowShown] = useState(false);
  useEffect(() => {
    if (eligibleSettled) setBelowShown(true);
  }, [eligibleSettled]);

  const e = eligible.status === 'ok' ? eligible.data : null;
  const claimList = claims.status === 'ok' ? claims.data : [];
  const adjustmentList = adjustments.status === 'ok' ? adjustments.data : [];
  // Over-claims still to report for the chosen organization (the list holds all the viewer's).
  const due = adjustmentList
    .filter((a) => !a.settled_claim_id && a.organization_id === orgId)
    .reduce((sum, a) => sum + a.gift_aid, 0);
  /** What the next claim sets off: HMRC takes no adjustment larger than the claim (decision 080). */
  const dueNote = (giftAid: number) =>
    !due
      ? ''
      : due <= giftAid
        ? `, less ${formatPence(due)} over-claimed before`
        : `; of ${formatPence(due)} over-claimed before, a claim sets off each gift's whole only where it fits (HMRC takes no adjustment larger than the claim), the rest waits`;

  return (
    <section className="dash-section gift-aid-screen">
      <PageHeader title="Gift Aid" />
      <p className="dash-hint">
        Gifts with a valid Gift Aid declaration at their date, not yet claimed. Each charity claims under its own HMRC
        charity reference; a claim holds at most 1,000 schedule lines. Open a claim to see its gifts, download its
        schedule (ODS, for HMRC&apos;s Gift Aid schedule spreadsheet), void a draft, or record HMRC&apos;s answer.
      </p>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}

      <div className="dash-form gift-aid-filters">
        <div className="dash-grid-2">
          <OrganizationSelect organizations={orgs} value={orgId} onChange={setOrgId} required />
          <div className="dash-grid-2">
            <TextInput label="From" type="date" value={from} onChange={setFrom} />
            <TextInput label="To" type="date" value={to} onChange={setTo} />
          </div>
          {inverted ? <p className="dash-field-error">The “To” date must be on or after the “From” date.</p> : null}
        </div>
        <label className="dash-check">
          <input type="checkbox" checked={aggregate} onChange={(ev) => setAggregate(ev.target.checked)} /> Add gifts of
          £20 or less together (HMRC aggregated donations, at most £1,000 a line)
        </label>
        <div className="dash-form-actions">
          <p className="gift-aid-eligible-summary" role="status">
            {e
              ? `${e.count} eligible ${e.count === 1 ? 'gift' : 'gifts'}: ${formatPence(e.total)} donated, ${formatPence(e.gift_aid)} Gift Aid to claim${dueNote(e.gift_aid)}.`
              : eligible.status === 'loading' || !belowShown
                ? 'Counting eligible gifts…'
                : ''}
          </p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={createClaim}
            disabled={busy || !orgId || inverted || !e || e.count === 0}
          >
            {busy ? 'Creating…' : 'Create claim'}
          </button>
        </div>
      </div>

      {eligible.status === 'loading' ? <Spinner /> : null}
      {eligible.status === 'error' ? <Alert>{eligible.error.message}</Alert> : null}
      {e?.items.length ? (
        <>
          <GiftAidGiftTable
            label="Eligible gifts"
            withAddress
            rows={e.items.slice(0, SHOWN).map((g) => ({
              donationId: g._id,
              date: g.date,
              donorName: [g.donor.title, g.donor.first_name, g.donor.last_name].filter(Boolean).join(' '),
              house: g.donor.house,
              postcode: g.donor.postcode,
              campaign: g.campaign,
              note: g.source === 'manual' || g.source === 'batch' ? '(offline)' : undefined,
              amount: g.amount,
              giftAid: g.gift_aid,
            }))}
          />
          {e.count > SHOWN ? (
            <p className="dash-hint gift-aid-more">
              Showing the oldest {SHOWN} of {e.count}; a claim takes the oldest first.
            </p>
          ) : null}
        </>
      ) : e ? (
        <p className="dash-empty">No eligible gifts waiting to be claimed.</p>
      ) : null}

      {belowShown ? (
        <>
          <h2 className="dash-h2">Claims</h2>
          {claims.status === 'error' ? <Alert>{claims.error.message}</Alert> : null}
          <ClaimsTable
            claims={claimList}
            openId={openId}
            onToggle={(id) => setOpenId(openId === id ? null : id)}
            empty={claims.status === 'ok' ? <p className="dash-empty">No claims yet.</p> : null}
          />
          {(() => {
            const open = claimList.find((c) => c._id === openId);
            // A change on the claim page retires the screen's own notice (e.g. "Claim created").
            const onChanged = () => {
              setNotice(null);
              reloadAll();
            };
            return open ? (
              <ClaimPanel
                key={`${open._id}-${open.status}`}
                claim={open}
                token={token}
                onChanged={onChanged}
                onClose={() => setOpenId(null)}
              />
            ) : null;
          })()}

          {orgId ? <GasdsPanel organizationId={orgId} token={token} /> : null}

          <h2 className="dash-h2">Adjustments for Gift Aid over-claimed</h2>
          <p className="dash-hint">
            A refund of a gift already claimed: the Gift Aid on the refunded part is set against the organization&apos;s
            next claim. HMRC takes no adjustment larger than the claim it is on, so a gift&apos;s over-claim that does
            not fit waits for a larger claim. A refund the bank returned takes its adjustment back while no claim has
            reported it.
          </p>
          <SimpleTable
            label="Gift Aid adjustments"
            rows={adjustmentList}
            columns={[
              { header: 'Recorded', cell: (a) => formatDate(a.created_at) },
              {
                header: 'Gift',
                cell: (a) => (
                  <a href={`/dashboard/donations/edit/${a.donation_id}`}>
                    {a.donation_date
                      ? `${a.donor_name ?? 'Erased donor'}, ${formatDate(a.donation_date)}`
                      : a.donation_id.slice(0, 8)}
                  </a>
                ),
              },
              {
                header: 'Over-claimed Gift Aid',
                cell: (a) =>
                  a.reason === 'refund_failed' ? `${formatPence(a.gift_aid)} (refund failed)` : formatPence(a.gift_aid),
              },
              {
                header: 'Reported in',
                cell: (a) =>
                  a.settled_claim_id ? (
                    `claim ${a.settled_claim_id.slice(0, 8)}`
                  ) : (
                    <Badge tone="warn">next claim</Badge>
                  ),
              },
            ]}
            empty={<p className="dash-empty">No refunds of claimed gifts.</p>}
          />

          {review.status === 'ok' && review.data.length ? (
            <ReviewList items={review.data} token={token} onSaved={reloadReview} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** Declarations the migration could not split with certainty (one-line names and addresses). */
function ReviewList({ items, token, onSaved }: { items: Review[]; token: string | null; onSaved: () => void }) {
  const [open, setOpen] = useState<string | null>(null);
  const [value, setValue] = useState<GiftAidValue | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <h2 className="dash-h2">Declarations to check ({items.length})</h2>
      <p className="dash-hint">
        Older declarations kept the name and address as one line; check how they were split before their gifts are
        claimed.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <ul className="gift-aid-review">
        {items.map((d) => (
          <li key={d._id}>
            <span>
              {[d.title, d.first_name, d.last_name].filter(Boolean).join(' ') || '(no name)'} ·{' '}
              {d.house || '(no house)'} {d.address} · {d.postcode}
            </span>
            {open === d._id && value ? (
              <form
                className="donation-box"
                onSubmit={async (ev) => {
                  ev.preventDefault();
                  const res = await api(
                    (o) => giftAid.declarations[':id'].$put({ param: { id: d._id }, json: value }, o),
                    { token },
                  );
                  if (!res.ok) return setError(res.error.message);
                  setOpen(null);
                  onSaved();
                }}
              >
                <GiftAidFields
                  value={value}
                  onChange={setValue}
                  declaration={d.declaration}
                  idPrefix={`review-${d._id}`}
                />
                <button type="submit" className="btn btn-primary" disabled={!giftAidReady(value)}>
                  Save
                </button>
              </form>
            ) : (
              <button
                type="button"
                className="btn btn-ghost"
                onClick={() => {
                  setOpen(d._id);
                  setValue(declarationValue(d));
                }}
              >
                Check
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
