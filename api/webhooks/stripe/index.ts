import { z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type Stripe from 'stripe';
import { createRouter, errorBody } from '../../lib/create-app';
import { badRequest, HttpError } from '../../lib/errors';
import { defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { verifyStripeEvent, WebhookTimestampError } from '../../services/payments/stripe-client';
import { mailContextOf } from '../../services/mail/context';
import { afterAnswerOf } from '../../lib/after-answer';
import { inTurn } from '../../lib/in-turn';
import { isDatabaseUnavailable } from '../../lib/unavailable';
import { logLine } from '../../middlewares/logger';
import { applyStripeEvent, type EventOutcome } from './apply';
import type { WebhookContext } from './types';

export { applyStripeEvent, type EventOutcome, STRIPE_EVENT_HANDLERS } from './apply';
export type { WebhookContext };
export { mailContextOf };

/** Stripe events (an invoice with many lines) can pass the API's 100 KB default. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const ReceivedSchema = z
  .object({ received: z.literal(true), outcome: z.enum(['recorded', 'duplicate', 'ignored']) })
  .openapi('WebhookReceived');

const webhookRoute = defineRoute({
  method: 'post',
  path: '/stripe/webhook',
  tags: ['Payments'],
  summary: 'Stripe events (signed with STRIPE_WEBHOOK_SECRET)',
  description:
    'The raw body is verified against the Stripe-Signature header before it is parsed, so the body is not validated as JSON here. ' +
    'Handled: payment_intent.succeeded, payment_intent.processing, payment_intent.payment_failed, mandate.updated, invoice.paid, invoice.payment_failed, charge.refunded, refund.created, refund.updated, refund.failed, charge.dispute.created, charge.dispute.updated, charge.dispute.closed, customer.subscription.updated, customer.subscription.deleted, payout.paid, payout.failed; others are acknowledged and ignored. ' +
    'Succeeded gifts send one receipt each, refunds a refund notice, failed renewals a card-update email, subscription changes a confirmation.',
  middleware: [
    bodyLimit({
      maxSize: WEBHOOK_BODY_LIMIT,
      onError: (c) => c.json(errorBody(413, 'Webhook payload is too large (limit 1 MB)'), 413),
    }),
  ],
  request: {
    headers: z.object({
      'stripe-signature': z.string().optional().openapi({ description: 'Stripe’s signature of the raw body' }),
    }),
  },
  responses: {
    200: jsonContent(ReceivedSchema, 'Applied once, a replay, or an event we do not act on'),
    ...errorResponses,
  },
});

/**
 * Events applied at once per isolate; the rest wait their turn (Stripe's own deliveries and a
 * telethon's storm of them). The database records one write at a time, so more in flight only
 * take the isolate's turns from the visitors it serves meanwhile (docs/decisions/041).
 */
export const WEBHOOKS_AT_ONCE = 4;
const recording = inTurn(WEBHOOKS_AT_ONCE);

export const stripeWebhookRouter = createRouter().openapi(webhookRoute, async (c) => {
  const secret = c.var.config.stripeWebhookSecret;
  if (!secret) throw new HttpError(503, 'Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET');
  const signature = c.req.header('stripe-signature');
  if (!signature) throw badRequest('Missing Stripe-Signature header');
  // Verify the exact bytes Stripe signed, before any parsing.
  const rawBody = await c.req.text();
  let event: Stripe.Event;
  try {
    event = await verifyStripeEvent(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof WebhookTimestampError)
      throw badRequest('Stripe signature verification failed: its timestamp is more than 5 minutes ahead of our clock');
    throw badRequest('Stripe signature verification failed (wrong secret, altered body or stale timestamp)');
  }
  let outcome: EventOutcome;
  try {
    outcome = await recording.run(() =>
      applyStripeEvent(
        {
          db: c.var.db,
          stripe: c.var.payments.api,
          mail: mailContextOf(c),
          payments: c.var.payments,
          afterAnswer: afterAnswerOf(c),
        } satisfies WebhookContext,
        event,
      ),
    );
  } catch (error) {
    // Nothing was recorded (the event's writes and its id go in one batch): a 500 makes Stripe
    // send it again later, and the retry records it exactly once.
    if (isDatabaseUnavailable(error)) {
      logLine('error', 'stripe event not recorded: database unavailable', {
        request_id: c.var.requestId,
        event_id: event.id,
      });
      throw new HttpError(
        500,
        `The database is unavailable; this event was not recorded and Stripe will retry it. Reference: ${c.var.requestId}`,
      );
    }
    throw error;
  }
  return c.json({ received: true as const, outcome }, 200);
});
