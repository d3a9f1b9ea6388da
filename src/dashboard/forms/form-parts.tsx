import { listInWords } from '../../lib/format';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { PHONE_HINT, phoneAfterInput } from '../../../domain/phone';
import { Alert, Field, TextInput, type Option } from '../ui/primitives';
import { MAX_IMAGE_BYTES } from '../../../domain/limits';

export type AddressValue = { address: string; city: string; province: string; postal_code: string; country: string };
export const EMPTY_ADDRESS: AddressValue = { address: '', city: '', province: '', postal_code: '', country: '' };

export function toAddressValue(
  a: Partial<Record<keyof AddressValue, string | null | undefined>> | null | undefined,
): AddressValue {
  return {
    address: a?.address ?? '',
    city: a?.city ?? '',
    province: a?.province ?? '',
    postal_code: a?.postal_code ?? '',
    country: a?.country ?? '',
  };
}

export function AddressGroup({ value, onChange }: { value: AddressValue; onChange: (v: AddressValue) => void }) {
  const bind = (key: keyof AddressValue) => ({
    value: value[key],
    onChange: (v: string) => onChange({ ...value, [key]: v }),
  });
  return (
    <fieldset className="dash-fieldset">
      <legend>Address</legend>
      <TextInput label="Address" {...bind('address')} autoComplete="street-address" />
      <div className="dash-grid-2">
        <TextInput label="City" {...bind('city')} autoComplete="address-level2" />
        <TextInput label="County / Province" {...bind('province')} autoComplete="address-level1" />
        <TextInput label="Postcode" {...bind('postal_code')} autoComplete="postal-code" />
        <TextInput label="Country" {...bind('country')} autoComplete="country-name" />
      </div>
    </fieldset>
  );
}

/**
 * Phone field: groups the digits as they are typed ("07911 123456"); backspace over a space drops a
 * digit. The API checks the number (domain/phone.ts) and names the field if it is not one.
 */
export function PhoneInput({
  value,
  onChange,
  label = 'Phone',
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
}) {
  const id = useId();
  const handle = (e: ChangeEvent<HTMLInputElement>) => {
    const inputType = e.nativeEvent instanceof InputEvent ? e.nativeEvent.inputType : '';
    onChange(phoneAfterInput(value, e.target.value, inputType.startsWith('delete')));
  };
  return (
    <Field id={id} label={label} hint={PHONE_HINT}>
      <input
        id={id}
        className="dash-input"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={value}
        onChange={handle}
        placeholder="07911 123456"
      />
    </Field>
  );
}

/** Stored image Keys are served by the worker; data URLs are new uploads not yet saved. */
export function imageSrc(value: string | null | undefined): string | null {
  if (!value) return null;
  if (value.startsWith('data:') || value.startsWith('/') || value.startsWith('http')) return value;
  return `/images/${encodeURIComponent(value)}`;
}

/** Single image (logo/avatar): PNG or JPEG read as a data URL for the API to store. */
export function ImageField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const src = imageSrc(value);
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setError('Choose a PNG or JPEG image.');
    if (file.size > MAX_IMAGE_BYTES) return setError('Choose an image of at most 5 MB.');
    setError(null);
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result));
    reader.readAsDataURL(file);
  };
  return (
    <Field id={id} label={label} hint="600x600 px recommended, max 5 MB, JPG/JPEG/PNG">
      <div className="dash-image-field">
        <div className="dash-image-preview">
          {src ? <img src={src} alt={`${label} preview`} /> : <span aria-hidden="true">No image</span>}
        </div>
        <div className="dash-image-actions">
          <input id={id} type="file" accept="image/png,image/jpeg" onChange={pick} />
          {value ? (
            <button type="button" className="btn btn-ghost dash-btn-sm" onClick={() => onChange('')}>
              Remove
            </button>
          ) : null}
        </div>
      </div>
      {error ? (
        <p className="dash-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </Field>
  );
}

/** Multi-select as a filterable checkbox list (keyboard and screen-reader friendly). */
export function MultiSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: Option[];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const groupId = useId();
  const shown = options.filter((o) => o.label.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (v: string, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));
  return (
    <fieldset className="dash-fieldset">
      <legend>{label}</legend>
      {value.length ? (
        <p className="dash-hint" id={`${groupId}-sel`}>
          Selected: {value.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ')}
        </p>
      ) : null}
      <input
        className="dash-input"
        type="search"
        placeholder={`Filter ${label.toLowerCase()}`}
        aria-label={`Filter ${label.toLowerCase()}`}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div className="dash-checklist">
        {shown.length === 0 ? <p className="dash-hint">No matches</p> : null}
        {shown.map((o) => (
          <label key={o.value} className="dash-menu-check">
            <input
              type="checkbox"
              checked={value.includes(o.value)}
              onChange={(e) => toggle(o.value, e.target.checked)}
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function FormShell({
  title,
  onSubmit,
  canSave,
  saving,
  error,
  onCancel,
  children,
  waitingFor,
}: {
  title: string;
  onSubmit: () => void;
  canSave: boolean;
  saving: boolean;
  error: string | null;
  onCancel: () => void;
  children: ReactNode;
  /** What Save still waits for ("a first name and a last name"): said beside the disabled button. */
  waitingFor?: string[];
}) {
  const hintId = useId();
  const waiting = !canSave && waitingFor?.length ? `To save, add ${listInWords(waitingFor)}.` : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSave && !saving) onSubmit();
  };
  // Save sits at the foot of a long form: on a phone the answer at its head would be off screen, so
  // focus goes to it (which scrolls it into view) and a screen reader reads it.
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  return (
    <section className="dash-section dash-form-page">
      <h1>{title}</h1>
      <form className="dash-form" onSubmit={submit} noValidate>
        {error ? (
          <div ref={errorRef} tabIndex={-1} className="dash-form-error">
            <Alert>{error}</Alert>
          </div>
        ) : null}
        {children}
        <div className="dash-form-actions">
          <button type="button" className="btn btn-outline" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!canSave || saving}
            aria-describedby={waiting ? hintId : undefined}
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
          {waiting ? (
            <p className="dash-hint" id={hintId} data-testid="save-waiting">
              {waiting}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}
