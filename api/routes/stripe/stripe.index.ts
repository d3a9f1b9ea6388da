import type { Context } from 'hono';
import type Stripe from 'stripe';
import { z } from 'zod';
import { createRouter, errorBody } from '../../lib/create-app';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import type { AppEnv } from '../../lib/types';
import { readJson } from '../../lib/validate';
import {
  createGiftAidDeclaration,
  findLocalPrice,
  findDonorById,
  findOrCreateDonor,
  insertPendingDonation,
  listLocalPrices,
  parseGiftAid,
  type PendingDonation,
  resolveDonationTarget,
  saveStripeCustomerId,
  toMetadata,
  type Donor,
} from '../../services/donations';
import { findDonationByPaymentIntent } from '../../services/donations-record';
import { CHECKOUT_LIMITS, enforceRateLimits, RateLimitError } from '../../services/rate-limit';
import { EMAIL_PATTERN, MAX_DONATION_PENCE, MIN_DONATION_PENCE } from '../../../domain';
import { createStripe, intentIdFromClientSecret } from '../../services/stripe';
import { demoClientSecret, demoFailureEvent, demoSuccessEvent, newDemoId, verifyDemoClientSecret, DEMO_DECLINE_MESSAGE } from '../../services/stripe-demo';
import { applyStripeEvent } from '../../webhooks/stripe';
import { createMailer } from '../../services/mailer';
import { saveSupportChoices, supportMessageShape } from '../../services/support-messages';

const AMOUNT_HINT = 'a whole number of pence, e.g. 500 for £5';

export const clientSecretBody = z
  .object({
    email: z.string().trim().max(254, 'email: too long').optional(),
    amount: z
      .number({ error: `amount: must be ${AMOUNT_HINT}` })
      .int(`amount: must be whole pence, ${AMOUNT_HINT}`)
      .min(MIN_DONATION_PENCE, 'amount: the minimum donation is £1 (100 pence)')
      .max(MAX_DONATION_PENCE, 'amount: the maximum donation is £25,000 (2500000 pence)')
      .optional(),
    price: z.string({ error: 'price: must be a monthly price id' }).trim().min(1).max(255).optional(),
    campaign_id: z.string({ error: 'campaign_id: required' }).trim().min(1, 'campaign_id: required').max(64),
    appeal_id: z.string().trim().max(64).nullable().optional(),
    giftAid: z.boolean({ error: 'giftAid: must be true or false' }).optional(),
    gift_aid: z
      .object({
        full_name: z.string().trim().min(2, 'gift_aid.full_name: enter your full name').max(200),
        home_address: z.string().trim().min(5, 'gift_aid.home_address: enter your home address').max(500),
        postcode: z.string().trim().min(5, 'gift_aid.postcode: enter a UK postcode, for example SW1A 1AA').max(16),
        declaration: z.string().max(2000).optional(),
      })
      .nullable()
      .optional(),
    ...supportMessageShape,
  })
  .superRefine((body, ctx) => {
    if (body.amount === undefined && body.price === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Enter an amount (one-off) or choose a monthly price' });
    }
    if (body.amount !== undefined && body.price !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'Send either amount (one-off) or price (monthly), not both' });
    }
    if (body.giftAid && !body.gift_aid) {
      ctx.addIssue({ code: 'custom', path: ['gift_aid'], message: 'full name, home address and postcode are needed for Gift Aid' });
    }
  });

const demoConfirmBody = z.object({
  clientSecret: z.string({ error: 'clientSecret: required' }).min(10).max(300),
  card: z.enum(['success', 'decline']).optional(),
});

/**
 * Per email always; per address only behind Cloudflare (cf-connecting-ip), since local servers
 * and tests have no client address to tell callers apart.
 */
async function throttleCheckout(c: Context<AppEnv>, email: string) {
  const ip = c.req.header('cf-connecting-ip')?.trim().slice(0, 64);
  const checks = [{ key: `checkout:email:${email}`, rule: CHECKOUT_LIMITS.perEmail }];
  if (ip) checks.push({ key: `checkout:ip:${ip}`, rule: CHECKOUT_LIMITS.perIp });
  try {
    await enforceRateLimits(c.var.db, checks, new Date(), (wait) =>
      `Too many donation attempts. Please wait ${wait} minute${wait === 1 ? '' : 's'} and try again.`,
    );
  } catch (err) {
    if (err instanceof RateLimitError) c.header('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

const paymentsNotConfigured = () => new HttpError(503, 'Card payments are not configured');

function providerError(error: unknown): HttpError {
  console.error('[stripe] request failed:', (error as Error)?.message ?? error);
  return new HttpError(502, 'Our payment provider could not start this payment. Please try again in a moment.');
}

async function ensureCustomer(stripe: Stripe, db: Parameters<typeof saveStripeCustomerId>[0], donor: Donor): Promise<string> {
  if (donor.stripeCustomerId) return donor.stripeCustomerId;
  const customer = await stripe.customers.create({ email: donor.email, metadata: { donor_id: donor.id } }, { idempotencyKey: `customer-${donor.id}` });
  return saveStripeCustomerId(db, donor.id, customer.id);
}

export const stripeRouter = createRouter()
  // The offered plans are the active rows of the local prices table in both modes (README: the
  // Stripe Prices we sell are mirrored there), so no other Price in the Stripe account can be used.
  .get('/stripe/subscriptions', async (c) => c.json(await listLocalPrices(c.var.db)))
  .post('/stripe/client_secret', async (c) => {
    if (c.var.config.production && !c.var.config.stripeSecretKey) throw paymentsNotConfigured();
    const body = await readJson(c, clientSecretBody);
    const db = c.var.db;
    const signedIn = c.var.user;
    const email = signedIn?.email ?? body.email?.toLowerCase();
    if (!email || !EMAIL_PATTERN.test(email)) throw badRequest('email: enter a valid email address, like name@example.com');
    await throttleCheckout(c, email);

    // Validate everything before anything is stored or sent to Stripe.
    const target = await resolveDonationTarget(db, body.campaign_id, body.appeal_id);
    const stripe = createStripe(c.var.config);
    const monthly = body.price !== undefined;
    let amount = body.amount ?? 0;
    let priceId = '';
    if (monthly) {
      const price = await findLocalPrice(db, body.price!);
      if (!price) throw badRequest('price: unknown monthly price; choose one of the amounts offered');
      amount = price.unit_amount;
      priceId = price.id;
    }

    const giftAid = body.giftAid && body.gift_aid ? parseGiftAid(body.gift_aid) : null;

    const donor = (signedIn && (await findDonorById(db, signedIn.id))) || (await findOrCreateDonor(db, email));
    const declarationId = giftAid ? await createGiftAidDeclaration(db, donor.id, giftAid) : null;
    const pending: PendingDonation = {
      id: crypto.randomUUID(),
      amount,
      donorId: donor.id,
      target,
      type: monthly ? 'monthly' : 'once',
      giftAidDeclarationId: declarationId,
      paymentIntentId: null,
      invoiceId: null,
      subscriptionId: null,
      source: stripe ? 'card' : 'demo',
    };
    let clientSecret: string;

    if (!stripe) {
      pending.paymentIntentId = newDemoId('pi');
      if (monthly) {
        pending.invoiceId = newDemoId('in');
        pending.subscriptionId = newDemoId('sub');
      }
      clientSecret = await demoClientSecret(c.var.config.authSecret, pending.paymentIntentId);
    } else {
      // The donation id makes the key: an SDK retry of the same request cannot charge twice.
      const idempotencyKey = `donation-${pending.id}`;
      const metadata = toMetadata(pending);
      try {
        const customer = await ensureCustomer(stripe, db, donor);
        if (monthly) {
          const subscription = await stripe.subscriptions.create(
            {
              customer,
              items: [{ price: priceId }],
              payment_behavior: 'default_incomplete',
              payment_settings: { save_default_payment_method: 'on_subscription' },
              metadata,
              expand: ['latest_invoice.confirmation_secret'],
            },
            { idempotencyKey },
          );
          const invoice = subscription.latest_invoice as Stripe.Invoice | null;
          clientSecret = invoice?.confirmation_secret?.client_secret ?? '';
          pending.subscriptionId = subscription.id;
          pending.invoiceId = invoice?.id ?? null;
          pending.paymentIntentId = intentIdFromClientSecret(clientSecret);
        } else {
          const intent = await stripe.paymentIntents.create(
            {
              amount,
              currency: 'gbp',
              customer,
              receipt_email: donor.email,
              automatic_payment_methods: { enabled: true },
              description: 'Donation to UK NFP',
              metadata,
            },
            { idempotencyKey },
          );
          clientSecret = intent.client_secret ?? '';
          pending.paymentIntentId = intent.id;
        }
      } catch (error) {
        throw providerError(error);
      }
      if (!clientSecret) throw providerError(new Error('Stripe returned no client secret'));
    }

    await insertPendingDonation(db, pending);
    await saveSupportChoices(db, pending.id, pending.target, body);
    return c.json({
      clientSecret,
      mode: stripe ? ('stripe' as const) : ('demo' as const),
      publishableKey: stripe ? c.var.config.stripePublishableKey : null,
      type: pending.type,
      amount,
    });
  })
  .post('/stripe/demo/confirm', async (c) => {
    if (c.var.config.stripeSecretKey) throw notFound('Demo payments are off: this server takes real payments through Stripe');
    if (c.var.config.production) throw notFound('Demo payments are off on a production server');
    const body = await readJson(c, demoConfirmBody);
    const intentId = await verifyDemoClientSecret(c.var.config.authSecret, body.clientSecret);
    if (!intentId) throw badRequest('clientSecret: this payment session is not valid; start the donation again');
    const row = await findDonationByPaymentIntent(c.var.db, intentId);
    if (!row) throw notFound('No donation is waiting for this payment; start the donation again');
    if (row.status === 'succeeded' || row.status === 'refunded') return c.json({ status: row.status });

    if (body.card === 'decline') {
      await applyStripeEvent({ db: c.var.db, stripe: null }, demoFailureEvent(row));
      return c.json(errorBody(402, DEMO_DECLINE_MESSAGE), 402);
    }
    // Like the webhook, a recorded gift to an appeal may email its fundraiser.
    const mailer = createMailer(c.var.db, c.var.config);
    await applyStripeEvent({ db: c.var.db, stripe: null, mailer, origin: c.var.config.publicOrigin ?? new URL(c.req.url).origin }, demoSuccessEvent(row));
    const settled = await findDonationByPaymentIntent(c.var.db, intentId);
    return c.json({ status: settled?.status ?? 'pending' });
  });
