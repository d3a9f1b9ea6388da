import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { api, client } from '../../lib/api';
import { toDateInput } from '../lib/dates';
import { penceToPounds, poundsToPence } from '../lib/money';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import { $dashToken } from '../session';
import { Alert, NotFound, SelectInput, Spinner, TextInput } from '../ui/primitives';
import { FormShell } from './form-parts';
import { MonthlyGiftAdmin } from '../screens/my-donations/MonthlyGiftAdmin';
import { DONOR_SEARCH_LIMIT, useAppealOptions, useCampaignOptions, useDonorSearch } from './use-options';
import { SupportMessagePanel } from './SupportMessagePanel';

type Values = { donor: string; amount: string; date: string; campaign: string; appeal: string };

/** The appeal select's value for a gift to the campaign itself, when editing one (the API takes null). */
const NO_APPEAL = 'none';

/**
 * Spec "Dashboard forms": donation add/edit (amount typed in pounds, sent in pence). `embedded`: the
 * editable part of a donation's page (its own heading level, no page chrome; `onSaved` instead of
 * going back to the list).
 */
export function DonationForm({
  id,
  embedded = false,
  onSaved,
}: {
  id?: string;
  embedded?: boolean;
  onSaved?: () => void;
}) {
  const isEdit = !!id;
  const token = useStore($dashToken);
  const [load] = useApiGet(isEdit ? `donations/${id}` : null, (o) =>
    client.api.donations[':id'].$get({ param: { id: id! } }, o),
  );
  const [values, setValues] = useState<Values>({
    donor: '',
    amount: '',
    date: toDateInput(new Date()),
    campaign: '',
    appeal: '',
  });
  const [sendReceipt, setSendReceipt] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [donorSearch, setDonorSearch] = useState('');
  const donors = useDonorSearch(donorSearch);
  const campaignOptions = useCampaignOptions();
  const appealOptions = useAppealOptions(values.campaign);

  useEffect(() => {
    if (load.status !== 'ok') return;
    const d = load.data;
    setValues({
      donor: d.donor.value,
      amount: penceToPounds(d.amount),
      date: toDateInput(d.date),
      campaign: d.campaign.value,
      appeal: d.appeal?.value ?? NO_APPEAL,
    });
  }, [load]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error')
    return <NotFound title="Not Found" back="/dashboard/donations" backLabel="Back to Donations" />;

  const set =
    <K extends keyof Values>(key: K) =>
    (v: Values[K]) =>
      setValues((prev) => ({ ...prev, [key]: v, ...(key === 'campaign' ? { appeal: '' } : {}) }));
  const bind = <K extends keyof Values>(key: K) => ({ value: values[key], onChange: set(key) });
  const pence = poundsToPence(values.amount);
  const waitingFor = [
    values.donor === '' && 'a donor',
    pence === null && (values.amount.trim() ? 'a valid amount' : 'an amount'),
    values.date === '' && 'a date',
    values.campaign === '' && 'a campaign',
    values.appeal === '' && 'an appeal',
  ].filter((item): item is string => Boolean(item));
  const canSave = waitingFor.length === 0;

  const save = async () => {
    setSaving(true);
    setError(null);
    if (pence === null) return setSaving(false);
    const body = {
      donor: values.donor,
      amount: pence,
      date: values.date,
      campaign: values.campaign,
      appeal: values.appeal,
    };
    const res = isEdit
      ? await api(
          (o) =>
            client.api.donations[':id'].$put(
              { param: { id: id! }, json: { ...body, appeal: values.appeal === NO_APPEAL ? null : values.appeal } },
              o,
            ),
          { token },
        )
      : await api((o) => client.api.donations.$post({ json: { ...body, send_receipt: sendReceipt } }, o), { token });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    if (onSaved) return onSaved();
    navigate(listPathOf('donations'));
  };

  // Keep the loaded labels selectable before the option lists arrive.
  const withCurrent = (
    options: { label: string; value: string }[],
    current: { label?: string | null; value: string } | null | undefined,
  ) =>
    current && !options.some((o) => o.value === current.value)
      ? [...options, { value: current.value, label: current.label ?? current.value }]
      : options;
  const loaded = load.status === 'ok' ? load.data : undefined;
  const appealChoices = [
    ...(isEdit ? [{ value: NO_APPEAL, label: 'None (the campaign itself)' }] : []),
    ...(values.campaign === loaded?.campaign?.value ? withCurrent(appealOptions, loaded?.appeal) : appealOptions),
  ];

  const fields = (
    <>
      <TextInput
        label="Search donors"
        value={donorSearch}
        onChange={setDonorSearch}
        placeholder="Name or email"
        hint={`Shows up to ${DONOR_SEARCH_LIMIT} donors that match${donors.loading ? ' (searching…)' : ''}`}
      />
      <SelectInput
        label="Donor"
        {...bind('donor')}
        options={withCurrent(donors.options, loaded?.donor)}
        required
        placeholder="Select a donor"
      />
      <div className="dash-grid-2">
        <TextInput
          label="Amount (£)"
          {...bind('amount')}
          required
          inputMode="decimal"
          placeholder="25.00"
          hint="In pounds, e.g. 25 or 12.50"
        />
        <TextInput label="Date" type="date" {...bind('date')} required />
      </div>
      <SelectInput
        label="Campaign"
        {...bind('campaign')}
        options={withCurrent(campaignOptions, loaded?.campaign)}
        required
        placeholder="Select a campaign"
      />
      <SelectInput
        label="Appeal"
        {...bind('appeal')}
        options={appealChoices}
        required
        disabled={!values.campaign}
        placeholder={values.campaign ? 'Select an appeal' : 'Choose a campaign first'}
      />
    </>
  );

  if (embedded) {
    return (
      <section className="donation-edit" aria-labelledby="donation-edit-title">
        <h2 className="dash-h2" id="donation-edit-title">
          Edit the gift’s details
        </h2>
        <form
          className="dash-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (canSave && !saving) void save();
          }}
        >
          {error ? <Alert>{error}</Alert> : null}
          {fields}
          <div className="dash-form-actions">
            <button type="submit" className="btn btn-primary" disabled={!canSave || saving}>
              {saving ? 'Saving…' : 'Save changes'}
            </button>
          </div>
        </form>
      </section>
    );
  }

  return (
    <>
      <FormShell
        title={isEdit ? 'Edit Donation' : 'Add Donation'}
        onSubmit={save}
        canSave={canSave}
        waitingFor={waitingFor}
        saving={saving}
        error={error}
        onCancel={() => goBack(listPathOf('donations'))}
      >
        {fields}
        {isEdit ? null : (
          <label className="dash-check">
            <input type="checkbox" checked={sendReceipt} onChange={(e) => setSendReceipt(e.target.checked)} />
            <span>Send the donor an email receipt</span>
          </label>
        )}
        {isEdit && id ? <SupportMessagePanel donationId={id} /> : null}
      </FormShell>
      {loaded?.subscription_id ? <MonthlyGiftAdmin subscriptionId={loaded.subscription_id} /> : null}
    </>
  );
}
