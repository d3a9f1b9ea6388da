import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { createdAt, id, updatedAt } from './columns';
import { userRef } from './users';

import { PAYMENT_METHODS } from '../../domain/finance';
import { GIFT_AID_DECLARATION_METHODS } from '../../domain/gift-aid';
import { DONATION_SOURCES, DONATION_STATUSES, DONATION_TYPES, ONLINE_PAYMENT_METHODS } from '../../domain/statuses';

export { DONATION_STATUSES, DONATION_TYPES, type DonationStatus, type DonationType } from '../../domain/statuses';

export const giftAidDeclarations = sqliteTable(
  'gift_aid_declarations',
  {
    id: id(),
    donorId: userRef('donor_id').notNull(),
    /** Whole name and address as first captured; the HMRC fields below are the ones claims use. */
    fullName: text('full_name').notNull(),
    homeAddress: text('home_address').notNull(),
    postcode: text('postcode').notNull(),
    /** The exact wording the donor accepted. */
    declarationText: text('declaration_text').notNull(),
    createdAt: createdAt(),
    // HMRC schedule fields (domain/gift-aid.ts limits): kept here, apart from users, so erasing a donor leaves them.
    title: text('title'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    house: text('house').notNull().default(''),
    /** The rest of the address after the house name or number. */
    address: text('address').notNull().default(''),
    method: text('method', { enum: GIFT_AID_DECLARATION_METHODS }).notNull().default('online'),
    /** The charity it was made to (the wording names it); null for the platform's own charity and migrated rows. */
    organizationId: text('organization_id'),
    coversPast: integer('covers_past', { mode: 'boolean' }).notNull().default(true),
    coversFuture: integer('covers_future', { mode: 'boolean' }).notNull().default(true),
    /** When the donor made it (an offline declaration can predate its recording). */
    declaredAt: integer('declared_at', { mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
    /** Set when the donor cancels: gifts after this instant are no longer eligible. */
    cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
    /** 1, 2, …: a new address makes a new version; gifts keep the version they were given under. */
    version: integer('version').notNull().default(1),
    replacedBy: text('replaced_by'),
    recordedBy: text('recorded_by'),
    /** Migrated from a one-line name/address that could not be split with certainty. */
    needsReview: integer('needs_review', { mode: 'boolean' }).notNull().default(false),
    /** An oral declaration counts only from when its written confirmation was sent. */
    confirmationSentAt: integer('confirmation_sent_at', { mode: 'timestamp_ms' }),
    /** Lives outside the UK: the schedule shows postcode X and the address in the house field. */
    overseas: integer('overseas', { mode: 'boolean' }).notNull().default(false),
    /**
     * Made in the donation box for this gift: no account sees or uses it until the payment succeeds,
     * and then only when the checkout was the account owner's own; a guest's stays held with its
     * gift and the renewals that name it (decision 077).
     */
    pendingDonationId: text('pending_donation_id'),
  },
  (t) => [
    index('gift_aid_declarations_donor_idx').on(t.donorId),
    index('gift_aid_declarations_review_idx').on(t.needsReview),
    index('gift_aid_declarations_pending_idx').on(t.pendingDonationId),
  ],
);

export const donations = sqliteTable(
  'donations',
  {
    id: id(),
    /** Amount in pence, always taken from the payment provider for card payments. */
    amount: integer('amount').notNull(),
    donorId: userRef('donor_id').notNull(),
    campaignId: campaignRef('campaign_id').notNull(),
    appealId: campaignRef('appeal_id'),
    date: integer('date', { mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
    status: text('status', { enum: DONATION_STATUSES }).notNull().default('pending'),
    type: text('type', { enum: DONATION_TYPES }).notNull().default('once'),
    giftAid: integer('gift_aid', { mode: 'boolean' }).notNull().default(false),
    giftAidDeclarationId: text('gift_aid_declaration_id').references(() => giftAidDeclarations.id),
    /** Payment references: a one-off gift has a PaymentIntent, a monthly gift one invoice per month. */
    paymentIntentId: text('payment_intent_id'),
    invoiceId: text('invoice_id'),
    subscriptionId: text('subscription_id'),
    /** Pence refunded so far; totals count amount - refunded_amount. */
    refundedAmount: integer('refunded_amount').notNull().default(0),
    failureMessage: text('failure_message'),
    /** Donations entered by an admin in the dashboard rather than paid by card. */
    source: text('source', { enum: DONATION_SOURCES }).notNull().default('card'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Stripe `created` (seconds) of the refund event refunded_amount came from: an older event never overwrites a newer one. */
    refundsAsOf: integer('refunds_as_of').notNull().default(0),
    /** How it was paid (domain/finance.ts); null on rows from before methods were recorded (card or demo). */
    method: text('method', { enum: PAYMENT_METHODS }),
    /** The offline batch it was banked in. */
    batchId: text('batch_id'),
    /** Cheque number, voucher number or bank reference of an offline gift. */
    reference: text('reference'),
    /** Provider's fee and what reached the charity, pence (Stripe's balance transaction; the /fees rate in demo mode). */
    feePence: integer('fee_pence'),
    netPence: integer('net_pence'),
    balanceTransactionId: text('balance_transaction_id'),
    payoutId: text('payout_id'),
    /** The donor received a benefit above HMRC's limits: never eligible for Gift Aid. */
    benefitExceedsLimit: integer('benefit_exceeds_limit', { mode: 'boolean' }).notNull().default(false),
    /** The Gift Aid Small Donations Scheme claim that counted this small cash gift. */
    gasdsClaimId: text('gasds_claim_id'),
    receiptSentAt: integer('receipt_sent_at', { mode: 'timestamp_ms' }),
    paymentMethod: text('payment_method', { enum: ONLINE_PAYMENT_METHODS }).notNull().default('card'),
    /** Direct Debit: the last four digits of the donor's bank account, and the Bacs mandate (Stripe's id). */
    bankLast4: text('bank_last4'),
    mandateId: text('mandate_id'),
    /**
     * Given in its donor's own checkout: signed in as them, or the checkout that created the account
     * (a renewal follows its first payment). Only then did the account's owner choose whether to be
     * named, so only then do public pages show the account's name (migration 0030, decision 077).
     */
    ownCheckout: integer('own_checkout', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    uniqueIndex('donations_payment_intent_unique').on(t.paymentIntentId),
    uniqueIndex('donations_invoice_unique').on(t.invoiceId),
    index('donations_subscription_idx').on(t.subscriptionId),
    // Covering indexes: the totals subqueries (sum of amount - refunded_amount by status) read no rows.
    index('donations_campaign_totals_idx').on(t.campaignId, t.status, t.amount, t.refundedAmount),
    index('donations_appeal_totals_idx').on(t.appealId, t.status, t.amount, t.refundedAmount),
    index('donations_donor_idx').on(t.donorId, t.date),
    index('donations_date_idx').on(t.date),
    // Covering index for the dashboard's charts: one range scan over a year of paid gifts reads no rows.
    index('donations_insight_idx').on(
      t.status,
      t.date,
      t.type,
      t.amount,
      t.refundedAmount,
      t.campaignId,
      t.donorId,
      t.giftAid,
    ),
    index('donations_gift_aid_idx').on(t.giftAid, t.status, t.date),
    // Housekeeping finds stale pending checkouts and old abandoned ones without a scan.
    index('donations_status_created_idx').on(t.status, t.createdAt),
    index('donations_batch_idx').on(t.batchId),
    index('donations_payout_idx').on(t.payoutId),
    // Housekeeping settles demo Direct Debits still processing.
    index('donations_status_method_idx').on(t.status, t.paymentMethod),
  ],
);

/**
 * What the donation box collected for one gift that belongs to the person, not the payment: the
 * name typed, and the "Keep me updated" tick. Applied to the account only when the payment
 * succeeds, and the consent only to an account this checkout created or its signed-in owner.
 */
export const checkoutDetails = sqliteTable('checkout_details', {
  donationId: text('donation_id')
    .primaryKey()
    .references(() => donations.id, { onDelete: 'cascade' }),
  firstName: text('first_name'),
  lastName: text('last_name'),
  marketingConsent: integer('marketing_consent', { mode: 'boolean' }).notNull().default(false),
  /** True when the checkout was the signed-in owner's or created the account: then a paid gift records the consent on it. */
  consentToAccount: integer('consent_to_account', { mode: 'boolean' }).notNull().default(false),
  /** When a paid gift applied it: once, so a renewal never re-adds a consent the donor withdrew. */
  appliedAt: integer('applied_at', { mode: 'timestamp_ms' }),
  createdAt: createdAt(),
});

/** Bacs Direct Debit mandates (Stripe's `mandate` objects): a monthly gift stops when its mandate becomes inactive. */
export const directDebitMandates = sqliteTable('direct_debit_mandates', {
  id: text('id').primaryKey(),
  /** The mandate reference the donor's bank shows, printed on receipts. */
  reference: text('reference'),
  status: text('status', { enum: ['pending', 'active', 'inactive'] })
    .notNull()
    .default('pending'),
  donorId: text('donor_id'),
  bankLast4: text('bank_last4'),
  /** Stripe `created` (seconds) of the newest mandate event applied: an older one changes nothing. */
  statusAsOf: integer('status_as_of').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Monthly plans offered in the donation box (Stripe Prices, mirrored locally). */
export const prices = sqliteTable(
  'prices',
  {
    id: text('id').primaryKey(),
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency').notNull().default('gbp'),
    interval: text('interval', { enum: ['month'] })
      .notNull()
      .default('month'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('prices_amount_idx').on(t.active, t.unitAmount)],
);

/** Stripe event ids already applied; the primary key makes a replay a no-op. */
export const webhookEvents = sqliteTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: createdAt(),
});
