import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { MONTHLY_GIFT_CANCELLED_BY, MONTHLY_GIFT_STATUSES } from '../../domain/monthly-gifts';
import { ONLINE_PAYMENT_METHODS } from '../../domain/statuses';
import { campaignRef } from './campaigns';
import { createdAt, updatedAt } from './columns';
import { userRef } from './users';

/**
 * One row per Stripe Subscription (or demo subscription): the donor's monthly gift as they control
 * it. Written only from subscription events and paid invoices (docs/decisions/019), never guessed.
 */
export const monthlyGifts = sqliteTable(
  'monthly_gifts',
  {
    /** The Stripe Subscription id (sub_…), or sub_demo… in demo mode. */
    id: text('id').primaryKey(),
    donorId: userRef('donor_id').notNull(),
    campaignId: campaignRef('campaign_id').notNull(),
    appealId: campaignRef('appeal_id'),
    /** The donation row made when the gift started (its first invoice). */
    firstDonationId: text('first_donation_id'),
    priceId: text('price_id'),
    /** Pence per month. */
    amount: integer('amount').notNull(),
    status: text('status', { enum: MONTHLY_GIFT_STATUSES }).notNull().default('incomplete'),
    pauseResumesAt: integer('pause_resumes_at', { mode: 'timestamp_ms' }),
    nextPaymentAt: integer('next_payment_at', { mode: 'timestamp_ms' }),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }),
    cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
    cancelledBy: text('cancelled_by', { enum: MONTHLY_GIFT_CANCELLED_BY }),
    giftAidDeclarationId: text('gift_aid_declaration_id'),
    source: text('source', { enum: ['card', 'demo'] })
      .notNull()
      .default('card'),
    /** `created` (seconds) of the newest subscription event applied: older events change nothing. */
    lastEventAt: integer('last_event_at').notNull().default(0),
    /** The signed cancel link works once. */
    cancelLinkUsedAt: integer('cancel_link_used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    paymentMethod: text('payment_method', { enum: ONLINE_PAYMENT_METHODS }).notNull().default('card'),
    bankLast4: text('bank_last4'),
    mandateId: text('mandate_id'),
    /**
     * When its donor was told that the appeal or campaign it supports left the site (decision 070);
     * cleared once that is back, so a later take-down is told too.
     */
    itemDownToldAt: integer('item_down_told_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('monthly_gifts_donor_idx').on(t.donorId, t.status),
    index('monthly_gifts_campaign_idx').on(t.campaignId),
    index('monthly_gifts_mandate_idx').on(t.mandateId),
    // The told ones, found every five minutes to release those whose appeal is back (decision 070).
    index('monthly_gifts_item_down_idx').on(t.itemDownToldAt),
  ],
);
