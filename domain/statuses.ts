/** Lifecycle values shared by the database schema, the API and the islands. */

export const CAMPAIGN_STATUSES = ['draft', 'approved', 'deleted'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * `abandoned`: a checkout left pending for over a day (housekeeping); never in totals.
 * `processing`: a Direct Debit submitted to Bacs and not yet settled (about 3 working days); never
 * in totals, receipts or Gift Aid until it succeeds.
 */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'abandoned', 'processing'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];
/** Statuses of a gift that was paid: a partly refunded gift stays `succeeded`, a fully refunded one is `refunded`. */
export const PAID_DONATION_STATUSES = ['succeeded', 'refunded'] as const satisfies readonly DonationStatus[];

export const DONATION_TYPES = ['once', 'monthly'] as const;
export type DonationType = (typeof DONATION_TYPES)[number];

/** How a gift is paid online: by card (and wallets through the card form), or by Bacs Direct Debit (domain/finance.ts lists every method). */
export const ONLINE_PAYMENT_METHODS = ['card', 'bacs_debit'] as const;
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];

/** `batch`: offline income entered in a banked batch; `manual`: one gift typed by staff. */
export const DONATION_SOURCES = ['card', 'demo', 'manual', 'batch'] as const;
export type DonationSource = (typeof DONATION_SOURCES)[number];

/** `finance`: the money screens only (donations, refunds, batches, payouts, Gift Aid, exports, audit), all organizations or its org_ids. */
export const USER_TYPES = ['donor', 'org_admin', 'finance', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];
