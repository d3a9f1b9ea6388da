/** Spec section 3: phone shows as (xxx) xxx-xxxx and keeps at most 10 digits. */
export const PHONE_MAX_DIGITS = 10;

export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
}

export function formatPhone(value: string | null | undefined): string {
  const digits = phoneDigits(value ?? '');
  if (digits.length === 0) return '';
  if (digits.length < 4) return `(${digits}`;
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
