import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { api } from '../lib/api';
import { toDateInput } from '../lib/dates';
import { penceToPounds, poundsToPence } from '../lib/money';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import { $dashToken } from '../session';
import { donationSchema } from '../tables/donations/data/schema';
import { SelectInput, Spinner, TextInput } from '../ui/primitives';
import { FormShell } from './form-parts';
import { MonthlyGiftAdmin } from '../screens/my-donations/MonthlyGiftAdmin';
import { useCampaignOptions, useDonorOptions } from './use-options';
import { SupportMessagePanel } from './SupportMessagePanel';

type Values = { donor: string; amount: string; date: string; campaign: string; appeal: string };

/** Spec "Dashboard forms": donation add/edit (amount typed in pounds, sent in pence). */
export function DonationForm({ id }: { id?: string }) {
  const isEdit = !!id;
  const token = useStore($dashToken);
  const [load] = useApiGet<unknown>(isEdit ? `/api/donations/${encodeURIComponent(id!)}` : null);
  const [values, setValues] = useState<Values>({ donor: '', amount: '', date: toDateInput(new Date()), campaign: '', appeal: '' });
  const [sendReceipt, setSendReceipt] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const donorOptions = useDonorOptions();
  const campaignOptions = useCampaignOptions('/api/campaigns?tiny=true');
  const appealOptions = useCampaignOptions(values.campaign ? `/api/campaigns/${encodeURIComponent(values.campaign)}/appeals` : null);

  useEffect(() => {
    if (load.status !== 'ok') return;
    const parsed = donationSchema.safeParse(load.data);
    if (!parsed.success) return;
    const d = parsed.data;
    setValues({
      donor: d.donor?.value ?? '',
      amount: penceToPounds(d.amount),
      date: toDateInput(d.date ?? null),
      campaign: d.campaign?.value ?? '',
      appeal: d.appeal?.value ?? '',
    });
  }, [load]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error') return <h1 className="dash-not-found">Not Found</h1>;

  const set = <K extends keyof Values>(key: K) => (v: Values[K]) =>
    setValues((prev) => ({ ...prev, [key]: v, ...(key === 'campaign' ? { appeal: '' } : {}) }));
  const pence = poundsToPence(values.amount);
  const canSave = values.donor !== '' && pence !== null && values.date !== '' && values.campaign !== '' && values.appeal !== '';

  const save = async () => {
    setSaving(true);
    setError(null);
    const body = { donor: values.donor, amount: pence, date: values.date, campaign: values.campaign, appeal: values.appeal, ...(isEdit ? {} : { send_receipt: sendReceipt }) };
    const res = await api(isEdit ? `/api/donations/${encodeURIComponent(id!)}` : '/api/donations', {
      method: isEdit ? 'PUT' : 'POST',
      json: body,
      token,
    });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    navigate(listPathOf('donations'));
  };

  // Keep the loaded labels selectable before the option lists arrive.
  const withCurrent = (options: { label: string; value: string }[], current: { label?: string | null; value: string } | null | undefined) =>
    current && !options.some((o) => o.value === current.value) ? [...options, { value: current.value, label: current.label ?? current.value }] : options;
  const loaded = load.status === 'ok' ? donationSchema.safeParse(load.data).data : undefined;

  return (
    <>
    <FormShell
      title={isEdit ? 'Edit Donation' : 'Add Donation'}
      onSubmit={save}
      canSave={canSave}
      saving={saving}
      error={error}
      onCancel={() => goBack(listPathOf('donations'))}
    >
      <SelectInput label="Donor" value={values.donor} onChange={set('donor')} options={withCurrent(donorOptions, loaded?.donor)} required placeholder="Select a donor" />
      <div className="dash-grid-2">
        <TextInput label="Amount (£)" value={values.amount} onChange={set('amount')} required inputMode="decimal" placeholder="25.00" hint="In pounds, e.g. 25 or 12.50" />
        <TextInput label="Date" type="date" value={values.date} onChange={set('date')} required />
      </div>
      <SelectInput label="Campaign" value={values.campaign} onChange={set('campaign')} options={withCurrent(campaignOptions, loaded?.campaign)} required placeholder="Select a campaign" />
      <SelectInput
        label="Appeal"
        value={values.appeal}
        onChange={set('appeal')}
        options={values.campaign === loaded?.campaign?.value ? withCurrent(appealOptions, loaded?.appeal) : appealOptions}
        required
        disabled={!values.campaign}
        placeholder={values.campaign ? 'Select an appeal' : 'Choose a campaign first'}
      />
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
