import { bodyLimit } from 'hono/body-limit';
import type Stripe from 'stripe';
import { createRouter, errorBody } from '../../lib/create-app';
import { badRequest, HttpError } from '../../lib/errors';
import { markEventApplied, type Statement } from '../../services/donations-record';
import { createMailer } from '../../services/mailer';
import { donationIdOfEvent, notifyAfterGift } from '../../services/notifications/fundraiser';
import { createStripe, verifyStripeEvent } from '../../services/stripe';
import { chargeRefunded } from './charge-refunded';
import { invoicePaid } from './invoice-paid';
import { invoicePaymentFailed } from './invoice-payment-failed';
import { paymentIntentPaymentFailed } from './payment-intent-payment-failed';
import { paymentIntentSucceeded } from './payment-intent-succeeded';
import type { EventHandler, WebhookContext } from './types';

export type { WebhookContext };

/** The events we act on; every other type is acknowledged with 200 so Stripe stops sending it. */
export const STRIPE_EVENT_HANDLERS: Record<string, EventHandler> = {
  'payment_intent.succeeded': paymentIntentSucceeded,
  'payment_intent.payment_failed': paymentIntentPaymentFailed,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoicePaymentFailed,
  'charge.refunded': chargeRefunded,
};

export type EventOutcome = 'recorded' | 'duplicate' | 'ignored';

/**
 * Applies one verified event exactly once: its writes and the event id go in one batch, and each
 * write is guarded by "event id not stored yet", so a replay or a concurrent copy changes nothing.
 * Demo confirmations call this too, so both paths record gifts identically.
 */
export async function applyStripeEvent(ctx: WebhookContext, event: Stripe.Event): Promise<EventOutcome> {
  const handler = STRIPE_EVENT_HANDLERS[event.type];
  if (!handler) return 'ignored';
  const seen = await ctx.db.query.webhookEvents.findFirst({ where: (t, { eq }) => eq(t.id, event.id) });
  if (seen) return 'duplicate';
  const writes = await handler(ctx, event);
  if (writes === 'ignore') return 'ignored';
  const statements: Statement[] = [...writes, markEventApplied(ctx.db, event.id, event.type)];
  await ctx.db.batch(statements as [Statement, ...Statement[]]);
  if (ctx.mailer) {
    const donationId = await donationIdOfEvent(ctx.db, event).catch(() => null);
    if (donationId) await notifyAfterGift(ctx.db, ctx.mailer, donationId, { origin: ctx.origin });
  }
  return 'recorded';
}

/** Stripe events (an invoice with many lines) can pass the API's 100 KB default. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export const stripeWebhookRouter = createRouter().post(
  '/stripe/webhook',
  bodyLimit({ maxSize: WEBHOOK_BODY_LIMIT, onError: (c) => c.json(errorBody(413, 'Webhook payload is too large (limit 1 MB)'), 413) }),
  async (c) => {
    const secret = c.var.config.stripeWebhookSecret;
    if (!secret) throw new HttpError(503, 'Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET');
    const signature = c.req.header('stripe-signature');
    if (!signature) throw badRequest('Missing Stripe-Signature header');
    // Verify the exact bytes Stripe signed, before any parsing.
    const rawBody = await c.req.text();
    let event: Stripe.Event;
    try {
      event = await verifyStripeEvent(rawBody, signature, secret);
    } catch {
      throw badRequest('Stripe signature verification failed (wrong secret, altered body or stale timestamp)');
    }
    const config = c.var.config;
    const outcome = await applyStripeEvent(
      { db: c.var.db, stripe: createStripe(config), mailer: createMailer(c.var.db, config), origin: config.publicOrigin ?? new URL(c.req.url).origin },
      event,
    );
    return c.json({ received: true, outcome });
  },
);
