import type Stripe from 'stripe';
import type { donations } from '../../db/schema';
import { intentIdFromClientSecret } from './stripe';
import { constantTimeEqual } from './auth';
import { cardDeclined, invoiceObject, paymentIntentObject, stripeEvent } from './stripe-objects';

/**
 * Demo payments mode (no STRIPE_SECRET_KEY): ids and client secrets shaped like Stripe's, and the
 * events Stripe would send (built from Stripe's fixtures, like the tests' events), so a demo gift
 * goes through the same recording path as a real one.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function newDemoId(prefix: 'pi' | 'in' | 'sub'): string {
  return `${prefix}_demo${hex(crypto.getRandomValues(new Uint8Array(12)))}`;
}

async function sign(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`demo-payment:${value}`)))).slice(0, 32);
}

/** A client secret only this server can mint: the intent id plus an HMAC of it. */
export async function demoClientSecret(secret: string, intentId: string): Promise<string> {
  return `${intentId}_secret_${await sign(secret, intentId)}`;
}

/** The intent id when the secret is one we issued, else null. */
export async function verifyDemoClientSecret(secret: string, clientSecret: string): Promise<string | null> {
  const intentId = intentIdFromClientSecret(clientSecret);
  if (!intentId?.startsWith('pi_demo')) return null;
  const expected = await demoClientSecret(secret, intentId);
  return constantTimeEqual(expected, clientSecret) ? intentId : null;
}

type DonationRow = typeof donations.$inferSelect;

/** The demo mode has no Stripe customer; its objects name this one. */
export const DEMO_CUSTOMER = 'cus_demo';

function metadataOf(row: DonationRow): Record<string, string> {
  return {
    kind: row.type === 'monthly' ? 'monthly' : 'one_off',
    donation_id: row.id,
    campaign_id: row.campaignId,
    appeal_id: row.appealId ?? '',
    donor_id: row.donorId,
    gift_aid_declaration_id: row.giftAidDeclarationId ?? '',
    source: 'demo',
  };
}

/** What Stripe sends when the demo card is accepted: a succeeded intent or a paid first invoice. */
export function demoSuccessEvent(row: DonationRow): Stripe.Event {
  const intentId = row.paymentIntentId!;
  if (row.type === 'monthly') {
    return stripeEvent(
      'invoice.paid',
      invoiceObject({
        id: row.invoiceId!,
        subscription: row.subscriptionId!,
        customer: DEMO_CUSTOMER,
        amount: row.amount,
        metadata: metadataOf(row),
        status: 'paid',
        first: true,
        paid_payment_intent: intentId,
      }),
      { id: `evt_demo_paid_${row.invoiceId}`, pending_webhooks: 0 },
    );
  }
  return stripeEvent('payment_intent.succeeded', paymentIntentObject({ id: intentId, amount: row.amount, status: 'succeeded', metadata: metadataOf(row), client_secret: null }), {
    id: `evt_demo_succeeded_${intentId}`,
    pending_webhooks: 0,
  });
}

export const DEMO_DECLINE_MESSAGE = 'Your card was declined. No money was taken; try another card.';

/**
 * What Stripe sends when the demo card is declined; each attempt is its own event. A monthly gift's
 * first payment fails as its first invoice (invoice.payment_failed), a one-off as its PaymentIntent.
 */
export function demoFailureEvent(row: DonationRow): Stripe.Event {
  const intentId = row.paymentIntentId!;
  const id = `evt_demo_failed_${crypto.randomUUID()}`;
  if (row.type === 'monthly') {
    return stripeEvent(
      'invoice.payment_failed',
      invoiceObject({ id: row.invoiceId!, subscription: row.subscriptionId!, customer: DEMO_CUSTOMER, amount: row.amount, metadata: metadataOf(row), status: 'open', first: true, attempted: true }),
      { id, pending_webhooks: 0 },
    );
  }
  return stripeEvent(
    'payment_intent.payment_failed',
    paymentIntentObject({
      id: intentId,
      amount: row.amount,
      status: 'requires_payment_method',
      metadata: metadataOf(row),
      client_secret: null,
      last_payment_error: cardDeclined(DEMO_DECLINE_MESSAGE),
    }),
    { id, pending_webhooks: 0 },
  );
}
