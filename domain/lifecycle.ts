/** After the gift: monthly gift states, consent sources, erasure outcomes (docs/decisions/019, 020). */

export const MONTHLY_GIFT_STATUSES = ['incomplete', 'active', 'paused', 'past_due', 'cancelled'] as const;
export type MonthlyGiftStatus = (typeof MONTHLY_GIFT_STATUSES)[number];

/** `bank`: the donor cancelled the Direct Debit at their bank (the mandate became inactive). */
export const MONTHLY_GIFT_CANCELLED_BY = ['donor', 'link', 'admin', 'erasure', 'stripe', 'bank'] as const;
export type MonthlyGiftCancelledBy = (typeof MONTHLY_GIFT_CANCELLED_BY)[number];

/** A donor may pause a monthly gift for 1 to 3 months. */
export const MAX_PAUSE_MONTHS = 3;

/** The signed cancel link in a monthly receipt stops working after this many days. */
export const CANCEL_LINK_DAYS = 60;

export const CONSENT_SOURCES = ['donation_box', 'sign_up', 'my_info'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** Shown next to the unticked box, and stored word for word with each consent. */
export const MARKETING_CONSENT_WORDING =
  'Keep me updated by email about our work, new appeals and ways to help. You can withdraw at any time from My Info.';

export const ERASURE_OUTCOMES = ['pending', 'completed', 'expired', 'failed'] as const;
export type ErasureOutcome = (typeof ERASURE_OUTCOMES)[number];

/** Minutes the emailed erasure code is valid. */
export const ERASURE_CODE_MINUTES = 15;

/** Card processing as Stripe prices standard UK cards: 1.5% + 20p. The platform keeps nothing. */
export const CARD_FEE_PERCENT = 1.5;
export const CARD_FEE_FIXED_PENCE = 20;

/** The card processing fee on a gift, whole pence rounded to the nearest penny. */
export function cardFeeOn(pence: number): number {
  return Math.round((pence * CARD_FEE_PERCENT) / 100) + CARD_FEE_FIXED_PENCE;
}

/** The same date one calendar month later, clamped to the month's last day (31 Jan → 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
