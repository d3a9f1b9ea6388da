import type Stripe from 'stripe';
import { logLine } from '../../middlewares/logger';
import { notYetApplied } from '../../services/donations/record';
import { matchLines, organizationOfLines, payoutStatements } from '../../services/finance/payouts-record';
import { payoutHeaderOf, stripePayoutLines } from '../../services/finance/payouts-stripe';
import type { EventHandler } from './types';

/**
 * payout.paid / payout.failed: the payout (keyed by po_…) with the balance transactions Stripe paid
 * out in it, each matched to its gift, refund or dispute where we have one. Replays and reordering
 * end in the same rows: lines are keyed by transaction, a newer event wins, failed is final.
 */
export const payoutChanged: EventHandler = async ({ db, stripe }, event) => {
  const payout = event.data.object as Stripe.Payout;
  const header = payoutHeaderOf(payout, event.created);
  // Without a Stripe account to ask (demo mode) the payout is kept without its lines.
  const lines = stripe ? await matchLines(db, await stripePayoutLines(stripe, payout.id)) : [];
  const net = lines.reduce((sum, l) => sum + l.net, 0);
  if (stripe && net !== header.amount) {
    logLine('warn', 'payout lines do not add up to its amount', {
      payout_id: payout.id,
      amount: header.amount,
      lines_net: net,
    });
  }
  const unmatched = lines.filter((l) => !l.donationId && l.type !== 'stripe_fee').length;
  if (unmatched) logLine('info', 'payout has lines with no gift', { payout_id: payout.id, unmatched });
  return payoutStatements(
    db,
    notYetApplied(event.id),
    { ...header, organizationId: await organizationOfLines(db, lines) },
    lines,
  );
};
