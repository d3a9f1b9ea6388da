import { useId, type ReactNode } from 'react';
import { Icon } from './icons';

export function PageHeader({ title, actions, back }: { title: string; actions?: ReactNode; back?: ReactNode }) {
  return (
    <div className="dash-page-head">
      {back}
      <h1>{title}</h1>
      {actions ? <div className="dash-page-actions">{actions}</div> : null}
    </div>
  );
}

export function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'info' | 'success' }) {
  return (
    <div className={`dash-alert dash-alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <p className="dash-loading" role="status">
      <Icon name="loader" className="dash-spin" /> {label}
    </p>
  );
}

export function Field({
  label,
  required,
  hint,
  children,
  id,
}: {
  label: string;
  required?: boolean;
  hint?: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <div className="dash-field">
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="dash-required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <p className="dash-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type TextInputProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  type?: string;
  readOnly?: boolean;
  placeholder?: string;
  hint?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal';
  name?: string;
  max?: string;
  min?: string;
  step?: string;
  maxLength?: number;
  spellCheck?: boolean;
};

export function TextInput(props: TextInputProps) {
  const id = useId();
  return (
    <Field id={id} label={props.label} required={props.required} hint={props.hint}>
      <input
        id={id}
        name={props.name}
        className="dash-input"
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        required={props.required}
        aria-required={props.required || undefined}
        readOnly={props.readOnly}
        placeholder={props.placeholder}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        min={props.min}
        max={props.max}
        step={props.step}
        maxLength={props.maxLength}
        spellCheck={props.spellCheck}
      />
    </Field>
  );
}

export function TextArea(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  required?: boolean;
  rows?: number;
  maxLength?: number;
  hint?: string;
}) {
  const id = useId();
  return (
    <Field id={id} label={props.label} required={props.required} hint={props.hint}>
      <textarea
        id={id}
        className="dash-input"
        rows={props.rows ?? 5}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        required={props.required}
        aria-required={props.required || undefined}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        maxLength={props.maxLength}
      />
    </Field>
  );
}

export type Option = { label: string; value: string };

type SelectInputProps = {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: Option[];
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
};

export function SelectInput(props: SelectInputProps) {
  const id = useId();
  return (
    <Field id={id} label={props.label} required={props.required}>
      <select
        id={id}
        className="dash-input"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        required={props.required}
        aria-required={props.required || undefined}
        disabled={props.disabled}
      >
        <option value="">{props.placeholder ?? 'Select…'}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A staff form's organization picker: the organizations the viewer may act for, by name. */
export function OrganizationSelect({
  organizations,
  label = 'Organization',
  ...select
}: { organizations: { _id: string; name: string }[]; label?: string } & Omit<SelectInputProps, 'label' | 'options'>) {
  return (
    <SelectInput label={label} options={organizations.map((o) => ({ label: o.name, value: o._id }))} {...select} />
  );
}

/** A link that looks like a button (page header actions). */
export function LinkButton({
  href,
  children,
  outline = false,
  small = false,
}: {
  href: string;
  children: ReactNode;
  outline?: boolean;
  small?: boolean;
}) {
  return (
    <a className={`btn ${outline ? 'btn-outline' : 'btn-primary'}${small ? ' dash-btn-sm' : ''}`} href={href}>
      {children}
    </a>
  );
}

export function Badge({ children, tone = 'ok' }: { children: ReactNode; tone?: 'ok' | 'warn' | 'danger' | 'muted' }) {
  return <span className={`dash-badge dash-badge-${tone}`}>{children}</span>;
}

/** A checkbox with its label after it. */
export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="dash-check">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** A part of a page under its own heading, which names it for screen readers. */
export function Section({ title, className, children }: { title: ReactNode; className?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={className} aria-labelledby={id}>
      <h2 className="dash-h2" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One figure of a `dash-stats` list: its name and its value. */
export function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="dash-stat">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A record that is not there: its title and the way back to its list, never a dead end. */
export function NotFound({ title, back, backLabel }: { title: string; back: string; backLabel: string }) {
  return (
    <section className="dash-section dash-empty">
      <h1 className="dash-not-found">{title}</h1>
      <p>It may have been deleted, or the link may be mistyped.</p>
      <a className="btn btn-primary" href={back}>
        {backLabel}
      </a>
    </section>
  );
}
