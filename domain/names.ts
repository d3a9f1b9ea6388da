/**
 * People's names wherever they are typed (sign-up, donors, the donation box): any alphabet and
 * punctuation, but never markup or control characters. The Gift Aid names follow HMRC's stricter
 * rule (domain/gift-aid.ts).
 */
export const PERSON_NAME_MAX = 100;

const MARKUP_OR_CONTROL = /[<>\u0000-\u001F\u007F]/;

/** What is wrong with a name, or null when it is fine; empty is the caller's business. */
export function personNameProblem(value: string): string | null {
  if (value.length > PERSON_NAME_MAX) return `Use at most ${PERSON_NAME_MAX} characters`;
  if (MARKUP_OR_CONTROL.test(value)) return 'a name cannot contain < or > (or control characters)';
  return null;
}
