import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { campaigns } from './campaigns';
import { createdAt, id, updatedAt } from './columns';
import { users } from './users';

import { DONATION_SOURCES, DONATION_STATUSES, DONATION_TYPES } from '../../domain/statuses';

export { DONATION_STATUSES, DONATION_TYPES, type DonationStatus, type DonationType } from '../../domain/statuses';

export const giftAidDeclarations = sqliteTable(
  'gift_aid_declarations',
  {
    id: id(),
    donorId: text('donor_id')
      .notNull()
      .references(() => users.id),
    fullName: text('full_name').notNull(),
    homeAddress: text('home_address').notNull(),
    postcode: text('postcode').notNull(),
    /** The exact wording the donor accepted. */
    declarationText: text('declaration_text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('gift_aid_declarations_donor_idx').on(t.donorId)],
);

export const donations = sqliteTable(
  'donations',
  {
    id: id(),
    /** Amount in pence, always taken from the payment provider for card payments. */
    amount: integer('amount').notNull(),
    donorId: text('donor_id')
      .notNull()
      .references(() => users.id),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    appealId: text('appeal_id').references(() => campaigns.id),
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
    index('donations_insight_idx').on(t.status, t.date, t.type, t.amount, t.refundedAmount, t.campaignId, t.donorId, t.giftAid),
  ],
);

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
