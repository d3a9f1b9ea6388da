import { useState } from 'react';
import { londonIsoDate } from '../../../../domain/dates';
import { formatPence, parsePounds } from '../../../lib/format';
import { api, type ApiResult, client, type Data, download } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { Alert, Badge, TextInput } from '../../ui/primitives';
import { GiftAidGiftTable } from './GiftAidGiftTable';

const giftAid = client.api['gift-aid'];
export type Claim = Data<typeof giftAid.claims.$get>[number];

/** Saves a claim's schedule (CSV or ODS) through the API; null when saved, else the server's message. */
export async function downloadSchedule(
  claim: Claim,
  token: string | null,
  kind: 'csv' | 'ods',
): Promise<string | null> {
  const route = kind === 'csv' ? giftAid.claims[':id']['schedule.csv'] : giftAid.claims[':id']['schedule.ods'];
  const name = `gift-aid-claim-${claim.earliest_date.slice(0, 10)}-${claim._id.slice(0, 8)}.${kind}`;
  const saved = await download(route.$path({ param: { id: claim._id } }), name, { token });
  return saved.ok ? null : saved.error.message;
}

/** What recording HMRC's reference says: for a draft's first submission, and for a rejected claim's resubmission. */
const REFERENCE_STEPS = {
  draft: {
    heading: 'Submitted to HMRC?',
    label: 'HMRC reference',
    hint: 'The submission reference Charities Online gave you',
    button: 'Mark submitted',
    missing: "Enter HMRC's reference for this submission before marking it submitted.",
    done: 'Claim marked submitted.',
  },
  rejected: {
    heading: 'Resubmit',
    label: 'New HMRC reference',
    hint: 'The reference Charities Online gave the new submission',
    button: 'Resubmit',
    missing: "Enter HMRC's reference for the new submission before resubmitting.",
    done: 'Claim resubmitted.',
  },
};

/** An HMRC reference to record (a submission or a resubmission): sent trimmed, or a notice when empty. */
function ReferenceAction(props: {
  heading: string;
  label: string;
  hint: string;
  button: string;
  missing: string;
  value: string;
  onChange: (value: string) => void;
  onSend: (reference: string) => void;
  onMissing: (text: string) => void;
}) {
  return (
    <div className="dash-form gift-aid-claim-action">
      <h3 className="dash-h3">{props.heading}</h3>
      <TextInput label={props.label} value={props.value} onChange={props.onChange} hint={props.hint} />
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => (props.value.trim() ? props.onSend(props.value.trim()) : props.onMissing(props.missing))}
      >
        {props.button}
      </button>
    </div>
  );
}

/** One claim opened: its gifts, its downloads, and what can happen to it next (void, reject, resubmit, payment). */
export function ClaimPanel({
  claim,
  token,
  onChanged,
  onClose,
}: {
  claim: Claim;
  token: string | null;
  onChanged: () => void;
  onClose: () => void;
}) {
  const [gifts] = useApiGet(giftAid.claims[':id'].gifts.$path({ param: { id: claim._id } }) + `#${claim.status}`, (o) =>
    giftAid.claims[':id'].gifts.$get({ param: { id: claim._id } }, o),
  );
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [reason, setReason] = useState('');
  const [reference, setReference] = useState('');
  const [amount, setAmount] = useState((claim.net_claim / 100).toFixed(2));
  // Today in the UK: the UTC date is yesterday's between midnight and 1 am in summer.
  const [paidOn, setPaidOn] = useState(londonIsoDate(new Date()));
  const [note, setNote] = useState('');
  const id = { id: claim._id };

  async function act(run: () => Promise<ApiResult<unknown>>, done: string) {
    setNotice(null);
    const res = await run();
    if (!res.ok) setNotice({ tone: 'error', text: res.error.message });
    else {
      setNotice({ tone: 'success', text: done });
      onChanged();
    }
  }
  async function download(kind: 'csv' | 'ods') {
    const problem = await downloadSchedule(claim, token, kind);
    setNotice(problem ? { tone: 'error', text: `The download failed: ${problem}` } : null);
  }
  const referenceStep = claim.status === 'draft' || claim.status === 'rejected' ? REFERENCE_STEPS[claim.status] : null;
  const pence = parsePounds(amount);
  const difference = pence === null ? 0 : pence - claim.net_claim;

  return (
    <section className="gift-aid-claim-panel" aria-label={`Claim of ${formatDate(claim.created_at)}`}>
      <div className="gift-aid-claim-head">
        <h2 className="dash-h2">
          Claim of {formatDate(claim.created_at)}{' '}
          <Badge
            tone={
              claim.status === 'paid'
                ? 'ok'
                : claim.status === 'draft' || claim.status === 'rejected'
                  ? 'warn'
                  : 'muted'
            }
          >
            {claim.status}
          </Badge>
        </h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <p className="dash-hint">
        {claim.organization.label} ({claim.charity_reference}): {claim.gift_count} gifts on {claim.row_count} lines,{' '}
        {formatPence(claim.total)} donated, {formatPence(claim.gift_aid)} Gift Aid
        {claim.adjustment ? `, less ${formatPence(claim.adjustment)} over-claimed before` : ''}:{' '}
        {formatPence(claim.net_claim)} to be paid.
        {claim.paid_amount !== null ? ` HMRC paid ${formatPence(claim.paid_amount)} on ${claim.paid_on}.` : ''}
        {claim.rejection_reason ? ` HMRC's reason for rejecting it: ${claim.rejection_reason}.` : ''}
        {claim.void_reason || claim.voided_at
          ? ` Voided${claim.void_reason ? `: ${claim.void_reason}` : ''}; its gifts can be claimed again.`
          : ''}
      </p>
      {claim.payment_difference ? (
        <Alert tone="error">
          HMRC paid {formatPence(Math.abs(claim.payment_difference))} {claim.payment_difference < 0 ? 'less' : 'more'}{' '}
          than claimed. Note: {claim.payment_note}
        </Alert>
      ) : null}

      <div className="gift-aid-downloads">
        <button type="button" className="btn btn-outline" onClick={() => download('ods')}>
          Download ODS
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => download('csv')}>
          Download CSV
        </button>
        <p className="dash-hint">
          Use the ODS: its dates and amounts are typed cells, so copying them into HMRC&apos;s Gift Aid schedule
          spreadsheet keeps 03/12/25 as 3 December. The CSV is for tools that import CSV; a spreadsheet set to another
          locale may misread its dates.
        </p>
      </div>

      {referenceStep ? (
        <ReferenceAction
          {...referenceStep}
          value={reference}
          onChange={setReference}
          onSend={(hmrc_reference) =>
            act(
              () =>
                claim.status === 'draft'
                  ? api(
                      (o) =>
                        giftAid.claims[':id'].$put({ param: id, json: { status: 'submitted', hmrc_reference } }, o),
                      { token },
                    )
                  : api((o) => giftAid.claims[':id'].resubmit.$post({ param: id, json: { hmrc_reference } }, o), {
                      token,
                    }),
              referenceStep.done,
            )
          }
          onMissing={(text) => setNotice({ tone: 'error', text })}
        />
      ) : null}
      {claim.status === 'draft' ? (
        <div className="dash-form gift-aid-claim-action">
          <h3 className="dash-h3">Not going to HMRC?</h3>
          <TextInput label="Reason for voiding (optional)" value={reason} onChange={setReason} />
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => {
              if (
                !window.confirm(
                  'Void this draft claim? Its gifts become eligible again; the claim stays on record as void.',
                )
              )
                return;
              void act(
                () =>
                  api(
                    (o) =>
                      giftAid.claims[':id'].void.$post(
                        { param: id, json: reason.trim() ? { reason: reason.trim() } : {} },
                        o,
                      ),
                    { token },
                  ),
                'Claim voided: its gifts are eligible again.',
              );
            }}
          >
            Void claim
          </button>
        </div>
      ) : null}
      {claim.status === 'submitted' ? (
        <>
          <div className="dash-form gift-aid-claim-action">
            <h3 className="dash-h3">Record HMRC&apos;s payment</h3>
            <div className="dash-grid-2">
              <TextInput label="Amount paid (£)" value={amount} onChange={setAmount} inputMode="decimal" />
              <TextInput label="Paid on" type="date" value={paidOn} onChange={setPaidOn} />
            </div>
            {pence !== null && difference !== 0 ? (
              <TextInput
                label={`Note: why HMRC paid ${formatPence(Math.abs(difference))} ${difference < 0 ? 'less' : 'more'}`}
                value={note}
                onChange={setNote}
                required
              />
            ) : null}
            <button
              type="button"
              className="btn btn-primary"
              onClick={() =>
                pence === null
                  ? setNotice({ tone: 'error', text: 'amount: enter the amount HMRC paid, like 125.50' })
                  : act(
                      () =>
                        api(
                          (o) =>
                            giftAid.claims[':id'].payment.$post(
                              {
                                param: id,
                                json: { amount: pence, paid_on: paidOn, ...(note.trim() ? { note: note.trim() } : {}) },
                              },
                              o,
                            ),
                          { token },
                        ),
                      'Payment recorded.',
                    )
              }
            >
              Record payment
            </button>
          </div>
          <div className="dash-form gift-aid-claim-action">
            <h3 className="dash-h3">Rejected by HMRC?</h3>
            <TextInput label="HMRC's reason for rejecting it" value={reason} onChange={setReason} />
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() =>
                reason.trim()
                  ? act(
                      () =>
                        api(
                          (o) => giftAid.claims[':id'].reject.$post({ param: id, json: { reason: reason.trim() } }, o),
                          { token },
                        ),
                      'Claim marked rejected: correct it, then resubmit it with the new reference.',
                    )
                  : setNotice({ tone: 'error', text: "Enter HMRC's reason for rejecting the claim." })
              }
            >
              Mark rejected
            </button>
          </div>
        </>
      ) : null}

      <h3 className="dash-h3">Gifts in this claim</h3>
      {gifts.status === 'error' ? <Alert>{gifts.error.message}</Alert> : null}
      {gifts.status === 'ok' && gifts.data.gifts.length ? (
        <GiftAidGiftTable
          label="Gifts in this claim"
          rows={gifts.data.gifts.map((g) => ({
            donationId: g.donation_id,
            line: g.line,
            note: g.aggregated ? '(aggregated)' : g.sponsored ? '(sponsored event)' : undefined,
            date: g.date,
            donorId: g.donor_id,
            donorName: g.donor_name,
            campaign: g.campaign,
            amount: g.amount,
            giftAid: g.gift_aid,
          }))}
        />
      ) : gifts.status === 'ok' ? (
        <p className="dash-empty">
          {claim.status === 'void' ? 'This claim was voided: its gifts went back to the eligible list.' : 'No gifts.'}
        </p>
      ) : null}
    </section>
  );
}
