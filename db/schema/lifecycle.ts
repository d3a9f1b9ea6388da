import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { createdAt, id, updatedAt } from './columns';
import { userRef } from './users';

import {
  CONSENT_SOURCES,
  ERASURE_OUTCOMES,
  MONTHLY_GIFT_CANCELLED_BY,
  MONTHLY_GIFT_STATUSES,
} from '../../domain/lifecycle';
import { ONLINE_PAYMENT_METHODS } from '../../domain/statuses';

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
  },
  (t) => [
    index('monthly_gifts_donor_idx').on(t.donorId, t.status),
    index('monthly_gifts_campaign_idx').on(t.campaignId),
    index('monthly_gifts_mandate_idx').on(t.mandateId),
  ],
);

/** "Keep me updated by email": the exact wording, when and where; withdrawing keeps the history. */
export const marketingConsents = sqliteTable(
  'marketing_consents',
  {
    id: id(),
    userId: userRef('user_id'),
    /** Blanked on erasure. */
    email: text('email'),
    wording: text('wording').notNull(),
    source: text('source', { enum: CONSENT_SOURCES }).notNull(),
    givenAt: integer('given_at', { mode: 'timestamp_ms' }).notNull(),
    withdrawnAt: integer('withdrawn_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('marketing_consents_user_idx').on(t.userId, t.givenAt),
    index('marketing_consents_given_idx').on(t.withdrawnAt, t.givenAt),
  ],
);

/** A donor's request to delete their account: confirmed by an emailed code, outcome kept for admins. */
export const erasureRequests = sqliteTable(
  'erasure_requests',
  {
    id: id(),
    userId: userRef('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    requestedAt: integer('requested_at', { mode: 'timestamp_ms' }).notNull(),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    outcome: text('outcome', { enum: ERASURE_OUTCOMES }).notNull().default('pending'),
    /** What was done or why not, for the admin's donor list. */
    detail: text('detail'),
  },
  (t) => [index('erasure_requests_user_idx').on(t.userId, t.requestedAt)],
);
