import { personNameProblem } from '../../../domain';
import { TextField } from './TextField';

/** "Your name" for a guest: optional; shown with a message and on the receipt. */
export type DonorName = { first_name: string; last_name: string };
export const EMPTY_NAME: DonorName = { first_name: '', last_name: '' };

export function donorNameErrors(value: DonorName): Partial<Record<keyof DonorName, string>> {
  const errors: Partial<Record<keyof DonorName, string>> = {};
  for (const field of ['first_name', 'last_name'] as const) {
    const problem = personNameProblem(value[field].trim());
    if (problem) errors[field] = problem.charAt(0).toUpperCase() + problem.slice(1);
  }
  return errors;
}

/** The request fields: only what was typed. */
export function donorNameBody(value: DonorName): { first_name?: string; last_name?: string } {
  const first = value.first_name.trim();
  const last = value.last_name.trim();
  return { ...(first ? { first_name: first } : {}), ...(last ? { last_name: last } : {}) };
}

export function DonorNameFields({
  id,
  value,
  onChange,
}: {
  id: string;
  value: DonorName;
  onChange: (value: DonorName) => void;
}) {
  const errors = donorNameErrors(value);
  return (
    <fieldset className="field donor-name">
      <legend>
        Your name <span className="muted">(optional: shown with your message and on your receipt)</span>
      </legend>
      {(
        [
          ['first_name', 'First name', 'given-name'],
          ['last_name', 'Last name', 'family-name'],
        ] as const
      ).map(([field, label, autoComplete]) => (
        <TextField
          key={field}
          id={`${id}-${field}`}
          label={label}
          autoComplete={autoComplete}
          maxLength={100}
          value={value[field]}
          onChange={(e) => onChange({ ...value, [field]: e.target.value })}
          error={errors[field]}
        />
      ))}
    </fieldset>
  );
}
