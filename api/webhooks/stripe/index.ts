import { bodyLimit } from 'hono/body-limit';
import type Stripe from 'stripe';
import { createRouter, errorBody } from '../../lib/create-app';
import { badRequest, HttpError } from '../../lib/errors';
import { markEventApplied, type Statement } from '../../services/donations-record';
import { createStripe, verifyStripeEvent } from '../../services/stripe';
import { chargeRefunded } from './charge-refunded';
import { customerSubscriptionChanged } from './customer-subscription';
import { notifyAfterEvent, type MailContext } from '../../services/mail';
import { linkOrigin } from '../../services/monthly-links';
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
  'customer.subscription.updated': customerSubscriptionChanged,
  'customer.subscription.deleted': customerSubscriptionChanged,
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
  if (seen) {
    // A retry after a crash between the batch and the mail still sends it; outbox keys stop repeats.
    await notify(ctx, event);
    return 'duplicate';
  }
  const writes = await handler(ctx, event);
  if (writes === 'ignore') return 'ignored';
  const statements: Statement[] = [...writes, markEventApplied(ctx.db, event.id, event.type)];
  await ctx.db.batch(statements as [Statement, ...Statement[]]);
  await notify(ctx, event);
  return 'recorded';
}

/** Receipts and notices never fail the webhook: the gift is recorded; a lost email is logged. */
async function notify(ctx: WebhookContext, event: Stripe.Event) {
  if (!ctx.mail) return;
  try {
    await notifyAfterEvent(ctx.mail, event);
  } catch (err) {
    console.error(`[mail] notification for ${event.type} ${event.id} failed:`, err instanceof Error ? err.message : err);
  }
}

/** The mail context of a request: links in emails point at PUBLIC_ORIGIN or the request's origin. */
export const mailContextOf = (c: { var: { db: MailContext['db']; config: MailContext['config'] }; req: { url: string } }): MailContext => ({
  db: c.var.db,
  config: c.var.config,
  origin: linkOrigin(c.var.config.publicOrigin, c.req.url),
});

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
    const outcome = await applyStripeEvent({ db: c.var.db, stripe: createStripe(c.var.config), mail: mailContextOf(c) }, event);
    return c.json({ received: true, outcome });
  },
);
