import type Stripe from 'stripe';
import {
  attributionFromSubscription,
  findDonationById,
  notYetApplied,
  parseAttribution,
  resolveAttribution,
  type Attribution,
} from '../../services/donations/record';
import {
  findMonthlyGift,
  snapshotOf,
  upsertFromSubscription,
  type MonthlyGiftRow,
} from '../../services/monthly-gifts/records';
import type { EventHandler } from './types';

const attributionOfGift = (g: MonthlyGiftRow): Attribution => ({
  donationId: g.firstDonationId ?? '',
  donorId: g.donorId,
  campaignId: g.campaignId,
  appealId: g.appealId,
  giftAidDeclarationId: g.giftAidDeclarationId,
  source: g.source,
});

/**
 * customer.subscription.updated / .deleted: the monthly gift's state as Stripe holds it (amount,
 * pause, cancellation). Written with the event's `created` time, so an older event that arrives
 * late changes nothing, and a deleted subscription stays cancelled whatever comes after.
 */
export const customerSubscriptionChanged: EventHandler = async ({ db }, event) => {
  const sub = event.data.object as Stripe.Subscription;
  if (!sub?.id) return 'ignore';
  const existing = await findMonthlyGift(db, sub.id);
  const parsed = parseAttribution(sub.metadata, 'monthly');
  const attribution = existing
    ? attributionOfGift(existing)
    : ((parsed && (await resolveAttribution(db, parsed, {}))) ?? (await attributionFromSubscription(db, sub.id)));
  if (!attribution) return 'ignore';
  const snapshot = snapshotOf(sub);
  if (event.type === 'customer.subscription.deleted' && snapshot.status !== 'cancelled') {
    snapshot.status = 'cancelled';
    snapshot.cancelledAt = event.created * 1000;
    snapshot.cancelledBy ??= 'stripe';
    snapshot.nextPaymentAt = null;
  }
  const fallback =
    existing?.amount ??
    (attribution.donationId ? (await findDonationById(db, attribution.donationId))?.amount : 0) ??
    0;
  return [upsertFromSubscription(db, notYetApplied(event.id), snapshot, attribution, event.created, fallback)];
};
