import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/**
 * One labelled text box of the donation box's forms, with its error under it: the error is the
 * box's description and marks it invalid, so a screen reader reads the problem with the field.
 */
export function TextField({
  id,
  label,
  error,
  narrow = false,
  inputRef,
  ...input
}: {
  id: string;
  label: ReactNode;
  error?: string;
  narrow?: boolean;
  inputRef?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <div className={`field${narrow ? ' field-narrow' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        {...input}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
