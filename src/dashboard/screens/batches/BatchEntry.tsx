import { useStore } from '@nanostores/react';
import { useMemo, useState } from 'react';
import { BATCH_METHODS, type BatchMethod, PAYMENT_METHOD_LABELS } from '../../../../domain/finance';
import { GASDS_METHODS } from '../../../../domain/gift-aid';
import { formatLongUkDate, isIsoDay, londonIsoDate, londonMidnight } from '../../../../domain/dates';
import { formatPence } from '../../../../domain/money';
import { PERSON_NAME_MAX } from '../../../../domain/names';
import { api, client } from '../../../lib/api';
import { poundsToPence } from '../../lib/money';
import { useApiGet } from '../../lib/use-api';
import { useConfirmFocus } from '../../lib/use-confirm-focus';
import { navigate } from '../../router';
import { $dashToken } from '../../session';
import {
  Alert,
  Checkbox,
  OrganizationSelect,
  PageHeader,
  SelectInput,
  Spinner,
  TextInput,
  type Option,
} from '../../ui/primitives';
import { useAppealOptions, useDonorSearch } from '../../forms/use-options';
import { BatchGiftAidCheck } from '../gift-aid/BatchGiftAidCheck';

/** Batch entry names the vouchers people know (CAF and similar). */
const METHOD_LABELS: Record<BatchMethod, string> = {
  ...PAYMENT_METHOD_LABELS,
  charity_voucher: 'Charity voucher (CAF and similar)',
};
const METHOD_OPTIONS: Option[] = BATCH_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }));
const GENERAL_FUND = '';

type Line = {
  key: number;
  /** A tin or bucket collection's total: no donor, cash or contactless, counted for GASDS. */
  collection: boolean;
  newDonor: boolean;
  donorId: string;
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  postcode: string;
  amount: string;
  campaignId: string;
  appealId: string;
  giftAid: boolean;
  /** The donor received a benefit above HMRC's limits: never Gift Aid. */
  benefitExceedsLimit: boolean;
  receipt: boolean;
  reference: string;
  /** How this gift was paid when not as the slip ('' : the slip's method). */
  method: BatchMethod | '';
};

let nextKey = 1;
const emptyLine = (): Line => ({
  key: nextKey++,
  collection: false,
  newDonor: false,
  donorId: '',
  firstName: '',
  lastName: '',
  email: '',
  address: '',
  postcode: '',
  amount: '',
  campaignId: GENERAL_FUND,
  appealId: '',
  giftAid: false,
  benefitExceedsLimit: false,
  receipt: false,
  reference: '',
  method: '',
});

const lineReady = (l: Line, slipMethod: BatchMethod) => lineProblem(l, slipMethod) === null;
/** A collection is coins, notes or a card reader's taps: the Small Donations Scheme's methods. */
const COLLECTION_METHODS: string[] = [...GASDS_METHODS];

/** What a gift line still needs, in the words the form shows beside Post (null: ready). */
function lineProblem(l: Line, slipMethod: BatchMethod): string | null {
  if (l.collection) {
    if (!COLLECTION_METHODS.includes(l.method || slipMethod)) return 'to be paid by cash or contactless (a collection)';
    return poundsToPence(l.amount) === null ? 'an amount above £0' : null;
  }
  if (l.newDonor && (l.firstName.trim() === '' || l.lastName.trim() === ''))
    return 'the new donor’s first and last name';
  if (!l.newDonor && l.donorId === '') return 'a donor';
  if (poundsToPence(l.amount) === null) return 'an amount above £0';
  return null;
}

/** An amount typed that is not one: said under the field at once, not only by a disabled Post. */
const amountTypo = (text: string) =>
  text.trim() !== '' && poundsToPence(text) === null ? 'Type an amount above £0 in pounds, like 25 or 12.50' : null;

/** /dashboard/batches/add: a paying-in slip's gifts entered together and posted once. */
export function BatchEntry() {
  const token = useStore($dashToken);
  const [orgsLoad] = useApiGet('/api/organizations?limit=100', (o) =>
    client.api.organizations.$get({ query: { limit: 100 } }, o),
  );
  const orgs = orgsLoad.status === 'ok' ? orgsLoad.data : [];
  const [campaignsLoad] = useApiGet('campaigns?tiny=true', (o) =>
    client.api.campaigns.$get({ query: { tiny: 'true' } }, o),
  );
  const [organizationId, setOrganizationId] = useState('');
  const [method, setMethod] = useState<BatchMethod>('cheque');
  // Today in London, not in UTC: after midnight in summer the UTC day is still yesterday.
  const today = londonIsoDate(new Date());
  const [bankedOn, setBankedOn] = useState(today);
  const [reference, setReference] = useState('');
  const [expected, setExpected] = useState('');
  const [lines, setLines] = useState<Line[]>(() => [emptyLine()]);
  const [confirming, setConfirming] = useState(false);
  const [posting, setPosting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per form: a double click or a retried request posts the batch once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const orgId = organizationId || (orgs.length === 1 ? orgs[0]._id : '');
  const campaignOptions = useMemo<Option[]>(() => {
    const rows = campaignsLoad.status === 'ok' ? campaignsLoad.data : [];
    // The select's empty choice is the general fund (its placeholder below).
    return rows
      .filter((c) => 'organization_id' in c && c.organization_id === orgId)
      .map((c) => ({ value: c._id, label: c.title || c._id }));
  }, [campaignsLoad, orgId]);

  const total = lines.reduce((sum, l) => sum + (poundsToPence(l.amount) ?? 0), 0);
  const expectedPence = poundsToPence(expected);
  const matches = expectedPence !== null && total === expectedPence;
  // Said beside the field, before posting: the server would refuse the day only after the confirmation.
  const bankedProblem =
    bankedOn === '' || !isIsoDay(bankedOn)
      ? 'Enter the day the slip was banked'
      : bankedOn > today
        ? 'The banked day cannot be in the future'
        : null;
  const ready = orgId !== '' && !bankedProblem && matches && lines.every((l) => lineReady(l, method));
  // Post stays disabled until the batch is whole; this says what is missing, first thing first.
  const firstUnready = lines.findIndex((l) => !lineReady(l, method));
  const notReady =
    orgId === ''
      ? 'Choose the organization.'
      : bankedProblem
        ? 'Mend the banked day above.'
        : firstUnready >= 0
          ? `Gift ${firstUnready + 1} needs ${lineProblem(lines[firstUnready], method)}.`
          : expectedPence === null
            ? 'Enter the expected total from the paying-in slip.'
            : !matches
              ? 'The gifts must add up to the expected total.'
              : null;
  // The confirmation replaces the Post button: focus moves into it, and back to Post on leaving it.
  const { inside: backRef, opener: postRef } = useConfirmFocus(confirming);

  const update = (key: number, patch: Partial<Line>) =>
    setLines((prev) => prev.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const post = async () => {
    setPosting(true);
    setError(null);
    const json = {
      organization_id: orgId,
      method,
      banked_on: bankedOn,
      reference: reference.trim() || undefined,
      expected_total: expectedPence ?? 0,
      gifts: lines.map((l) =>
        l.collection
          ? {
              collection: true,
              amount: poundsToPence(l.amount) ?? 0,
              ...(l.appealId ? { appeal_id: l.appealId } : l.campaignId ? { campaign_id: l.campaignId } : {}),
              reference: l.reference.trim() || undefined,
              ...(l.method && l.method !== method ? { method: l.method } : {}),
            }
          : {
              ...(l.newDonor
                ? {
                    donor: {
                      first_name: l.firstName.trim(),
                      last_name: l.lastName.trim(),
                      email: l.email.trim() || undefined,
                      address: l.address.trim() || undefined,
                      postcode: l.postcode.trim() || undefined,
                    },
                  }
                : { donor_id: l.donorId }),
              amount: poundsToPence(l.amount) ?? 0,
              ...(l.appealId ? { appeal_id: l.appealId } : l.campaignId ? { campaign_id: l.campaignId } : {}),
              gift_aid: l.giftAid,
              benefit_exceeds_limit: l.benefitExceedsLimit,
              send_receipt: l.receipt,
              reference: l.reference.trim() || undefined,
              ...(l.method && l.method !== method ? { method: l.method } : {}),
            },
      ),
    };
    const res = await api(
      (o) => client.api.donations.batches.$post({ json, header: { 'idempotency-key': idempotencyKey } }, o),
      { token },
    );
    setPosting(false);
    setConfirming(false);
    if (!res.ok) return setError(res.error.message);
    navigate(`/dashboard/batches/${res.data._id}`);
  };

  if (orgsLoad.status === 'loading' || orgsLoad.status === 'idle') return <Spinner />;
  const orgName = orgs.find((o) => o._id === orgId)?.name ?? '';
  // "cheque", or "cheque and cash" when some gifts were paid another way than the slip.
  const methods = [...new Set(lines.map((l) => l.method || method))].map((m) => METHOD_LABELS[m].toLowerCase());
  const methodsSaid = methods.length > 1 ? `${methods.slice(0, -1).join(', ')} and ${methods.at(-1)}` : methods[0];

  return (
    <section className="dash-section dash-form-page dash-batch">
      <PageHeader title="Batch entry" back={<a href="/dashboard/batches">All batches</a>} />
      <fieldset className="dash-fieldset">
        <legend>Paying-in</legend>
        <div className="dash-grid-2">
          <OrganizationSelect
            organizations={orgs}
            value={orgId}
            onChange={setOrganizationId}
            required
            placeholder="Select an organization"
          />
          <SelectInput
            label="Method"
            value={method}
            onChange={(v) => setMethod(v as BatchMethod)}
            options={METHOD_OPTIONS}
            required
          />
          <div>
            <TextInput label="Banked on" type="date" value={bankedOn} onChange={setBankedOn} max={today} required />
            {bankedProblem ? <p className="dash-field-error">{bankedProblem}</p> : null}
          </div>
          <TextInput
            label="Reference"
            value={reference}
            onChange={setReference}
            placeholder="Paying-in slip number"
            maxLength={100}
          />
          <div>
            <TextInput
              label="Expected total (£)"
              value={expected}
              onChange={setExpected}
              required
              inputMode="decimal"
              placeholder="137.34"
              hint="The total on the paying-in slip"
            />
            {amountTypo(expected) ? <p className="dash-field-error">{amountTypo(expected)}</p> : null}
          </div>
        </div>
      </fieldset>

      <h2 className="dash-batch-heading">Gifts ({lines.length})</h2>
      {lines.map((line, index) => (
        <BatchLineEditor
          key={line.key}
          index={index}
          line={line}
          campaignOptions={campaignOptions}
          slipMethod={method}
          organizationId={orgId}
          bankedOn={bankedOn}
          onChange={(patch) => update(line.key, patch)}
          onRemove={lines.length > 1 ? () => setLines((prev) => prev.filter((l) => l.key !== line.key)) : undefined}
        />
      ))}
      <button
        type="button"
        className="btn btn-outline"
        onClick={() => setLines((prev) => [...prev, emptyLine()])}
        disabled={lines.length >= 200}
      >
        Add a gift
      </button>

      <div className={`dash-batch-total ${matches ? 'is-matched' : 'is-unmatched'}`} role="status" aria-live="polite">
        <span>
          Entered <strong data-testid="batch-running-total">{formatPence(total)}</strong> of{' '}
          <strong>{expectedPence === null ? '—' : formatPence(expectedPence)}</strong> expected
        </span>
        <span>
          {expectedPence === null
            ? 'Enter the expected total'
            : matches
              ? 'The gifts match the slip'
              : `Difference ${formatPence(Math.abs(expectedPence - total))}`}
        </span>
      </div>

      {/* Beside the Post button, where the eye is when the server refuses the batch. */}
      {error ? <Alert>{error}</Alert> : null}
      {confirming ? (
        <div className="dash-batch-confirm" role="alertdialog" aria-label="Confirm the batch">
          <p>
            Post {lines.length} {lines.length === 1 ? 'gift' : 'gifts'} totalling {formatPence(total)} by {methodsSaid}{' '}
            to {orgName}, banked on {formatLongUkDate(londonMidnight(bankedOn))}? A posted batch can only be corrected
            gift by gift (a reversal).
          </p>
          <div className="dash-form-actions">
            <button type="button" className="btn btn-primary" onClick={post} disabled={posting}>
              {posting ? 'Posting…' : 'Confirm and post'}
            </button>
            <button
              ref={backRef}
              type="button"
              className="btn btn-outline"
              onClick={() => setConfirming(false)}
              disabled={posting}
            >
              Back to the batch
            </button>
          </div>
        </div>
      ) : (
        <div className="dash-form-actions">
          <button
            ref={postRef}
            type="button"
            className="btn btn-primary"
            onClick={() => setConfirming(true)}
            disabled={!ready}
            aria-describedby={notReady ? 'batch-not-ready' : undefined}
          >
            Post batch
          </button>
          {notReady ? (
            <p className="dash-hint" id="batch-not-ready" data-testid="batch-not-ready">
              {notReady}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function BatchLineEditor({
  index,
  line,
  campaignOptions,
  slipMethod,
  organizationId,
  bankedOn,
  onChange,
  onRemove,
}: {
  index: number;
  line: Line;
  campaignOptions: Option[];
  slipMethod: BatchMethod;
  organizationId: string;
  bankedOn: string;
  onChange: (patch: Partial<Line>) => void;
  onRemove?: () => void;
}) {
  const [search, setSearch] = useState('');
  const donors = useDonorSearch(line.newDonor ? '' : search);
  const appeals = useAppealOptions(line.campaignId);
  return (
    <fieldset className="dash-fieldset dash-batch-line">
      <legend>Gift {index + 1}</legend>
      <div className="dash-batch-line-donor">
        <Checkbox
          label="Tin or bucket collection (its total, no donor)"
          checked={line.collection}
          onChange={(collection) =>
            onChange({
              collection,
              ...(collection
                ? { newDonor: false, donorId: '', giftAid: false, receipt: false, benefitExceedsLimit: false }
                : {}),
            })
          }
        />
        {line.collection ? null : (
          <Checkbox
            label="New donor"
            checked={line.newDonor}
            onChange={(newDonor) => onChange({ newDonor, donorId: '' })}
          />
        )}
      </div>
      {line.collection ? (
        <p className="dash-hint">
          Counted whole for the Small Donations Scheme (GASDS): cash or contactless, no declaration, no receipt. Keep
          the count sheet; a note above £30 given by one person is not a small donation.
        </p>
      ) : line.newDonor ? (
        <div className="dash-grid-2">
          <TextInput
            label="First name"
            value={line.firstName}
            onChange={(v) => onChange({ firstName: v })}
            required
            maxLength={PERSON_NAME_MAX}
          />
          <TextInput
            label="Last name"
            value={line.lastName}
            onChange={(v) => onChange({ lastName: v })}
            required
            maxLength={PERSON_NAME_MAX}
          />
          <TextInput
            label="Email"
            type="email"
            value={line.email}
            onChange={(v) => onChange({ email: v })}
            hint="Optional; an existing donor with this email is used"
          />
          <TextInput label="Address" value={line.address} onChange={(v) => onChange({ address: v })} maxLength={300} />
          <TextInput
            label="Postcode"
            value={line.postcode}
            onChange={(v) => onChange({ postcode: v })}
            maxLength={20}
          />
        </div>
      ) : (
        <div className="dash-grid-2">
          <TextInput label="Search donors" value={search} onChange={setSearch} placeholder="Name or email" />
          <SelectInput
            label="Donor"
            value={line.donorId}
            onChange={(v) => onChange({ donorId: v })}
            options={donors.options}
            required
            placeholder="Select a donor"
          />
        </div>
      )}
      <div className="dash-grid-2">
        <div>
          <TextInput
            label="Amount (£)"
            value={line.amount}
            onChange={(v) => onChange({ amount: v })}
            required
            inputMode="decimal"
            placeholder="25.00"
          />
          {amountTypo(line.amount) ? <p className="dash-field-error">{amountTypo(line.amount)}</p> : null}
        </div>
        <SelectInput
          label="Paid by"
          value={line.method}
          onChange={(v) => onChange({ method: v as BatchMethod | '' })}
          options={METHOD_OPTIONS}
          placeholder={`As the slip (${METHOD_LABELS[slipMethod].toLowerCase()})`}
        />
        <TextInput
          label={line.collection ? 'Where and when collected' : 'Cheque or voucher number'}
          value={line.reference}
          onChange={(v) => onChange({ reference: v })}
          maxLength={100}
        />
        <SelectInput
          label="Fund"
          value={line.campaignId}
          onChange={(v) => onChange({ campaignId: v, appealId: '' })}
          options={campaignOptions}
          placeholder="General fund (no campaign)"
        />
        <SelectInput
          label="Appeal"
          value={line.appealId}
          onChange={(v) => onChange({ appealId: v })}
          options={appeals}
          disabled={!line.campaignId}
          placeholder={line.campaignId ? 'None (the campaign itself)' : 'Choose a campaign first'}
        />
      </div>
      {line.collection ? null : (
        <div className="dash-batch-line-flags">
          <Checkbox
            label={`Gift Aid ${line.newDonor ? '(record the declaration first)' : '(checked against the donor’s declaration)'}`}
            checked={line.giftAid}
            onChange={(giftAid) => onChange({ giftAid })}
            disabled={line.newDonor || line.benefitExceedsLimit}
          />
          <Checkbox
            label="Benefit above HMRC limits"
            checked={line.benefitExceedsLimit}
            onChange={(exceeds) => onChange({ benefitExceedsLimit: exceeds, ...(exceeds ? { giftAid: false } : {}) })}
          />
          <Checkbox label="Email a receipt" checked={line.receipt} onChange={(receipt) => onChange({ receipt })} />
          <BatchGiftAidCheck
            donorId={line.newDonor ? '' : line.donorId}
            organizationId={organizationId}
            date={bankedOn}
            giftAid={line.giftAid}
            benefitExceedsLimit={line.benefitExceedsLimit}
            amount={poundsToPence(line.amount)}
          />
        </div>
      )}
      {onRemove ? (
        <button type="button" className="btn btn-ghost dash-btn-sm" onClick={onRemove}>
          Remove gift {index + 1}
        </button>
      ) : null}
    </fieldset>
  );
}
