/** A donor's monthly gift: its states, who may stop it, how long it may pause (docs/decisions/019). */
import { addMonths } from './dates';

export const MONTHLY_GIFT_STATUSES = ['incomplete', 'active', 'paused', 'past_due', 'cancelled'] as const;
export type MonthlyGiftStatus = (typeof MONTHLY_GIFT_STATUSES)[number];

/** A gift still set up: taking payments, retrying a failed one, or paused (a pause ends by itself). */
export const MONTHLY_GIFT_SET_UP = ['active', 'past_due', 'paused'] as const satisfies readonly MonthlyGiftStatus[];

/** `bank`: the donor cancelled the Direct Debit at their bank (the mandate became inactive). */
export const MONTHLY_GIFT_CANCELLED_BY = ['donor', 'link', 'admin', 'erasure', 'stripe', 'bank'] as const;
export type MonthlyGiftCancelledBy = (typeof MONTHLY_GIFT_CANCELLED_BY)[number];

/** A donor may pause a monthly gift for 1 to 3 months. */
export const MAX_PAUSE_MONTHS = 3;

/** The signed cancel link in a monthly receipt stops working after this many days. */
export const CANCEL_LINK_DAYS = 60;

/**
 * What a pause does to a gift's own monthly dates (the day and time it started, each month): Stripe
 * voids every payment that falls before the pause ends, so those are skipped, and the first date
 * at or after the end is the next payment taken. The end itself is rarely a payment date.
 */
export function pauseSchedule(startedAt: Date, resumesAt: Date, now = new Date()): { skipped: Date[]; next: Date } {
  const skipped: Date[] = [];
  // Bounded: an unreadable date (NaN compares false) must not spin forever; 100 years of months is plenty.
  for (let months = 1; months <= 1200; months++) {
    const due = addMonths(startedAt, months);
    if (due >= resumesAt) return { skipped, next: due };
    if (due > now) skipped.push(due);
  }
  return { skipped: [], next: resumesAt };
}
