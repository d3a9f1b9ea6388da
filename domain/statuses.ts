/** Lifecycle values shared by the database schema, the API and the islands. */

export const CAMPAIGN_STATUSES = ['draft', 'approved', 'deleted'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** `abandoned`: a checkout left pending for over a day (housekeeping); never in totals. */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'abandoned'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];
/** Statuses of a gift that was paid: a partly refunded gift stays `succeeded`, a fully refunded one is `refunded`. */
export const PAID_DONATION_STATUSES = ['succeeded', 'refunded'] as const satisfies readonly DonationStatus[];

export const DONATION_TYPES = ['once', 'monthly'] as const;
export type DonationType = (typeof DONATION_TYPES)[number];

/** `batch`: offline income entered in a banked batch; `manual`: one gift typed by staff. */
export const DONATION_SOURCES = ['card', 'demo', 'manual', 'batch'] as const;
export type DonationSource = (typeof DONATION_SOURCES)[number];

/** `finance`: the money screens only (donations, refunds, batches, payouts, Gift Aid, exports, audit), all organizations or its org_ids. */
export const USER_TYPES = ['donor', 'org_admin', 'finance', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];
