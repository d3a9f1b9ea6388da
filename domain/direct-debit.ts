import { PAYMENT_METHOD_LABELS, type PaymentMethod } from './finance';
import { PERSON_NAME_MAX, personNameProblem } from './names';
import { normalizeUkPostcode } from './postcode';
import { addBacsWorkingDays } from './working-days';
/**
 * Bacs Direct Debit: what the donor must be shown and what the scheme takes. Browser-safe; the
 * donation box, the receipts and the API read the same wording (docs/decisions/030).
 */

/** Stripe's Bacs limit for a new account is £10,000 a week; a larger single gift is taken by card. */
export const DIRECT_DEBIT_MAX_PENCE = 1_000_000;
/** The smallest gift Bacs collects here, the platform's own minimum (£1). */
export const DIRECT_DEBIT_MIN_PENCE = 100;
/** Bacs collects pounds sterling only. */
export const DIRECT_DEBIT_CURRENCY = 'gbp';
/** How long the first collection takes after the mandate is set up (advance notice). */
export const DIRECT_DEBIT_FIRST_PAYMENT_DAYS = 3;

/**
 * The day the first collection is due: `DIRECT_DEBIT_FIRST_PAYMENT_DAYS` Bacs working days after the
 * mandate was set up (weekends and England and Wales bank holidays skipped, `addBacsWorkingDays`).
 * Shown as "on or about": the bank may take it a day later.
 */
export function firstCollectionDate(setUp: Date): Date {
  return addBacsWorkingDays(setUp, DIRECT_DEBIT_FIRST_PAYMENT_DAYS);
}

/**
 * The account holder a Bacs mandate names: Stripe requires the holder's name, email and billing
 * address for a Direct Debit (its mandate collection requirements); the email is the donor's own.
 */
export type AccountHolder = { name: string; line1: string; line2?: string; city: string; postcode: string };

export const ACCOUNT_HOLDER_LIMITS = { name: PERSON_NAME_MAX, line: 100, city: 60 } as const;

/**
 * What is wrong with the account holder's details, field by field (empty when they are fine): the
 * demo Direct Debit form and the demo confirm endpoint read the same rule. Values are trimmed first.
 */
export function accountHolderProblems(value: AccountHolder): Partial<Record<keyof AccountHolder, string>> {
  const problems: Partial<Record<keyof AccountHolder, string>> = {};
  const name = value.name.trim();
  const { line, city } = ACCOUNT_HOLDER_LIMITS;
  if (!name) problems.name = "Enter the account holder's name";
  else {
    const problem = personNameProblem(name);
    if (problem) problems.name = problem.charAt(0).toUpperCase() + problem.slice(1);
  }
  for (const [field, what, max] of [
    ['line1', 'the first line of the address', line],
    ['line2', '', line],
    ['city', 'the town or city', city],
  ] as const) {
    const text = (value[field] ?? '').trim();
    if (!text && what) problems[field] = `Enter ${what}`;
    else if (text.length > max) problems[field] = `Use at most ${max} characters`;
    else if (/[<>\u0000-\u001F\u007F]/.test(text))
      problems[field] = 'An address cannot contain < or > (or control characters)';
  }
  const postcode = value.postcode.trim();
  if (!postcode) problems.postcode = 'Enter the postcode';
  else if (!normalizeUkPostcode(postcode)) problems.postcode = 'Enter a UK postcode, like SW1A 1AA';
  return problems;
}

/** "10-88-00" from "108800" or "10 88 00". */
export const formatSortCode = (sortCode: string) =>
  sortCode.replace(/\D/g, '').replace(/^(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3');

/** Stripe's test bank details: the sort code, an account that succeeds and one whose payment fails. */
export const DEMO_SORT_CODE = '108800';
export const DEMO_ACCOUNT_SUCCEEDS = '00012345';
export const DEMO_ACCOUNT_FAILS = '90012345';

/** The Direct Debit Guarantee, in the scheme's wording with the collecting charity named. */
export function directDebitGuarantee(charityName: string): string[] {
  const org = charityName;
  return [
    'This Guarantee is offered by all banks and building societies that accept instructions to pay Direct Debits.',
    `If there are any changes to the amount, date or frequency of your Direct Debit ${org} will notify you ${DIRECT_DEBIT_FIRST_PAYMENT_DAYS} working days in advance of your account being debited or as otherwise agreed. If you request ${org} to collect a payment, confirmation of the amount and date will be given to you at the time of the request.`,
    `If an error is made in the payment of your Direct Debit, by ${org} or your bank or building society, you are entitled to a full and immediate refund of the amount paid from your bank or building society.`,
    `If you receive a refund you are not entitled to, you must pay it back when ${org} asks you to.`,
    'You can cancel a Direct Debit at any time by simply contacting your bank or building society. Written confirmation may be required. Please also notify us.',
  ];
}

/** The name on the donor's bank statement: the charity's, as Stripe's Bacs descriptor carries it. */
export function statementName(charityName: string): string {
  return charityName
    .toUpperCase()
    .replace(/[^A-Z0-9 &.-]/g, '')
    .slice(0, 18)
    .trim();
}

/** The office's monthly-gifts list and CSV: the method, and whether it is a demo gift ("Card (demo)"). */
export function monthlyGiftMethodLabel(
  source: string,
  method: string | null | undefined,
  last4: string | null | undefined,
): string {
  const label = paymentMethodLabel(method, last4);
  return source === 'demo' ? `${label} (demo)` : label;
}

/**
 * "Direct Debit ending 2345", "Card" or, for gifts the office entered, "Cheque", "Cash"…: how a gift
 * is paid, as lists and exports show it ('' for a gift recorded by hand with no method).
 */
export function paymentMethodLabel(
  method: string | null | undefined,
  last4: string | null | undefined,
  source?: string,
): string {
  if (method === 'bacs_debit') return last4 ? `Direct Debit ending ${last4}` : 'Direct Debit';
  if (method && method !== 'card' && method in PAYMENT_METHOD_LABELS)
    return PAYMENT_METHOD_LABELS[method as PaymentMethod];
  if (source === 'manual' && !method) return '';
  return 'Card';
}
