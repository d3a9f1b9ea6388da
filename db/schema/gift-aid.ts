import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id, updatedAt } from './columns';
import { donations, giftAidDeclarations } from './donations';
import { organizations } from './organizations';

import { GIFT_AID_CLAIM_STATUSES } from '../../domain/gift-aid';

/**
 * Gift Aid claims (docs/decisions/017). Every row here is an HMRC record kept for six years after
 * the claim's accounting period, so nothing references users: erasing a donor leaves claims whole.
 */
export const giftAidClaims = sqliteTable(
  'gift_aid_claims',
  {
    id: id(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The organization's HMRC charity reference when the claim was made. */
    charityReference: text('charity_reference').notNull(),
    status: text('status', { enum: GIFT_AID_CLAIM_STATUSES }).notNull().default('draft'),
    /** HMRC's reference for the submission, typed by the admin who submitted it. */
    hmrcReference: text('hmrc_reference'),
    aggregated: integer('aggregated', { mode: 'boolean' }).notNull().default(false),
    /** The date filter the claim was made with (London days, inclusive), when one was given. */
    dateFrom: text('date_from'),
    dateTo: text('date_to'),
    earliestDate: integer('earliest_date', { mode: 'timestamp_ms' }).notNull(),
    latestDate: integer('latest_date', { mode: 'timestamp_ms' }).notNull(),
    rowCount: integer('row_count').notNull(),
    giftCount: integer('gift_count').notNull(),
    /** Pence donated on the schedule, and the Gift Aid it claims (25%, per gift, rounded down). */
    totalPence: integer('total_pence').notNull(),
    giftAidPence: integer('gift_aid_pence').notNull(),
    /** Gift Aid over-claimed earlier (refunds after a claim), set against this claim. */
    adjustmentPence: integer('adjustment_pence').notNull().default(0),
    /** End of the accounting period of its latest gift (the tax year, 5 April) and six years on. */
    accountingPeriodEnd: integer('accounting_period_end', { mode: 'timestamp_ms' }).notNull(),
    retainUntil: integer('retain_until', { mode: 'timestamp_ms' }).notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    submittedAt: integer('submitted_at', { mode: 'timestamp_ms' }),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    updatedAt: updatedAt(),
    /** HMRC's payment as received: a difference from gift_aid_pence - adjustment_pence is kept with a note. */
    paidAmountPence: integer('paid_amount_pence'),
    paidOn: text('paid_on'),
    paymentNote: text('payment_note'),
    rejectedAt: integer('rejected_at', { mode: 'timestamp_ms' }),
    rejectionReason: text('rejection_reason'),
    /** A voided draft released its gifts (their claimed rows are removed; the schedule snapshot stays). */
    voidedAt: integer('voided_at', { mode: 'timestamp_ms' }),
    voidedBy: text('voided_by'),
    voidReason: text('void_reason'),
  },
  (t) => [index('gift_aid_claims_org_idx').on(t.organizationId, t.createdAt)],
);

/**
 * Gift Aid Small Donations Scheme: small cash and contactless gifts (£30 or less, no declaration)
 * claimed per organization and tax year, within HMRC's caps (docs/decisions/032).
 */
export const gasdsClaims = sqliteTable(
  'gasds_claims',
  {
    id: id(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The tax year by its first calendar year: 2025 is 6 April 2025 - 5 April 2026. */
    taxYear: integer('tax_year').notNull(),
    /** Small donations claimed on, and the top-up claimed (25%). */
    donationsPence: integer('donations_pence').notNull(),
    topUpPence: integer('top_up_pence').notNull(),
    giftCount: integer('gift_count').notNull(),
    status: text('status', { enum: ['claimed', 'paid', 'void'] })
      .notNull()
      .default('claimed'),
    hmrcReference: text('hmrc_reference'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('gasds_claims_org_idx').on(t.organizationId, t.taxYear)],
);

/** The schedule exactly as downloaded: a snapshot, so a later download gives the same bytes. */
export const giftAidClaimRows = sqliteTable(
  'gift_aid_claim_rows',
  {
    claimId: text('claim_id')
      .notNull()
      .references(() => giftAidClaims.id),
    line: integer('line').notNull(),
    title: text('title').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    house: text('house').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    /** Description of an aggregated line (gifts of £20 or less); empty for one donor's gift. */
    aggregated: text('aggregated').notNull().default(''),
    sponsored: integer('sponsored', { mode: 'boolean' }).notNull().default(false),
    donationDate: integer('donation_date', { mode: 'timestamp_ms' }).notNull(),
    amountPence: integer('amount_pence').notNull(),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.line] })],
);

/** One row per claimed gift; the primary key is what makes a second claim of the same gift impossible. */
export const giftAidClaimedGifts = sqliteTable(
  'gift_aid_claimed_gifts',
  {
    donationId: text('donation_id')
      .primaryKey()
      .references(() => donations.id),
    claimId: text('claim_id')
      .notNull()
      .references(() => giftAidClaims.id),
    line: integer('line').notNull(),
    /** Net pence claimed on (amount less any refund before the claim). */
    amountPence: integer('amount_pence').notNull(),
    declarationId: text('declaration_id').references(() => giftAidDeclarations.id),
    createdAt: createdAt(),
  },
  (t) => [index('gift_aid_claimed_gifts_claim_idx').on(t.claimId)],
);

/** Gift Aid to give back to HMRC: a claimed gift was refunded, fully or partly. */
export const giftAidAdjustments = sqliteTable(
  'gift_aid_adjustments',
  {
    id: id(),
    donationId: text('donation_id')
      .notNull()
      .references(() => donations.id),
    /** The claim the gift was claimed in. */
    claimId: text('claim_id')
      .notNull()
      .references(() => giftAidClaims.id),
    organizationId: text('organization_id').notNull(),
    /** Over-claimed Gift Aid, in pence. */
    giftAidPence: integer('gift_aid_pence').notNull(),
    reason: text('reason').notNull().default('refund'),
    /** The later claim that reports it to HMRC; null while still to report. */
    settledClaimId: text('settled_claim_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('gift_aid_adjustments_org_idx').on(t.organizationId, t.settledClaimId),
    index('gift_aid_adjustments_donation_idx').on(t.donationId),
  ],
);
