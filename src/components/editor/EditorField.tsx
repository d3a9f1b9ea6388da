import type { ReactNode } from 'react';

/** One field of the editor: its label (with the required mark), its control, and a hint below. */
export function EditorField({
  id,
  label,
  required = false,
  hint,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="editor-field">
      <label htmlFor={id}>
        {label}
        {required ? (
          <>
            {' '}
            <span className="editor-required" aria-hidden="true">
              *
            </span>
          </>
        ) : null}
      </label>
      {children}
      {hint}
    </div>
  );
}

/** A select of the editor; `none` is the empty choice's text, when there is one. */
export function EditorSelect({
  id,
  value,
  onChange,
  options,
  none,
  required = false,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  none?: string;
  required?: boolean;
  /** The id of a note about the choice (read out with the select). */
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      value={value}
      required={required || undefined}
      aria-required={required ? 'true' : undefined}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    >
      {none === undefined ? null : <option value="">{none}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
