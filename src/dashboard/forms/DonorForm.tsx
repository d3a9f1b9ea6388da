import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { api, client } from '../../lib/api';
import { shownEmail } from '../../../domain/email';
import { formatPhone } from '../../../domain/phone';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import * as roles from '../../../domain/roles';
import type { UserType } from '../../../domain/statuses';
import { $dashToken, $dashUser, refreshUser, viewerOf } from '../session';
import { Alert, NotFound, SelectInput, Spinner, TextInput } from '../ui/primitives';
import { MyGiftAid } from '../screens/gift-aid/MyGiftAid';
import {
  AddressGroup,
  EMPTY_ADDRESS,
  FormShell,
  ImageField,
  PhoneInput,
  toAddressValue,
  type AddressValue,
} from './form-parts';
import { NotificationSettings } from './NotificationSettings';

type Values = {
  image: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: AddressValue;
};
const EMPTY: Values = { image: '', first_name: '', last_name: '', email: '', phone: '', address: EMPTY_ADDRESS };

const ROLE_CHOICES = [
  { value: 'donor', label: 'Donor' },
  { value: 'org_admin', label: 'Organization admin' },
  { value: 'finance', label: 'Finance' },
  { value: 'admin', label: 'Admin' },
] satisfies { value: UserType; label: string }[];

/**
 * Spec "Dashboard forms": donor add/edit; id 'me' is the signed-in user, titled 'My Info'.
 * `onShown` is called once the form (or its refusal) is on screen, so the panels below it come after
 * it, not before it and then pushed down.
 */
export function DonorForm({ id, onShown }: { id?: string; onShown?: (found: boolean) => void }) {
  const isEdit = !!id;
  const isMe = id === 'me';
  const token = useStore($dashToken);
  const viewer = viewerOf(useStore($dashUser));
  // Organization admins see their donors' name and email only, read-only, and add donors with just those.
  const limited = !isMe && !roles.canEditOthersProfile(viewer);
  const [organizationId, setOrganizationId] = useState('');
  const [load] = useApiGet(isEdit ? `users/${id}` : null, (o) =>
    client.api.users[':id'].$get({ param: { id: id! } }, o),
  );
  const [values, setValues] = useState<Values>(EMPTY);
  const [initialImage, setInitialImage] = useState('');
  const [initialPhone, setInitialPhone] = useState('');
  // An admin gives another account its role here (the API audits every change as user.type).
  const [role, setRole] = useState('');
  const [initialRole, setInitialRole] = useState('');
  // Never one's own (by "me" or by id): the API refuses it, so nobody locks themselves out.
  const choosesRole = isEdit && !isMe && id !== viewer?.id && roles.isAdmin(viewer);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (load.status !== 'ok') return;
    const d = load.data;
    setInitialImage(d.image ?? '');
    setInitialPhone(formatPhone(d.phone));
    setRole(d.type);
    setInitialRole(d.type);
    setValues({
      image: d.image ?? '',
      first_name: d.name.first_name,
      last_name: d.name.last_name,
      email: d.email,
      phone: formatPhone(d.phone),
      address: toAddressValue(d.address),
    });
  }, [load]);

  const shown = !isEdit || load.status === 'ok' || load.status === 'error';
  const found = load.status !== 'error';
  useEffect(() => {
    if (shown) onShown?.(found);
  }, [shown, found, onShown]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error')
    return <NotFound title="Donor Not Found" back="/dashboard/donors" backLabel="Back to Donors" />;
  if (isEdit && limited) return <DonorSummary first={values.first_name} last={values.last_name} email={values.email} />;

  const set =
    <K extends keyof Values>(key: K) =>
    (v: Values[K]) =>
      setValues((prev) => ({ ...prev, [key]: v }));
  const bind = <K extends keyof Values>(key: K) => ({ value: values[key], onChange: set(key) });
  const chooseOrganization = limited && (viewer?.orgIds.length ?? 0) > 1;
  const waitingFor = [
    values.first_name.trim() === '' && 'a first name',
    values.last_name.trim() === '' && 'a last name',
    !isEdit && values.email.trim() === '' && 'an email',
    chooseOrganization && organizationId === '' && 'an organization',
  ].filter((item): item is string => Boolean(item));
  const canSave = waitingFor.length === 0;

  const save = async () => {
    setSaving(true);
    setError(null);
    const body: Record<string, unknown> = {
      name: { first_name: values.first_name.trim(), last_name: values.last_name.trim() },
    };
    if (!limited) {
      body.address = values.address;
      // Sent only when changed: a number stored before the UK rule (docs/decisions/009) does not block
      // saving the rest of the form.
      if (values.phone !== initialPhone) body.phone = values.phone.trim();
      if (values.image !== initialImage) body.image = values.image;
    }
    if (chooseOrganization) body.organization_id = organizationId;
    if (choosesRole && role !== initialRole) body.type = role;
    // Email is set once at creation and read-only afterwards.
    if (!isEdit) body.email = values.email.trim();
    const res = isEdit
      ? await api((o) => client.api.users[':id'].$put({ param: { id: id! }, json: body }, o), { token })
      : await api((o) => client.api.users.$post({ json: body }, o), { token });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    if (isMe) void refreshUser();
    // My Info opened directly has no page to go back to: a donor may not see the donors list.
    if (isEdit) goBack(isMe ? '/dashboard/overview' : listPathOf('donors'));
    else navigate(listPathOf('donors'));
  };

  return (
    <>
      <FormShell
        title={isMe ? 'My Info' : isEdit ? 'Edit Donor' : 'Add Donor'}
        onSubmit={save}
        canSave={canSave}
        waitingFor={waitingFor}
        saving={saving}
        error={error}
        onCancel={() => goBack(isMe ? '/dashboard/overview' : listPathOf('donors'))}
      >
        {limited ? (
          <p className="dash-hint">
            You add a donor's name and email for your organization; the donor keeps the rest of their details
            themselves.
          </p>
        ) : (
          <ImageField label="Photo" {...bind('image')} />
        )}
        {chooseOrganization ? <OrganizationChoice value={organizationId} onChange={setOrganizationId} /> : null}
        <div className="dash-grid-2">
          <TextInput label="First name" {...bind('first_name')} required autoComplete="given-name" />
          <TextInput label="Last name" {...bind('last_name')} required autoComplete="family-name" />
          <TextInput
            label="Email"
            type="email"
            {...bind('email')}
            // A paper donor's stand-in address is not theirs to show; the field is read-only when editing.
            value={isEdit ? shownEmail(values.email) : values.email}
            required={!isEdit}
            readOnly={isEdit}
            hint={isEdit ? 'Email cannot be changed' : undefined}
            autoComplete="email"
            inputMode="email"
          />
          {limited ? null : <PhoneInput {...bind('phone')} />}
        </div>
        {limited ? null : <AddressGroup {...bind('address')} />}
        {choosesRole ? (
          <div>
            <SelectInput
              label="Role"
              value={role}
              onChange={(v) => setRole(v || initialRole)}
              options={ROLE_CHOICES}
              required
              placeholder="Choose a role"
            />
            <p className="dash-hint">
              Organization admins and finance users act only for the organizations that list them under Admins (on the
              organization's page). Admins can do everything, everywhere.
            </p>
          </div>
        ) : null}
        {isMe ? <NotificationSettings /> : null}
      </FormShell>
      {isMe ? <MyGiftAid /> : null}
    </>
  );
}

/** What an organization admin may see of a donor: name and email, read-only (README: API table). */
function DonorSummary({ first, last, email }: { first: string; last: string; email: string }) {
  return (
    <section className="dash-section dash-form-page">
      <h1>Donor</h1>
      <Alert tone="info">
        Organization admins and finance users can see a donor's name and email. Only the donor, or a platform admin, can
        change their details.
      </Alert>
      <dl className="dash-facts">
        <div>
          <dt>Name</dt>
          <dd>{`${first} ${last}`.trim() || '-'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </div>
      </dl>
      <div className="dash-form-actions">
        <button type="button" className="btn btn-outline" onClick={() => goBack(listPathOf('donors'))}>
          Back to donors
        </button>
      </div>
    </section>
  );
}

/** An admin of several organizations says which one the donor belongs to (the API lists only theirs). */
function OrganizationChoice({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [state] = useApiGet('organizations?limit=100', (o) =>
    client.api.organizations.$get({ query: { limit: 100 } }, o),
  );
  const options = useMemo(
    () => (state.status === 'ok' ? state.data.map((org) => ({ value: org._id, label: org.name })) : []),
    [state],
  );
  return (
    <SelectInput
      label="Organization"
      value={value}
      onChange={onChange}
      options={options}
      required
      placeholder="Choose an organization"
    />
  );
}
