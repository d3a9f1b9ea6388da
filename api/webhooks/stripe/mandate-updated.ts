import type Stripe from 'stripe';
import { logLine } from '../../middlewares/logger';
import { isKnownMandate, mandateStatus, upsertMandate } from '../../services/payments/direct-debit';
import { notYetApplied } from '../../services/donations/record';
import { cancelGiftsOfInactiveMandates } from '../../services/monthly-gifts/records';
import type { EventHandler } from './types';

/**
 * A Bacs mandate changed. Inactive means the donor cancelled the Direct Debit at their bank (or the
 * account closed): the monthly gifts it paid are cancelled, once, whichever event arrives first.
 * A mandate we never heard of is logged and acknowledged.
 */
export const mandateUpdated: EventHandler = async ({ db }, event) => {
  const mandate = event.data.object as Stripe.Mandate;
  if (mandate.payment_method_details?.type !== 'bacs_debit') return 'ignore';
  if (!(await isKnownMandate(db, mandate.id))) {
    logLine('warn', 'stripe event ignored: unknown mandate', { event_id: event.id, mandate_id: mandate.id });
    return 'ignore';
  }
  const guard = notYetApplied(event.id);
  return [
    upsertMandate(db, guard, {
      id: mandate.id,
      reference: mandate.payment_method_details.bacs_debit?.reference ?? null,
      status: mandateStatus(mandate.status),
      donorId: null,
      last4: null,
      asOf: event.created,
    }),
    cancelGiftsOfInactiveMandates(db, guard, { mandateId: mandate.id }),
  ];
};
