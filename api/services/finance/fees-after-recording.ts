import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import type { Statement } from '../donations/record';
import { type FeeWanted, stripeSettlements } from '../payments/settlement';
import { storeSettlement } from './payouts-fees';
import { gatherer, type GatherTiming } from '../../lib/gather';

/**
 * Stripe's fee of a gift paid by card, written just after the gift is recorded instead of inside its
 * recording batch. Asking Stripe for one gift's fee (its charge with the balance transaction) cost a
 * webhook about a third of its CPU; after the answer, the gifts of a busy second share one list of
 * charges and one batch of writes (docs/decisions/041). The gift's amount, receipt and totals never
 * wait for it; a fee Stripe cannot give now is filled in by the payout that pays the gift out.
 */

/** How long the fees of a storm's gifts gather before one look-up answers them all. */
export const FEE_FILL_WINDOW_MS = 1000;
/** Gifts one look-up answers at most; the rest go in the next. */
export const FEE_FILL_MAX = 100;

export type FeeFillOptions = {
  /** Gather with other gifts of this isolate (a worker's answer has gone); false: look up and write now. */
  gather: boolean;
} & GatherTiming;

/** A storm's fees share one look-up and one batch of writes (api/lib/gather.ts). */
const gatherFees = gatherer<Db, { stripe: Stripe; wanted: FeeWanted }>(
  (db, items) =>
    fillNow(
      db,
      items[0].stripe,
      items.map((item) => item.wanted),
    ),
  { windowMs: FEE_FILL_WINDOW_MS, max: FEE_FILL_MAX },
);

/**
 * Looks up and stores the fee of this gift. Gathering, at most one look-up starts a window: the
 * first gift after a quiet window goes at once, the next ones wait for the window's end and go
 * together. The promise settles when this gift's fee is stored (or left to the payout).
 */
export function fillStripeFee(db: Db, stripe: Stripe, wanted: FeeWanted, options: FeeFillOptions): Promise<void> {
  if (!options.gather) return fillNow(db, stripe, [wanted]);
  return gatherFees(db, { stripe, wanted }, options);
}

async function fillNow(db: Db, stripe: Stripe, wanted: FeeWanted[]): Promise<void> {
  const found = await stripeSettlements(stripe, wanted);
  const writes: Statement[] = [...found].flatMap(([paymentIntentId, settlement]) =>
    storeSettlement(db, null, { paymentIntentId }, settlement),
  );
  if (writes.length) await db.batch(writes as [Statement, ...Statement[]]);
}
