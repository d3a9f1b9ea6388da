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

/** How a gift is paid: by card (and wallets through the card form), or by Bacs Direct Debit. */
export const PAYMENT_METHODS = ['card', 'bacs_debit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const DONATION_SOURCES = ['card', 'demo', 'manual'] as const;
export type DonationSource = (typeof DONATION_SOURCES)[number];

export const USER_TYPES = ['donor', 'org_admin', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];
