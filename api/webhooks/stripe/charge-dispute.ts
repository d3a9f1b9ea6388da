import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { donationDisputes, donationReversals } from '../../../db/schema';
import { DISPUTE_STATUSES } from '../../../domain/finance';
import { HttpError } from '../../lib/errors';
import { findDonationByPaymentIntent, notYetApplied } from '../../services/donations/record';
import { afterReversal } from '../../services/reversals/record';
import type { EventHandler } from './types';

/**
 * charge.dispute.created / .updated / .closed: one row per du_… id; an event older than the newest
 * applied (last_event_at) changes nothing, so duplicates and reordering end in the same row. A lost
 * dispute takes the money out of the gift like a refund: a `dispute` reversal row keyed by the
 * dispute's id (so it is written once), then refunded_amount and the Gift Aid adjustment follow.
 */
export const chargeDispute: EventHandler = async ({ db }, event) => {
  const dispute = event.data.object as Stripe.Dispute;
  const intentId =
    typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);
  if (!dispute?.id || !intentId || !Number.isInteger(dispute.amount)) return 'ignore';
  const gift = await findDonationByPaymentIntent(db, intentId);
  if (!gift) throw new HttpError(503, 'The donation for this dispute is not recorded yet; retry later');
  const guard = notYetApplied(event.id);
  const status = (DISPUTE_STATUSES as readonly string[]).includes(dispute.status)
    ? (dispute.status as (typeof DISPUTE_STATUSES)[number])
    : 'needs_response';
  const outcome = status === 'won' || status === 'lost' ? status : null;
  const fee = (dispute.balance_transactions ?? []).reduce(
    (sum, bt) => sum + (typeof bt === 'object' ? (bt.fee ?? 0) : 0),
    0,
  );
  const due = dispute.evidence_details?.due_by ? dispute.evidence_details.due_by * 1000 : null;
  const now = Date.now();
  const newer = sql`excluded.last_event_at >= ${donationDisputes.lastEventAt}`;
  const upsert = db
    .insert(donationDisputes)
    .select(
      sql`select ${crypto.randomUUID()}, ${gift.id}, ${dispute.id}, ${dispute.amount}, ${dispute.reason ?? 'general'}, ${status}, ${fee}, ${due},
        ${outcome}, ${event.created}, ${now}, ${outcome ? now : null}, ${now} where ${guard}`,
    )
    .onConflictDoUpdate({
      target: donationDisputes.providerId,
      set: {
        status: sql`case when ${newer} then excluded.status else ${donationDisputes.status} end`,
        amount: sql`case when ${newer} then excluded.amount else ${donationDisputes.amount} end`,
        feePence: sql`case when ${newer} then excluded.fee_pence else ${donationDisputes.feePence} end`,
        evidenceDueBy: sql`coalesce(excluded.evidence_due_by, ${donationDisputes.evidenceDueBy})`,
        // Once closed, an older open event cannot reopen it.
        outcome: sql`coalesce(${donationDisputes.outcome}, excluded.outcome)`,
        closedAt: sql`coalesce(${donationDisputes.closedAt}, excluded.closed_at)`,
        lastEventAt: sql`max(${donationDisputes.lastEventAt}, excluded.last_event_at)`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
  if (outcome !== 'lost') return [upsert];
  const lost = db
    .insert(donationReversals)
    .select(
      sql`select ${crypto.randomUUID()}, ${gift.id}, 'dispute', min(${dispute.amount}, d.amount - d.refunded_amount), 'dispute_lost', null, 'succeeded',
        ${dispute.id}, null, null, ${fee}, null, null, ${now}, ${now}, ${now}, null
        from donations d where d.id = ${gift.id} and d.amount - d.refunded_amount > 0 and ${guard}`,
    )
    .onConflictDoNothing({ target: donationReversals.providerId });
  return [upsert, lost, ...afterReversal(db, gift.id, guard)];
};
