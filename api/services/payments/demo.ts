import { HttpError } from '../../lib/errors';
import { demoClientSecret, demoEvent, demoSubscription, newDemoId } from './demo-events';
import type { PaymentProvider, SubscriptionChange, SubscriptionChangeResult } from './provider';
import type { MonthlyGiftRow } from '../monthly-gifts';

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
        return { event: demoEvent(id('deleted'), 'customer.subscription.deleted', demoSubscription(gift, { status: 'canceled', cancelledBy: change.by }), { status: 'active' }) };
      }
      if (change.kind === 'price') {
        return {
          event: demoEvent(id('updated'), 'customer.subscription.updated', demoSubscription(gift, { amount: change.price.unit_amount, priceId: change.price.id }), {
            items: { data: [{ price: { id: gift.priceId, unit_amount: gift.amount } }] },
          }),
        };
      }
      return { event: demoEvent(id('updated'), 'customer.subscription.updated', demoSubscription(gift, { resumesAt: change.resumesAt }), { pause_collection: null }) };
    },

    // Nothing lives anywhere else: stopping, deleting and card updates have nothing to do.
    stopCheckout: async () => 'cancelled',
    deleteCustomer: async () => 'missing',
    cardUpdateUrl: async () => null,
  };
  return provider;
}
