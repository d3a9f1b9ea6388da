import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import { directDebitMandates, donations, monthlyGifts } from '../../../db/schema';
import { logLine } from '../../middlewares/logger';
import type { BacsDetails, Statement } from '../donations/record';
import type { PaymentProvider } from './provider';

/**
 * Bacs Direct Debit mandates as Stripe reports them. A payment that reaches Bacs names its mandate
 * (on its charge); the mandate's own events say when the donor cancels it at the bank.
 */

export type MandateFacts = BacsDetails & { reference: string | null; status: 'pending' | 'active' | 'inactive' | null };

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * The bank details of a Direct Debit PaymentIntent: its charge's bacs_debit details and its mandate.
 * Webhook objects carry ids, which are looked up with the API; demo events carry them expanded.
 */
export async function bacsDetailsOf(stripe: Stripe | null, intent: Stripe.PaymentIntent): Promise<MandateFacts | null> {
  let charge: Stripe.Charge | null = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  if (!charge && typeof intent.latest_charge === 'string' && stripe)
    charge = await stripe.charges.retrieve(intent.latest_charge);
  const details = charge?.payment_method_details?.bacs_debit;
  if (!details) return null;
  const rawMandate = details.mandate as string | Stripe.Mandate | null | undefined;
  let mandate: Stripe.Mandate | null = rawMandate && typeof rawMandate === 'object' ? rawMandate : null;
  if (!mandate && typeof rawMandate === 'string' && stripe) mandate = await stripe.mandates.retrieve(rawMandate);
  return {
    last4: details.last4 ?? null,
    mandateId: idOf(rawMandate),
    reference: mandate?.payment_method_details?.bacs_debit?.reference ?? null,
    status: mandateStatus(mandate?.status),
  };
}

export const mandateStatus = (status: string | null | undefined): MandateFacts['status'] =>
  status === 'active' || status === 'inactive' || status === 'pending' ? status : null;

/** Stores what we know of a mandate; the newest event's status wins, and inactive is final (Bacs never reactivates one). */
export function upsertMandate(
  db: Db,
  guard: SQL,
  m: {
    id: string;
    reference: string | null;
    status: MandateFacts['status'];
    donorId: string | null;
    last4: string | null;
    asOf: number;
  },
): Statement {
  const now = Date.now();
  const t = directDebitMandates;
  return db
    .insert(t)
    .select(
      sql`select ${m.id}, ${m.reference}, ${m.status ?? 'pending'}, ${m.donorId}, ${m.last4}, ${m.status ? m.asOf : 0}, ${now}, ${now} where ${guard}`,
    )
    .onConflictDoUpdate({
      target: t.id,
      set: {
        reference: sql`coalesce(excluded.reference, ${t.reference})`,
        donorId: sql`coalesce(${t.donorId}, excluded.donor_id)`,
        bankLast4: sql`coalesce(excluded.bank_last4, ${t.bankLast4})`,
        status: sql`case when ${t.status} = 'inactive' then 'inactive' when excluded.status_as_of >= ${t.statusAsOf} and excluded.status_as_of > 0 then excluded.status else ${t.status} end`,
        statusAsOf: sql`max(${t.statusAsOf}, excluded.status_as_of)`,
        updatedAt: sql`excluded.updated_at`,
      },
    }) as unknown as Statement;
}

/** A mandate we have heard of: on a mandate row, a gift or a monthly gift. */
export async function isKnownMandate(db: Db, mandateId: string): Promise<boolean> {
  const [a] = await db
    .select({ id: directDebitMandates.id })
    .from(directDebitMandates)
    .where(eq(directDebitMandates.id, mandateId))
    .limit(1);
  if (a) return true;
  const [b] = await db.select({ id: donations.id }).from(donations).where(eq(donations.mandateId, mandateId)).limit(1);
  if (b) return true;
  const [c] = await db
    .select({ id: monthlyGifts.id })
    .from(monthlyGifts)
    .where(or(eq(monthlyGifts.mandateId, mandateId)))
    .limit(1);
  return !!c;
}

export async function findMandate(db: Db, mandateId: string | null) {
  if (!mandateId) return null;
  const [row] = await db.select().from(directDebitMandates).where(eq(directDebitMandates.id, mandateId)).limit(1);
  return row ?? null;
}

const idOfSubscription = (invoice: Stripe.Invoice) =>
  idOf(invoice.parent?.subscription_details?.subscription as string | { id: string } | null | undefined);

/**
 * After mandate.updated (inactive) or invoice.paid is recorded: the monthly gifts it cancelled
 * because the donor cancelled the Direct Debit at the bank have their Stripe Subscription cancelled
 * too, so Stripe stops raising invoices Bacs cannot collect. It runs after the batch (an API call
 * cannot be part of it) and again on a redelivered event, so a crash in between is made good; a
 * subscription already cancelled at Stripe is not called twice. Errors propagate: the webhook
 * answers 500 and Stripe's retry tries again.
 */
export async function stopSubscriptionsCancelledAtBank(
  ctx: { db: Db; payments?: PaymentProvider },
  event: Stripe.Event,
): Promise<number> {
  if (!ctx.payments) return 0;
  let scope: SQL;
  if (event.type === 'mandate.updated') {
    const mandate = event.data.object as Stripe.Mandate;
    if (mandate.status !== 'inactive') return 0;
    scope = eq(monthlyGifts.mandateId, mandate.id);
  } else if (event.type === 'invoice.paid') {
    const subscriptionId = idOfSubscription(event.data.object as Stripe.Invoice);
    if (!subscriptionId) return 0;
    scope = eq(monthlyGifts.id, subscriptionId);
  } else {
    return 0;
  }
  const gifts = await ctx.db
    .select({ id: monthlyGifts.id, source: monthlyGifts.source })
    .from(monthlyGifts)
    .where(and(scope, eq(monthlyGifts.status, 'cancelled'), eq(monthlyGifts.cancelledBy, 'bank')));
  if (!gifts.length && event.type === 'mandate.updated') {
    // The first invoice is not recorded yet: invoice.paid cancels the gift and comes back here.
    logLine('info', 'mandate inactive: no monthly gift recorded on it yet', {
      event_id: event.id,
      mandate_id: (event.data.object as Stripe.Mandate).id,
    });
  }
  let stopped = 0;
  for (const gift of gifts) {
    if ((await ctx.payments.forSource(gift.source).stopSubscription(gift.id, 'bank')) === 'cancelled') {
      stopped += 1;
      logLine('info', 'subscription cancelled: its Direct Debit mandate is inactive', {
        event_id: event.id,
        subscription_id: gift.id,
      });
    }
  }
  return stopped;
}
