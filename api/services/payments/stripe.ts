import type Stripe from 'stripe';
import { HttpError } from '../../lib/errors';
import { errorSummary, logLine } from '../../middlewares/logger';
import { toMetadata } from '../donations/pending';
import { createStripe, intentIdFromClientSecret } from './stripe-client';
import type { AppConfig } from '../../lib/config';
import type { PaymentProvider } from './provider';
import { createProviderRefund, findProviderRefund, stripeRefused } from './stripe-refund';
import { refundReplyEvent } from './stripe-objects';

const stripeCode = (error: unknown) => (error as { code?: string })?.code ?? null;

function providerError(error: unknown): HttpError {
  logLine('error', 'stripe request failed', { error: errorSummary(error) });
  return new HttpError(502, 'Our payment provider could not start this payment. Please try again in a moment.');
}

/** Stripe mode: the client is made on first use, so requests that never pay cost nothing. */
export function createStripeProvider(
  config: Pick<AppConfig, 'stripeSecretKey' | 'stripeApiBase' | 'stripePublishableKey'>,
  demo: PaymentProvider,
): PaymentProvider {
  let client: Stripe | null = null;
  const stripe = () => {
    client ??= createStripe(config);
    return client!;
  };
  const provider: PaymentProvider = {
    mode: 'stripe',
    publishableKey: config.stripePublishableKey,
    get api() {
      return stripe();
    },
    source: 'card',
    assertReady() {},
    remoteSources: ['card'],
    forSource: (source) => (source === 'demo' ? demo : provider),

    async openPayment({ pending, donor, priceId, description }, saveCustomerId) {
      // A Direct Debit takes only Bacs (the Payment Element then shows Stripe's mandate form);
      // a card gift lets the Payment Element offer the card form and the wallets (Apple Pay, Google Pay).
      const bacs = pending.method === 'bacs_debit';
      // The donation id makes the key: an SDK retry of the same request cannot charge twice.
      const idempotencyKey = `donation-${pending.id}`;
      const metadata = toMetadata(pending);
      let opened;
      try {
        // Subscriptions and Bacs mandates need a Customer; housekeeping deletes it if the first payment never happens.
        const customer =
          pending.type === 'monthly' || bacs
            ? (donor.stripeCustomerId ??
              (await saveCustomerId(
                (
                  await stripe().customers.create(
                    { email: donor.email, metadata: { donor_id: donor.id } },
                    { idempotencyKey: `customer-${donor.id}` },
                  )
                ).id,
              )))
            : undefined;
        if (pending.type === 'monthly') {
          const subscription = await stripe().subscriptions.create(
            {
              customer: customer!,
              items: [{ price: priceId ?? '' }],
              payment_behavior: 'default_incomplete',
              // The mandate's payment method becomes the Subscription's default once the first payment succeeds.
              payment_settings: bacs
                ? { save_default_payment_method: 'on_subscription', payment_method_types: ['bacs_debit'] }
                : { save_default_payment_method: 'on_subscription' },
              description,
              metadata,
              expand: ['latest_invoice.confirmation_secret'],
            },
            { idempotencyKey },
          );
          const invoice = subscription.latest_invoice as Stripe.Invoice | null;
          const clientSecret = invoice?.confirmation_secret?.client_secret ?? '';
          opened = {
            clientSecret,
            subscriptionId: subscription.id,
            invoiceId: invoice?.id ?? null,
            paymentIntentId: intentIdFromClientSecret(clientSecret),
          };
        } else {
          const intent = await stripe().paymentIntents.create(
            {
              amount: pending.amount,
              currency: 'gbp',
              // A one-off card gift needs no Stripe Customer: none is created for a payment that may never happen.
              ...(customer ? { customer } : {}),
              receipt_email: donor.email,
              ...(bacs ? { payment_method_types: ['bacs_debit'] } : { automatic_payment_methods: { enabled: true } }),
              description,
              metadata,
            },
            { idempotencyKey },
          );
          opened = {
            clientSecret: intent.client_secret ?? '',
            paymentIntentId: intent.id,
            invoiceId: null,
            subscriptionId: null,
          };
        }
      } catch (error) {
        throw providerError(error);
      }
      if (!opened.clientSecret) throw providerError(new Error('Stripe returned no client secret'));
      return opened;
    },

    async changeSubscription(gift, change) {
      if (change.kind === 'cancel')
        return {
          answer: await stripe().subscriptions.cancel(gift.id, { cancellation_details: { comment: change.by } }),
        };
      if (change.kind === 'price') {
        const current = await stripe().subscriptions.retrieve(gift.id);
        const item = current.items.data[0];
        // No proration: the new amount starts with the next monthly payment, nothing is charged now.
        return {
          answer: await stripe().subscriptions.update(gift.id, {
            items: [{ id: item.id, price: change.price.id }],
            proration_behavior: 'none',
          }),
        };
      }
      // An empty pause_collection is Stripe's way to end a pause now: the next payment is as scheduled.
      if (change.kind === 'resume')
        return { answer: await stripe().subscriptions.update(gift.id, { pause_collection: '' }) };
      // 'void': invoices made during the pause are voided, so the donor is never charged for them.
      return {
        answer: await stripe().subscriptions.update(gift.id, {
          pause_collection: { behavior: 'void', resumes_at: change.resumesAt },
        }),
      };
    },

    /** 'cancelled' when stopped (or Stripe no longer has it), 'paid' when it went ahead (the webhook records it), 'unknown' on errors. */
    async stopCheckout(row) {
      try {
        if (row.type === 'monthly' && row.subscriptionId) {
          try {
            await stripe().subscriptions.cancel(row.subscriptionId);
            return 'cancelled';
          } catch (error) {
            if (stripeCode(error) === 'resource_missing') return 'cancelled';
            const sub = await stripe().subscriptions.retrieve(row.subscriptionId);
            return sub.status === 'canceled' || sub.status === 'incomplete_expired'
              ? 'cancelled'
              : sub.status === 'incomplete'
                ? 'unknown'
                : 'paid';
          }
        }
        if (row.paymentIntentId) {
          try {
            await stripe().paymentIntents.cancel(row.paymentIntentId, { cancellation_reason: 'abandoned' });
            return 'cancelled';
          } catch (error) {
            if (stripeCode(error) === 'resource_missing') return 'cancelled';
            // payment_intent_unexpected_state: already cancelled, or it succeeded / is processing.
            const intent = await stripe().paymentIntents.retrieve(row.paymentIntentId);
            return intent.status === 'canceled'
              ? 'cancelled'
              : intent.status === 'succeeded' || intent.status === 'processing' || intent.status === 'requires_capture'
                ? 'paid'
                : 'unknown';
          }
        }
        return 'cancelled';
      } catch (error) {
        logLine('error', 'housekeeping: stripe cancel failed', { donation_id: row.id, error: errorSummary(error) });
        return 'unknown';
      }
    },

    async deleteCustomer(customerId) {
      try {
        await stripe().customers.del(customerId);
        return 'deleted';
      } catch (error) {
        if (stripeCode(error) === 'resource_missing') return 'missing';
        throw error;
      }
    },

    async stopSubscription(subscriptionId, by) {
      const ended = (status: string) => status === 'canceled' || status === 'incomplete_expired';
      try {
        if (ended((await stripe().subscriptions.retrieve(subscriptionId)).status)) return 'already';
        await stripe().subscriptions.cancel(subscriptionId, { cancellation_details: { comment: by } });
        return 'cancelled';
      } catch (error) {
        if (stripeCode(error) === 'resource_missing') return 'already';
        // Another copy of the event cancelled it between our two calls.
        if (ended((await stripe().subscriptions.retrieve(subscriptionId)).status)) return 'already';
        throw error;
      }
    },

    // Stripe reports Bacs outcomes itself (payment_intent.succeeded, invoice.paid, payment failures).
    delayedSettlements: async () => [],

    /** A customer portal session where the donor updates the card. */
    async cardUpdateUrl(customerId, returnUrl) {
      const session = await stripe().billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
        flow_data: { type: 'payment_method_update' },
      });
      return session.url;
    },

    /** Stripe's answer, recorded at once as the event it stands for; the webhook for it then changes nothing. */
    async refund({ gift, reversalId, amount, reason, again }) {
      if (!gift.paymentIntentId) {
        return {
          refused: {
            status: 503,
            message: 'Card refunds need Stripe: set STRIPE_SECRET_KEY. Nothing was refunded',
            note: 'Card payments are not configured',
          },
        };
      }
      let refund: Stripe.Refund;
      try {
        const made = again
          ? await findProviderRefund(stripe(), { paymentIntentId: gift.paymentIntentId, reversalId })
          : null;
        refund =
          made ??
          (await createProviderRefund(stripe(), {
            paymentIntentId: gift.paymentIntentId,
            amount,
            donationId: gift.id,
            reversalId,
            reason,
            again,
          }));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!stripeRefused(error))
          return {
            unsure: {
              message: `Stripe did not answer (${message.slice(0, 200)}), so the refund may have been made. It is held as pending, and its amount stays reserved, until Stripe says. Send this refund again: the refund Stripe made is looked for first, so it is never made twice`,
              note: `No answer from Stripe: ${message}`,
            },
          };
        return {
          refused: {
            status: 502,
            message: `Stripe did not make the refund (${message.slice(0, 200)}). Nothing was refunded; try again later`,
            note: `Stripe refused the refund: ${message}`,
          },
        };
      }
      const created = refund.created ?? Math.floor(Date.now() / 1000);
      return { event: refundReplyEvent(`evt_refund_reply_${refund.id}_${refund.status}`, refund, created) };
    },
    confirmsDemoPayments: false,
    keepsCardOnFile: true,
    // Stripe pays out by itself and reports it by webhook (payout.paid).
    payOutSettled: async () => 0,
  };
  return provider;
}
