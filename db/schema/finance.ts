import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, id, updatedAt } from './columns';
import { donations } from './donations';
import { organizations } from './organizations';

import {
  BATCH_METHODS,
  DISPUTE_STATUSES,
  PAYOUT_STATUSES,
  REVERSAL_KINDS,
  REVERSAL_REASONS,
  REVERSAL_STATUSES,
} from '../../domain/finance';

/**
 * The back office's ledger rows (docs/decisions/031). A gift's row is never edited into another
 * amount: what goes back is a reversal row linked to it, and donations.refunded_amount is the sum of
 * its succeeded reversal rows, written in the same batch (the running totals' triggers read it).
 */

/** Offline income banked together: posted once (idempotency key), reversed only line by line. */
export const donationBatches = sqliteTable(
  'donation_batches',
  {
    id: id(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    method: text('method', { enum: BATCH_METHODS }).notNull(),
    /** London day the money reached the bank (YYYY-MM-DD). */
    bankedOn: text('banked_on').notNull(),
    reference: text('reference'),
    /** Pence: the lines must add up to it. */
    expectedTotal: integer('expected_total').notNull(),
    giftCount: integer('gift_count').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('donation_batches_idempotency_unique').on(t.idempotencyKey),
    index('donation_batches_org_idx').on(t.organizationId, t.bankedOn),
  ],
);

/** Money taken back off a gift: a refund, a reversal of offline income, or a lost dispute. */
export const donationReversals = sqliteTable(
  'donation_reversals',
  {
    id: id(),
    donationId: text('donation_id')
      .notNull()
      .references(() => donations.id),
    kind: text('kind', { enum: REVERSAL_KINDS }).notNull(),
    /** Pence, positive: what this row takes back. */
    amount: integer('amount').notNull(),
    reason: text('reason', { enum: REVERSAL_REASONS }).notNull(),
    note: text('note'),
    status: text('status', { enum: REVERSAL_STATUSES }).notNull().default('pending'),
    /** re_… (Stripe Refund) or du_… (Stripe Dispute): a provider event is applied to one row only. */
    providerId: text('provider_id'),
    /** A staff request is made once: a retried request with the same key finds this row. */
    idempotencyKey: text('idempotency_key'),
    /** Stripe's balance transaction for the money leaving (its fee, if any), and the payout it fell in. */
    balanceTransactionId: text('balance_transaction_id'),
    feePence: integer('fee_pence'),
    payoutId: text('payout_id'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    succeededAt: integer('succeeded_at', { mode: 'timestamp_ms' }),
    updatedAt: updatedAt(),
    /**
     * When it failed or was cancelled. For a refund that had succeeded first, the accounts journal
     * posts the money's return on this day (decision 076).
     */
    failedAt: integer('failed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('donation_reversals_donation_idx').on(t.donationId, t.status),
    uniqueIndex('donation_reversals_provider_unique').on(t.providerId),
    uniqueIndex('donation_reversals_idempotency_unique').on(t.idempotencyKey),
    index('donation_reversals_succeeded_idx').on(t.status, t.succeededAt),
  ],
);

/** A card dispute (chargeback), as Stripe reports it; newer events win (event_created). */
export const donationDisputes = sqliteTable(
  'donation_disputes',
  {
    id: id(),
    donationId: text('donation_id')
      .notNull()
      .references(() => donations.id),
    /** du_… */
    providerId: text('provider_id').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull(),
    /** Stripe's dispute fee, pence (returned if the dispute is won). */
    feePence: integer('fee_pence').notNull().default(0),
    evidenceDueBy: integer('evidence_due_by', { mode: 'timestamp_ms' }),
    /** `won` or `lost` once closed. */
    outcome: text('outcome', { enum: ['won', 'lost'] }),
    /** `created` (seconds) of the newest event applied. */
    lastEventAt: integer('last_event_at').notNull().default(0),
    createdAt: createdAt(),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('donation_disputes_provider_unique').on(t.providerId),
    index('donation_disputes_donation_idx').on(t.donationId),
  ],
);

/** A transfer from Stripe to the charity's bank: its amount is what the bank statement shows. */
export const payouts = sqliteTable(
  'payouts',
  {
    /** po_… (or po_demo_… in demo mode). */
    id: text('id').primaryKey(),
    organizationId: text('organization_id'),
    /** Pence paid to the bank: the sum of the lines' net. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('gbp'),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull(),
    arrivalDate: integer('arrival_date', { mode: 'timestamp_ms' }).notNull(),
    failureMessage: text('failure_message'),
    /** Stripe's failure_code (e.g. account_closed) when the bank refused it. */
    failureCode: text('failure_code'),
    grossPence: integer('gross_pence').notNull().default(0),
    feePence: integer('fee_pence').notNull().default(0),
    refundPence: integer('refund_pence').notNull().default(0),
    lineCount: integer('line_count').notNull().default(0),
    lastEventAt: integer('last_event_at').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('payouts_arrival_idx').on(t.arrivalDate)],
);

/** One balance transaction in a payout: a charge, a refund, a dispute, a fee or an adjustment. */
export const payoutLines = sqliteTable(
  'payout_lines',
  {
    payoutId: text('payout_id')
      .notNull()
      .references(() => payouts.id),
    /** txn_… */
    balanceTransactionId: text('balance_transaction_id').notNull(),
    /** Stripe's type: charge, payment, refund, adjustment, stripe_fee, … */
    type: text('type').notNull(),
    /** ch_…, re_…, du_… */
    sourceId: text('source_id'),
    donationId: text('donation_id'),
    /** Pence: gross (negative for money out), fee, net. */
    amount: integer('amount').notNull(),
    fee: integer('fee').notNull().default(0),
    net: integer('net').notNull(),
    availableOn: integer('available_on', { mode: 'timestamp_ms' }),
  },
  (t) => [
    primaryKey({ columns: [t.payoutId, t.balanceTransactionId] }),
    index('payout_lines_donation_idx').on(t.donationId),
    index('payout_lines_source_idx').on(t.sourceId),
  ],
);

/**
 * When Stripe tries a failed monthly payment again (invoice.next_payment_attempt of its newest
 * invoice.payment_failed), for the office's failed-payments queue. A table of its own, keyed by the
 * invoice, so the positional monthly_gifts upserts keep their column count.
 */
export const invoiceRetries = sqliteTable(
  'invoice_retries',
  {
    invoiceId: text('invoice_id').primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    /** null: Stripe will not try again. */
    retryAt: integer('retry_at', { mode: 'timestamp_ms' }),
    /** `created` (seconds) of the event that set it: an older event changes nothing. */
    asOf: integer('as_of').notNull().default(0),
  },
  (t) => [index('invoice_retries_subscription_idx').on(t.subscriptionId)],
);
