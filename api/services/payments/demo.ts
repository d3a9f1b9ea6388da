import { HttpError } from '../../lib/errors';
import { and, asc, eq } from 'drizzle-orm';
import { donations } from '../../../db/schema';
import {
  DEMO_DIRECT_DEBIT_FAILED_MESSAGE,
  demoClientSecret,
  demoEvent,
  demoFailureEvent,
  demoMandateFails,
  demoSubscription,
  demoSuccessEvent,
  newDemoId,
  nextCycleDate,
} from './demo-events';
import { makeDemoPayouts } from '../finance/payouts-demo';
import type { PaymentProvider, SubscriptionChange, SubscriptionChangeResult } from './provider';
import { demoRefundEvent } from './demo-events';
import type { MonthlyGiftRow } from '../monthly-gifts/records';

/**
 * Demo payments (no Stripe keys): ids and client secrets shaped like Stripe's, and every change
 * reported as the event Stripe would send, so it takes the webhook's recording path. A production
 * server without keys gets this provider with `allowed: false`: it refuses to take payments.
 */
export function createDemoProvider(options: { authSecret: string; allowed: boolean }): PaymentProvider {
  const provider: PaymentProvider = {
    mode: 'demo',
    publishableKey: null,
    api: null,
    source: 'demo',
    assertReady() {
      if (!options.allowed) throw new HttpError(503, 'Card payments are not configured');
    },
    remoteSources: [],
    forSource: () => provider,

    async openPayment({ pending }) {
      provider.assertReady();
      const paymentIntentId = newDemoId('pi');
      const monthly = pending.type === 'monthly';
      return {
        clientSecret: await demoClientSecret(options.authSecret, paymentIntentId),
        paymentIntentId,
        invoiceId: monthly ? newDemoId('in') : null,
        subscriptionId: monthly ? newDemoId('sub') : null,
      };
    },

    async changeSubscription(gift: MonthlyGiftRow, change: SubscriptionChange): Promise<SubscriptionChangeResult> {
      const id = (kind: string) => `evt_demo_${kind}_${crypto.randomUUID()}`;
      if (change.kind === 'cancel') {
        return {
          event: demoEvent(
            id('deleted'),
            'customer.subscription.deleted',
            demoSubscription(gift, { status: 'canceled', cancelledBy: change.by }),
            { status: 'active' },
          ),
        };
      }
      if (change.kind === 'price') {
        return {
          event: demoEvent(
            id('updated'),
            'customer.subscription.updated',
            demoSubscription(gift, { amount: change.price.unit_amount, priceId: change.price.id }),
            {
              items: { data: [{ price: { id: gift.priceId, unit_amount: gift.amount } }] },
            },
          ),
        };
      }
      if (change.kind === 'resume') {
        const resumesAt = gift.pauseResumesAt ? Math.floor(gift.pauseResumesAt.getTime() / 1000) : null;
        return {
          event: demoEvent(
            id('updated'),
            'customer.subscription.updated',
            // Payments go on from the gift's own monthly date, not from where the pause would have ended.
            demoSubscription(gift, {
              resumesAt: null,
              nextPaymentAt: Math.floor(nextCycleDate(gift.startedAt ?? gift.createdAt).getTime() / 1000),
            }),
            { pause_collection: { behavior: 'void', resumes_at: resumesAt } },
          ),
        };
      }
      return {
        event: demoEvent(
          id('updated'),
          'customer.subscription.updated',
          demoSubscription(gift, { resumesAt: change.resumesAt }),
          { pause_collection: null },
        ),
      };
    },

    /** Every demo Direct Debit still processing settles on the next run, as its test account says. */
    async delayedSettlements(db, limit) {
      const rows = await db
        .select()
        .from(donations)
        .where(
          and(
            eq(donations.status, 'processing'),
            eq(donations.paymentMethod, 'bacs_debit'),
            eq(donations.source, 'demo'),
          ),
        )
        .orderBy(asc(donations.createdAt))
        .limit(limit);
      return rows.map((row) =>
        demoMandateFails(row.mandateId)
          ? demoFailureEvent(row, DEMO_DIRECT_DEBIT_FAILED_MESSAGE)
          : demoSuccessEvent(row),
      );
    },

    // Nothing lives anywhere else: stopping, deleting and card updates have nothing to do.
    stopCheckout: async () => 'cancelled',
    deleteCustomer: async () => 'missing',
    cardUpdateUrl: async () => null,
    // A demo subscription lives only in our rows, which the event already cancelled.
    stopSubscription: async () => 'already',

    /** Demo gifts (and seeded ones with demo ids) refund at once; a real card gift needs Stripe. */
    async refund({ gift, reversalId, amount, reason }) {
      if (gift.source === 'demo' || gift.paymentIntentId?.startsWith('pi_demo')) {
        return { event: demoRefundEvent(gift, reversalId, amount, reason) };
      }
      return {
        refused: {
          status: 503,
          message: 'Card refunds need Stripe: set STRIPE_SECRET_KEY. Nothing was refunded',
          note: 'Card payments are not configured',
        },
      };
    },
    confirmsDemoPayments: true,
    keepsCardOnFile: false,
    payOutSettled: (db, now) => makeDemoPayouts(db, now),
  };
  return provider;
}
