import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { CHARITY_REGULATORS, type CharityRegulator } from '../../../domain/charity';
import {
  NOMINAL_CODE_MAX_LENGTH,
  ORGANIZATION_NOMINAL_CODE_FIELDS,
  ORGANIZATION_NOMINAL_CODES,
  type OrganizationNominalCode,
} from '../../../domain/finance';
import { administers, setsAnyNominalCodes, setsNominalCodes } from '../../../domain/roles';
import { api, client } from '../../lib/api';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { goBack, navigate } from '../router';
import { $dashToken, $dashUser, viewerOf } from '../session';
import { NotFound, SelectInput, Spinner, TextInput } from '../ui/primitives';
import {
  AddressGroup,
  EMPTY_ADDRESS,
  FormShell,
  ImageField,
  MultiSelect,
  toAddressValue,
  type AddressValue,
} from './form-parts';
import { useDonorSearch } from './use-options';

type Values = {
  name: string;
  legal_name: string;
  charity_number: string;
  regulator: CharityRegulator;
  hmrc_reference: string;
  accounting_year_end: string;
  appeals_need_approval: boolean;
  image: string;
  email: string;
  phone: string;
  address: AddressValue;
  admins: string[];
} & Record<OrganizationNominalCode, string>;
const NO_CODES = Object.fromEntries(ORGANIZATION_NOMINAL_CODE_FIELDS.map((field) => [field, ''])) as Record<
  OrganizationNominalCode,
  string
>;
const EMPTY: Values = {
  ...NO_CODES,
  name: '',
  legal_name: '',
  charity_number: '',
  regulator: 'ccew',
  hmrc_reference: '',
  accounting_year_end: '04-05',
  image: '',
  email: '',
  phone: '',
  address: EMPTY_ADDRESS,
  admins: [],
  appeals_need_approval: false,
};
const REGULATOR_OPTIONS = Object.entries(CHARITY_REGULATORS).map(([value, label]) => ({ value, label }));

/**
 * The accounts journal's nominal codes (docs/decisions/035): each box shows its default as the
 * placeholder; empty means the default.
 */
function JournalCodes({
  values,
  onChange,
}: {
  values: Record<OrganizationNominalCode, string>;
  onChange: (field: OrganizationNominalCode, value: string) => void;
}) {
  return (
    <fieldset className="dash-fieldset">
      <legend>Accounts journal codes</legend>
      <p className="dash-hint">
        The nominal codes of your chart of accounts that the Xero and Sage journal exports post to. Letters, digits,
        &ldquo;-&rdquo; and &ldquo;.&rdquo;, up to {NOMINAL_CODE_MAX_LENGTH} characters; leave a box empty for the
        default.
      </p>
      <div className="dash-grid-2">
        {ORGANIZATION_NOMINAL_CODE_FIELDS.map((field) => {
          const code = ORGANIZATION_NOMINAL_CODES[field];
          return (
            <TextInput
              key={field}
              label={code.label}
              name={field}
              value={values[field]}
              onChange={(v) => onChange(field, v)}
              placeholder={code.placeholder}
              hint={`${code.purpose}; empty uses ${code.defaultsTo}`}
              maxLength={NOMINAL_CODE_MAX_LENGTH + 2}
              autoComplete="off"
              spellCheck={false}
            />
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * Spec "Dashboard forms": organization add/edit; also the Settings screen. An organization's
 * finance users see only its accounts journal codes, the one part of it they may change.
 */
export function OrganizationForm({ id }: { id?: string }) {
  const isEdit = !!id;
  const token = useStore($dashToken);
  const viewer = viewerOf(useStore($dashUser));
  const [saved, setSaved] = useState(false);
  const [load] = useApiGet(isEdit ? `organizations/${id}` : null, (o) =>
    client.api.organizations[':id'].$get({ param: { id: id! } }, o),
  );
  const [values, setValues] = useState<Values>(EMPTY);
  const [initialImage, setInitialImage] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Admins are chosen from users; the first 100 by name are offered (the API's largest page).
  const donorOptions = useDonorSearch('', 100).options;

  useEffect(() => {
    if (load.status !== 'ok') return;
    const org = load.data;
    setInitialImage(org.image ?? '');
    setValues({
      name: org.name,
      legal_name: org.legal_name ?? '',
      charity_number: org.charity_number ?? '',
      regulator: org.regulator,
      hmrc_reference: org.hmrc_reference ?? '',
      accounting_year_end: org.accounting_year_end ?? '04-05',
      image: org.image ?? '',
      email: org.email ?? '',
      phone: org.phone ?? '',
      address: toAddressValue(org.address),
      admins: org.admins.map((a) => a.value),
      appeals_need_approval: org.appeals_need_approval ?? false,
      income_code: org.income_code ?? '',
      fee_code: org.fee_code ?? '',
      clearing_code: org.clearing_code ?? '',
      bank_code: org.bank_code ?? '',
    });
  }, [load]);

  if (isEdit && (load.status === 'loading' || load.status === 'idle')) return <Spinner />;
  if (isEdit && load.status === 'error')
    return (
      <NotFound title="Organization Not Found" back="/dashboard/organizations" backLabel="Back to Organizations" />
    );

  const orgId = load.status === 'ok' ? load.data._id : null;
  // Adding an organization is for admins (the API's rule); editing, for its admins, or only the codes for its finance users.
  const manages = !isEdit || administers(viewer, orgId);
  const setsCodes = isEdit ? setsNominalCodes(viewer, orgId) : setsAnyNominalCodes(viewer);
  const codes = Object.fromEntries(ORGANIZATION_NOMINAL_CODE_FIELDS.map((field) => [field, values[field].trim()]));

  const set =
    <K extends keyof Values>(key: K) =>
    (v: Values[K]) =>
      setValues((prev) => ({ ...prev, [key]: v }));
  const bind = <K extends keyof Values>(key: K) => ({ value: values[key], onChange: set(key) });
  const canSave = values.name.trim().length > 0 && (manages || setsCodes);
  const adminOptions = [
    ...donorOptions,
    // Keep already-assigned admins visible even if the donor list omits them.
    ...(load.status === 'ok'
      ? load.data.admins
          .filter((a) => !donorOptions.some((o) => o.value === a.value))
          .map((a) => ({ value: a.value, label: a.label }))
      : []),
  ];

  /** A finance user's save: the codes alone, then they stay on the page and are told it saved. */
  const saveCodes = async () => {
    setSaving(true);
    setError(null);
    setSaved(false);
    const res = await api((o) => client.api.organizations[':id'].$put({ param: { id: id! }, json: codes }, o), {
      token,
    });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    setSaved(true);
  };

  const save = async () => {
    if (!manages) return saveCodes();
    setSaving(true);
    setError(null);
    const { image, ...rest } = values;
    // The image goes only when changed: a data URL uploads, '' removes it.
    const body = {
      ...rest,
      name: values.name.trim(),
      phone: values.phone.trim(),
      legal_name: values.legal_name.trim(),
      charity_number: values.charity_number.trim(),
      hmrc_reference: values.hmrc_reference.trim(),
      accounting_year_end: values.accounting_year_end.trim(),
      ...(setsCodes ? codes : {}),
      ...(image !== initialImage ? { image } : {}),
    };
    const res = isEdit
      ? await api((o) => client.api.organizations[':id'].$put({ param: { id: id! }, json: body }, o), { token })
      : await api((o) => client.api.organizations.$post({ json: body }, o), { token });
    setSaving(false);
    if (!res.ok) return setError(res.error.message);
    navigate(listPathOf('organizations'));
  };

  const journalCodes = setsCodes ? (
    <JournalCodes
      values={values}
      onChange={(field, v) => {
        setSaved(false);
        set(field)(v);
      }}
    />
  ) : null;

  if (!manages) {
    return (
      <FormShell
        title={`Accounts journal codes: ${values.name}`}
        onSubmit={save}
        canSave={canSave}
        saving={saving}
        error={error}
        onCancel={() => goBack('/dashboard/donations')}
      >
        {journalCodes}
        <p className="dash-hint" role="status">
          {saved ? 'Saved: the next journal export uses these codes.' : ''}
        </p>
      </FormShell>
    );
  }

  return (
    <FormShell
      title={isEdit ? 'Edit Organization' : 'Add Organization'}
      onSubmit={save}
      canSave={canSave}
      saving={saving}
      error={error}
      onCancel={() => goBack(listPathOf('organizations'))}
    >
      <TextInput label="Name" {...bind('name')} required autoComplete="organization" />
      <ImageField label="Logo" {...bind('image')} />
      <fieldset className="dash-fieldset">
        <legend>Charity registration</legend>
        <p className="dash-hint">
          Named on Gift Aid declarations, receipts, payments and campaign pages for gifts to this organization.
        </p>
        <TextInput
          label="Legal name"
          {...bind('legal_name')}
          hint="As registered; leave empty if it is the name above"
        />
        <div className="dash-grid-2">
          <SelectInput
            label="Regulator"
            value={values.regulator}
            onChange={(v) => set('regulator')(v as CharityRegulator)}
            options={REGULATOR_OPTIONS}
            required
          />
          <TextInput label="Charity number" {...bind('charity_number')} hint="e.g. 1234567, SC012345 or NIC100001" />
        </div>
        <TextInput
          label="HMRC charity reference"
          {...bind('hmrc_reference')}
          hint="For Gift Aid claims, e.g. XR12345"
        />
        <TextInput
          label="Accounting year end (MM-DD)"
          {...bind('accounting_year_end')}
          hint="The last day of your accounting year, e.g. 03-31; 04-05 is the tax year. Gift Aid adds small gifts together only within one accounting period."
        />
      </fieldset>
      <div className="dash-grid-2">
        <TextInput label="Email" type="email" {...bind('email')} autoComplete="email" inputMode="email" />
        <TextInput label="Phone" type="tel" {...bind('phone')} autoComplete="tel" inputMode="tel" />
      </div>
      <AddressGroup {...bind('address')} />
      <MultiSelect label="Admins" options={adminOptions} {...bind('admins')} />
      <label className="dash-check">
        <input
          type="checkbox"
          checked={values.appeals_need_approval}
          onChange={(e) => set('appeals_need_approval')(e.target.checked)}
          aria-describedby="appeals-approval-hint"
        />
        Appeals need approval
      </label>
      <p className="dash-hint" id="appeals-approval-hint">
        New appeals under this organization&apos;s campaigns stay drafts until an admin approves them.
      </p>
      {journalCodes}
    </FormShell>
  );
}
