import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { api } from '../lib/api';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import { $dashToken } from '../session';
import { organizationSchema } from '../tables/organizations/data/schema';
import { Spinner, TextInput } from '../ui/primitives';
import { AddressGroup, EMPTY_ADDRESS, FormShell, ImageField, MultiSelect, toAddressValue, type AddressValue } from './form-parts';
import { useDonorOptions } from './use-options';

type Values = { name: string; image: string; email: string; phone: string; hmrc_reference: string; address: AddressValue; admins: string[] };
const EMPTY: Values = { name: '', image: '', email: '', phone: '', hmrc_reference: '', address: EMPTY_ADDRESS, admins: [] };

/** Spec "Dashboard forms": organization add/edit; also the Settings screen. */
export function OrganizationForm({ id }: { id?: string }) {
  const isEdit = !!id;
  const token = useStore($dashToken);
  const [load] = useApiGet<unknown>(isEdit ? `/api/organizations/${encodeURIComponent(id!)}` : null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [initialImage, setInitialImage] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const donorOptions = useDonorOptions();

  useEffect(() => {
    if (load.status !== 'ok') return;
    const parsed = organizationSchema.safeParse(load.data);
    if (!parsed.success) return;
    const org = parsed.data;
    setInitialImage(org.image ?? '');
    setValues({
      name: org.name ?? '',
      image: org.image ?? '',
      email: org.email ?? '',
      phone: org.phone ?? '',
      hmrc_reference: org.hmrc_reference ?? '',
      address: toAddressValue(org.address),
      admins: (org.admins ?? []).map((a) => a.value),
    });
  }, [load]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error') return <h1 className="dash-not-found">Organization Not Found</h1>;

  const set = <K extends keyof Values>(key: K) => (v: Values[K]) => setValues((prev) => ({ ...prev, [key]: v }));
  const canSave = values.name.trim().length > 0;
  const adminOptions = [
    ...donorOptions,
    // Keep already-assigned admins visible even if the donor list omits them.
    ...(load.status === 'ok'
      ? (organizationSchema.safeParse(load.data).data?.admins ?? [])
          .filter((a) => !donorOptions.some((o) => o.value === a.value))
          .map((a) => ({ value: a.value, label: a.label ?? a.value }))
      : []),
  ];

  const save = async () => {
    setSaving(true);
    setError(null);
    const { image, ...rest } = values;
    // The image goes only when changed: a data URL uploads, '' removes it.
    const body = { ...rest, name: values.name.trim(), phone: values.phone.trim(), ...(image !== initialImage ? { image } : {}) };
    const res = await api(isEdit ? `/api/organizations/${encodeURIComponent(id!)}` : '/api/organizations', {
      method: isEdit ? 'PUT' : 'POST',
      json: body,
      token,
    });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    navigate(listPathOf('organizations'));
  };

  return (
    <FormShell
      title={isEdit ? 'Edit Organization' : 'Add Organization'}
      onSubmit={save}
      canSave={canSave}
      saving={saving}
      error={error}
      onCancel={() => goBack(listPathOf('organizations'))}
    >
      <TextInput label="Name" value={values.name} onChange={set('name')} required autoComplete="organization" />
      <ImageField label="Logo" value={values.image} onChange={set('image')} />
      <div className="dash-grid-2">
        <TextInput label="Email" type="email" value={values.email} onChange={set('email')} autoComplete="email" inputMode="email" />
        <TextInput label="Phone" type="tel" value={values.phone} onChange={set('phone')} autoComplete="tel" inputMode="tel" />
        <TextInput label="HMRC charity reference" value={values.hmrc_reference} onChange={set('hmrc_reference')} hint="For Gift Aid claims, e.g. XR12345" />
      </div>
      <AddressGroup value={values.address} onChange={set('address')} />
      <MultiSelect label="Admins" options={adminOptions} value={values.admins} onChange={set('admins')} />
    </FormShell>
  );
}
