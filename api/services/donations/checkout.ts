import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { campaigns } from '../../../db/schema';
import {
  accountHolderProblems,
  DEMO_ACCOUNT_FAILS,
  DEMO_ACCOUNT_SUCCEEDS,
  DEMO_SORT_CODE,
  DIRECT_DEBIT_CURRENCY,
  DIRECT_DEBIT_MAX_PENCE,
  isEmail,
  isStandInAddress,
  formatPence,
  MAX_DONATION_PENCE,
  MIN_DONATION_PENCE,
  normalizeUkPostcode,
  ONLINE_PAYMENT_METHODS,
} from '../../../domain';
import { badRequest, notFound } from '../../lib/errors';
import { applyStripeEvent } from '../../webhooks/stripe/apply';
import { errorSummary, logLine } from '../../middlewares/logger';
import { sendDirectDebitConfirmation } from '../mail/notify';
import { checkWording } from '../users/consent';
import { saveCheckoutDetails } from './checkout-details';
import { optionalPersonName } from '../../lib/fields';
import { charityForOrganization } from '../organizations/charity';
import {
  findDonorById,
  findLocalPrice,
  findOrCreateDonor,
  insertPendingDonation,
  type PendingDonation,
  resolveDonationTarget,
  saveStripeCustomerId,
} from './pending';
import { findDonationByPaymentIntent } from './record';
import { saveSupportChoices, supportMessageShape } from '../messages/support-messages';
import { createCheckoutDeclaration, prepareCheckoutGiftAid } from '../gift-aid/checkout';
import {
  CHALLENGE_THRESHOLDS,
  CHECKOUT_LIMITS,
  enforceRateLimits,
  hitRateLimit,
  knownIp,
  peekRateLimit,
} from '../abuse/rate-limit';
import { requireChallenge } from '../abuse/turnstile';
import type { DonationStatus, OnlinePaymentMethod } from '../../../domain';
import {
  DEMO_DECLINE_MESSAGE,
  demoFailureEvent,
  demoProcessingEvent,
  demoSuccessEvent,
  verifyDemoClientSecret,
} from '../payments/demo-events';
import type { ServiceContext } from '../../lib/service-context';

/**
 * Checkout: validates a gift, stores it as pending and asks the payment provider to open its
 * payment (a Stripe PaymentIntent or subscription, or a signed demo session).
 */

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
    // HMRC's schedule fields; their limits are checked by the one domain rule (prepareCheckoutGiftAid).
    gift_aid: z
      .object({
        title: z
          .string({ error: 'gift_aid.title: must be text' })
          .max(100, 'gift_aid.title: at most 4 characters')
          .nullish(),
        first_name: z
          .string({ error: 'gift_aid.first_name: enter your first name' })
          .max(200, 'gift_aid.first_name: at most 35 characters'),
        last_name: z
          .string({ error: 'gift_aid.last_name: enter your last name' })
          .max(200, 'gift_aid.last_name: at most 35 characters'),
        house: z
          .string({ error: 'gift_aid.house: enter your house name or number' })
          .max(200, 'gift_aid.house: at most 40 characters'),
        address: z
          .string({ error: 'gift_aid.address: must be text' })
          .max(400, 'gift_aid.address: at most 200 characters')
          .nullish(),
        postcode: z
          .string({ error: 'gift_aid.postcode: enter a UK postcode, for example SW1A 1AA' })
          .max(40, 'gift_aid.postcode: enter a UK postcode, for example SW1A 1AA'),
        declaration: z.string().max(2000).optional(),
      })
      .nullable()
      .optional(),
    /** The guest's name for the message, the receipt and an account that has none yet (applied when paid). */
    first_name: optionalPersonName('first_name'),
    last_name: optionalPersonName('last_name'),
    /** "Keep me updated by email": its own unticked box, never implied by the gift. */
    marketing_consent: z.boolean({ error: 'marketing_consent: must be true or false' }).optional(),
    consent_wording: z.string().max(2000).optional(),
    ...supportMessageShape,
    /** The Turnstile widget's token, sent back after a 428 asked for the security check. */
    turnstile_token: z.string({ error: 'turnstile_token must be text' }).max(2048).nullish(),
    /** Card (and wallets) or Bacs Direct Debit. */
    method: z.enum(ONLINE_PAYMENT_METHODS, { error: 'must be "card" or "bacs_debit"' }).optional(),
    /** Gifts are in pounds sterling; sent by clients that say so explicitly. */
    currency: z.string().max(10).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.amount === undefined && body.price === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Enter an amount (one-off) or choose a monthly price' });
    }
    if (body.amount !== undefined && body.price !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'Send either amount (one-off) or price (monthly), not both' });
    }
    if (body.currency !== undefined && body.currency.toLowerCase() !== DIRECT_DEBIT_CURRENCY) {
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: 'gifts are taken in pounds sterling only; send "gbp"',
      });
    }
    if (body.method === 'bacs_debit' && body.amount !== undefined && body.amount > DIRECT_DEBIT_MAX_PENCE) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `a Direct Debit can be at most ${formatPence(DIRECT_DEBIT_MAX_PENCE)}; give a larger amount by card`,
      });
    }
    if (body.giftAid && !body.gift_aid) {
      ctx.addIssue({
        code: 'custom',
        path: ['gift_aid'],
        message: 'first and last name, house name or number and postcode are needed for Gift Aid',
      });
    }
  });
export type CheckoutInput = z.infer<typeof clientSecretBody>;

const holderText = (field: string) => z.string({ error: `${field}: must be text` }).max(1000, `${field}: too long`);

/**
 * The account holder Stripe's Bacs mandate needs (billing_details: name and address; the email is the
 * donor's), in Stripe's shape and checked by the one rule of domain/direct-debit.ts.
 */
const accountHolderBody = z
  .object(
    {
      name: holderText('name'),
      address: z.object(
        {
          line1: holderText('line1'),
          line2: holderText('line2').nullish(),
          city: holderText('city'),
          postal_code: holderText('postal_code'),
        },
        { error: 'address: enter the account holder’s address (line1, city, postal_code)' },
      ),
    },
    { error: 'bacs_debit.billing_details: enter the account holder’s name and address' },
  )
  .superRefine((v, ctx) => {
    const problems = accountHolderProblems({
      name: v.name,
      line1: v.address.line1,
      line2: v.address.line2 ?? undefined,
      city: v.address.city,
      postcode: v.address.postal_code,
    });
    const paths = {
      name: ['name'],
      line1: ['address', 'line1'],
      line2: ['address', 'line2'],
      city: ['address', 'city'],
      postcode: ['address', 'postal_code'],
    } as const;
    for (const [field, message] of Object.entries(problems))
      ctx.addIssue({ code: 'custom', path: [...paths[field as keyof typeof paths]], message });
  })
  .transform((v) => ({
    name: v.name.trim(),
    address: {
      line1: v.address.line1.trim(),
      line2: v.address.line2?.trim() || null,
      city: v.address.city.trim(),
      postal_code: normalizeUkPostcode(v.address.postal_code) ?? v.address.postal_code.trim(),
      country: 'GB' as const,
    },
  }));
export type AccountHolderDetails = z.infer<typeof accountHolderBody>;

export const demoConfirmBody = z.object({
  clientSecret: z.string({ error: 'clientSecret: required' }).min(10).max(300),
  card: z.enum(['success', 'decline']).optional(),
  /** The demo Direct Debit step: Stripe's test sort code and one of its test account numbers. */
  bacs_debit: z
    .object({
      sort_code: z
        .string()
        .trim()
        .transform((v) => v.replace(/[\s-]/g, ''))
        .pipe(z.literal(DEMO_SORT_CODE, { error: `bacs_debit.sort_code: use the test sort code ${DEMO_SORT_CODE}` })),
      account_number: z.enum([DEMO_ACCOUNT_SUCCEEDS, DEMO_ACCOUNT_FAILS], {
        error: `bacs_debit.account_number: use the test account ${DEMO_ACCOUNT_SUCCEEDS} (succeeds) or ${DEMO_ACCOUNT_FAILS} (fails)`,
      }),
      billing_details: accountHolderBody,
    })
    .optional(),
});
export type DemoConfirmInput = z.infer<typeof demoConfirmBody>;

export type CheckoutCtx = Pick<ServiceContext, 'db' | 'config' | 'payments' | 'viewer' | 'ip' | 'now'>;

export type CheckoutSession = {
  clientSecret: string;
  mode: 'stripe' | 'demo';
  publishableKey: string | null;
  type: 'once' | 'monthly';
  amount: number;
  method: OnlinePaymentMethod;
};

/**
 * Per email always; per address only behind Cloudflare (cf-connecting-ip), since local servers
 * and tests have no client address to tell callers apart. Past a lower per-address threshold the
 * caller must pass a Turnstile check, so rotating emails from one address stops being free.
 */
async function throttleCheckout(ctx: CheckoutCtx, email: string, turnstileToken: string | null | undefined) {
  const { db, ip, now } = ctx;
  const checks = [{ key: `checkout:email:${email}`, rule: CHECKOUT_LIMITS.perEmail }];
  if (ip) checks.push({ key: `checkout:ip:${ip}`, rule: CHECKOUT_LIMITS.perIp });
  await enforceRateLimits(
    db,
    checks,
    now,
    (wait) => `Too many donation attempts. Please wait ${wait} minute${wait === 1 ? '' : 's'} and try again.`,
  );
  const fromIp =
    ip && knownIp(ip) ? await peekRateLimit(db, `checkout:ip:${ip}`, CHALLENGE_THRESHOLDS.checkoutPerIp, now) : 0;
  // Rotating addresses stay under any per-address count: past a site-wide rate of anonymous
  // checkouts, every anonymous donor is asked for the (quick, human-friendly) check.
  const siteWide = ctx.viewer
    ? null
    : await hitRateLimit(db, 'challenge:checkout-anonymous', CHALLENGE_THRESHOLDS.anonymousCheckouts, now);
  if (
    fromIp > CHALLENGE_THRESHOLDS.checkoutPerIp.limit ||
    (siteWide && siteWide.count > CHALLENGE_THRESHOLDS.anonymousCheckouts.limit)
  ) {
    await requireChallenge(ctx.config, turnstileToken, ip ?? null);
  }
}

/** "Donation to Wells for Hope (registered charity 1234567)": the charity that receives the gift. */
export function paymentDescription(charity: { name: string; number: string | null }): string {
  return charity.number
    ? `Donation to ${charity.name} (registered charity ${charity.number})`
    : `Donation to ${charity.name}`;
}

async function receivingCharity(ctx: CheckoutCtx, campaignId: string) {
  const [row] = await ctx.db
    .select({ organizationId: campaigns.organizationId })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  return charityForOrganization(ctx.db, ctx.config, row?.organizationId ?? null);
}

export async function startCheckout(ctx: CheckoutCtx, body: CheckoutInput): Promise<CheckoutSession> {
  const { db, config } = ctx;
  ctx.payments.assertReady();
  const email = ctx.viewer?.email ?? body.email?.toLowerCase();
  // A stand-in address belongs to a donor the office keeps (decision 081): nobody's to give as.
  if (!email || !isEmail(email) || isStandInAddress(email))
    throw badRequest('email: enter a valid email address, like name@example.com');
  await throttleCheckout(ctx, email, body.turnstile_token);

  // Validate everything before anything is stored or sent to Stripe.
  const target = await resolveDonationTarget(db, body.campaign_id, body.appeal_id, ctx.now);
  const charity = await receivingCharity(ctx, target.campaignId);
  const monthly = body.price !== undefined;
  let amount = body.amount ?? 0;
  let priceId = '';
  if (monthly) {
    const price = await findLocalPrice(db, body.price!);
    if (!price) throw badRequest('price: unknown monthly price; choose one of the amounts offered');
    amount = price.unit_amount;
    priceId = price.id;
  }

  const giftAid =
    body.giftAid && body.gift_aid ? await prepareCheckoutGiftAid(db, config, target.campaignId, body.gift_aid) : null;
  if (body.marketing_consent) checkWording(body.consent_wording);

  const own = ctx.viewer ? await findDonorById(db, ctx.viewer.id) : null;
  const donor = own ?? (await findOrCreateDonor(db, email));
  // The account's owner chose here whether to be named: signed in as them, or this checkout made the account.
  const ownCheckout = own !== null || donor.created === true;
  const donationId = crypto.randomUUID();
  // Held with the gift, not the account, until it is paid: the email may be someone else's.
  const declarationId = giftAid ? await createCheckoutDeclaration(db, donor.id, donationId, giftAid) : null;
  const pending: PendingDonation = {
    id: donationId,
    amount,
    donorId: donor.id,
    target,
    type: monthly ? 'monthly' : 'once',
    giftAidDeclarationId: declarationId,
    paymentIntentId: null,
    invoiceId: null,
    subscriptionId: null,
    source: ctx.payments.source,
    method: body.method ?? 'card',
    ownCheckout,
  };
  const opened = await ctx.payments.openPayment(
    {
      pending,
      donor,
      priceId: monthly ? priceId : null,
      description: paymentDescription(charity),
      statementName: charity.name,
    },
    (customerId) => saveStripeCustomerId(db, donor.id, customerId),
  );
  pending.paymentIntentId = opened.paymentIntentId;
  pending.invoiceId = opened.invoiceId;
  pending.subscriptionId = opened.subscriptionId;

  await insertPendingDonation(db, pending);
  await saveSupportChoices(db, pending.id, pending.target, body);
  // A guest's name comes from the box, or else the Gift Aid declaration's.
  const named =
    body.first_name || body.last_name
      ? body
      : giftAid
        ? { first_name: giftAid.details.firstName, last_name: giftAid.details.lastName }
        : {};
  await saveCheckoutDetails(db, pending.id, {
    firstName: ctx.viewer ? null : (named.first_name ?? null),
    lastName: ctx.viewer ? null : (named.last_name ?? null),
    marketingConsent: body.marketing_consent === true,
    // A guest checkout never switches on consent for an account that existed before it.
    consentToAccount: ownCheckout,
  });
  return {
    clientSecret: opened.clientSecret,
    mode: ctx.payments.mode,
    publishableKey: ctx.payments.publishableKey,
    type: pending.type,
    amount,
    method: pending.method ?? 'card',
  };
}

export type DemoOutcome = { status: DonationStatus } | { declined: string };

/** Demo mode only: settles a demo session as Stripe would, through the same event handlers. */
export async function confirmDemoPayment(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'payments'> & Partial<Pick<ServiceContext, 'mail'>>,
  body: DemoConfirmInput,
): Promise<DemoOutcome> {
  if (!ctx.payments.confirmsDemoPayments)
    throw notFound('Demo payments are off: this server takes real payments through Stripe');
  if (ctx.config.production) throw notFound('Demo payments are off on a production server');
  const intentId = await verifyDemoClientSecret(ctx.config.authSecret, body.clientSecret);
  if (!intentId) throw badRequest('clientSecret: this payment session is not valid; start the donation again');
  const row = await findDonationByPaymentIntent(ctx.db, intentId);
  if (!row) throw notFound('No donation is waiting for this payment; start the donation again');
  if (row.status === 'succeeded' || row.status === 'refunded') return { status: row.status };

  if (row.paymentMethod === 'bacs_debit') {
    // The demo Direct Debit: Bacs takes it at once (processing); housekeeping settles it later.
    if (!body.bacs_debit)
      throw badRequest(
        'bacs_debit: enter the test sort code and account number, and the account holder’s name and address, for this Direct Debit',
      );
    if (row.status === 'pending') {
      const bank = {
        sortCode: body.bacs_debit.sort_code,
        accountNumber: body.bacs_debit.account_number,
        fails: body.bacs_debit.account_number === DEMO_ACCOUNT_FAILS,
        holder: body.bacs_debit.billing_details,
      };
      await applyStripeEvent({ db: ctx.db, stripe: null, mail: ctx.mail }, demoProcessingEvent(row, bank));
      // Stripe emails the mandate's confirmation in live mode; here the demo does. The gift is recorded whatever the mail does.
      if (ctx.mail)
        await sendDirectDebitConfirmation(ctx.mail, row.id, bank).catch((err: unknown) =>
          logLine('warn', 'direct debit confirmation not sent', { donation_id: row.id, error: errorSummary(err) }),
        );
    }
    return { status: (await findDonationByPaymentIntent(ctx.db, intentId))?.status ?? 'pending' };
  }
  if (body.bacs_debit)
    throw badRequest('bacs_debit: this gift is paid by card; start a Direct Debit gift to use bank details');
  if (body.card === 'decline') {
    await applyStripeEvent({ db: ctx.db, stripe: null, mail: ctx.mail }, demoFailureEvent(row));
    return { declined: DEMO_DECLINE_MESSAGE };
  }
  await applyStripeEvent({ db: ctx.db, stripe: null, mail: ctx.mail }, demoSuccessEvent(row));
  const settled = await findDonationByPaymentIntent(ctx.db, intentId);
  return { status: settled?.status ?? 'pending' };
}
