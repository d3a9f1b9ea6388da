import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { api, client } from '../../lib/api';
import { formatPhone } from '../../../domain/phone';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import { $dashToken, refreshUser } from '../session';
import { Spinner, TextInput } from '../ui/primitives';
import { MyGiftAid } from '../screens/gift-aid/MyGiftAid';
import { AddressGroup, EMPTY_ADDRESS, FormShell, ImageField, PhoneInput, toAddressValue, type AddressValue } from './form-parts';
import { NotificationSettings } from './NotificationSettings';

type Values = { image: string; first_name: string; last_name: string; email: string; phone: string; address: AddressValue };
const EMPTY: Values = { image: '', first_name: '', last_name: '', email: '', phone: '', address: EMPTY_ADDRESS };

/** Spec "Dashboard forms": donor add/edit; id 'me' is the signed-in user, titled 'My Info'. */
export function DonorForm({ id }: { id?: string }) {
  const isEdit = !!id;
  const isMe = id === 'me';
  const token = useStore($dashToken);
  const [load] = useApiGet(isEdit ? `users/${id}` : null, (o) => client.api.users[':id'].$get({ param: { id: id! } }, o));
  const [values, setValues] = useState<Values>(EMPTY);
  const [initialImage, setInitialImage] = useState('');
  const [initialPhone, setInitialPhone] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (load.status !== 'ok') return;
    const d = load.data;
    setInitialImage(d.image ?? '');
    setInitialPhone(formatPhone(d.phone));
    setValues({
      image: d.image ?? '',
      first_name: d.name.first_name,
      last_name: d.name.last_name,
      email: d.email,
      phone: formatPhone(d.phone),
      address: toAddressValue(d.address),
    });
  }, [load]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error') return <h1 className="dash-not-found">Donor Not Found</h1>;

  const set = <K extends keyof Values>(key: K) => (v: Values[K]) => setValues((prev) => ({ ...prev, [key]: v }));
  const canSave = values.first_name.trim() !== '' && values.last_name.trim() !== '' && (isEdit || values.email.trim() !== '');

  const save = async () => {
    setSaving(true);
    setError(null);
    const body: Record<string, unknown> = {
      name: { first_name: values.first_name.trim(), last_name: values.last_name.trim() },
      address: values.address,
    };
    // Sent only when changed: a number stored before the UK rule (docs/decisions/009) does not block
    // saving the rest of the form.
    if (values.phone !== initialPhone) body.phone = values.phone.trim();
    if (values.image !== initialImage) body.image = values.image;
    // Email is set once at creation and read-only afterwards.
    if (!isEdit) body.email = values.email.trim();
    const res = isEdit
      ? await api((o) => client.api.users[':id'].$put({ param: { id: id! }, json: body }, o), { token })
      : await api((o) => client.api.users.$post({ json: body }, o), { token });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    if (isMe) void refreshUser();
    if (isEdit) goBack(listPathOf('donors'));
    else navigate(listPathOf('donors'));
  };

  return (
    <>
    <FormShell
      title={isMe ? 'My Info' : isEdit ? 'Edit Donor' : 'Add Donor'}
      onSubmit={save}
      canSave={canSave}
      saving={saving}
      error={error}
      onCancel={() => goBack(isMe ? '/dashboard/overview' : listPathOf('donors'))}
    >
      <ImageField label="Photo" value={values.image} onChange={set('image')} />
      <div className="dash-grid-2">
        <TextInput label="First name" value={values.first_name} onChange={set('first_name')} required autoComplete="given-name" />
        <TextInput label="Last name" value={values.last_name} onChange={set('last_name')} required autoComplete="family-name" />
        <TextInput
          label="Email"
          type="email"
          value={values.email}
          onChange={set('email')}
          required={!isEdit}
          readOnly={isEdit}
          hint={isEdit ? 'Email cannot be changed' : undefined}
          autoComplete="email"
          inputMode="email"
        />
        <PhoneInput value={values.phone} onChange={set('phone')} />
      </div>
      <AddressGroup value={values.address} onChange={set('address')} />
      {isMe ? <NotificationSettings /> : null}
    </FormShell>
    {isMe ? <MyGiftAid /> : null}
    </>
  );
}
