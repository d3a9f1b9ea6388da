import { z } from '@hono/zod-openapi';
import { pagingQuery, reference } from '../lib/fields';
import { DONATION_SORTS, donationFilterShape, donationListQuery } from '../services/reports/list-filters';
import { TOP_DONORS_LIMIT } from '../services/campaigns/top-donors';
import { OfflineGiftFields } from './gift-aid';

/** The donations list's filters, documented field by field (the export checks cross-field ranges too). */
export const DonationExportQuery = z.object(donationFilterShape);

export const DONATION_LIST_TYPES = ['public', 'me'] as const;

/** GET /donations/top (and type=public): top donors of one campaign or appeal. */
export const TopDonorsQuery = z.object({
  type: z.string().optional(),
  campaign_id: z.string().max(64).optional(),
  appeal_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(TOP_DONORS_LIMIT).optional(),
});

/** No type (the dashboard's list) and type=me: pages with X-Total-Count. */
export const MyDonationsQuery = pagingQuery().extend({ type: z.enum(['me']).optional() });
/** The staff list: paging plus search, filters and sort (api/services/reports/list-filters.ts). */
export const StaffDonationsQuery = donationListQuery;

/**
 * The documented query. Which fields apply, and their bounds, depend on `type`, so each branch
 * validates with its own schema after the caller's role is known (no type and type=me need a
 * session; a 401 comes before any 400).
 */
export const DonationListQuery = z.object({
  type: z
    .string()
    .optional()
    .openapi({
      description:
        'Absent, `once` or `monthly`: the dashboard list (staff), optionally only one-off or monthly gifts. `me`: the caller’s own gifts. `public`: the same answer as GET /donations/top',
      enum: [...DONATION_LIST_TYPES, 'once', 'monthly'],
    }),
  search: z
    .string()
    .optional()
    .openapi({ description: 'Staff list: donor name or email contains (at most 40 characters)' }),
  donor_id: z.string().optional().openapi({ description: 'Staff list: one donor' }),
  status: z
    .string()
    .optional()
    .openapi({ description: 'Staff list: pending, succeeded, failed, refunded or abandoned' }),
  date_from: z.string().optional().openapi({ description: 'Staff list: first London day, YYYY-MM-DD' }),
  date_to: z
    .string()
    .optional()
    .openapi({ description: 'Staff list: last London day, YYYY-MM-DD (not before date_from)' }),
  amount_min: z.string().optional().openapi({ type: 'integer', description: 'Staff list: smallest amount in pence' }),
  amount_max: z.string().optional().openapi({ type: 'integer', description: 'Staff list: largest amount in pence' }),
  sort: z
    .string()
    .optional()
    .openapi({ description: `Staff list: ${DONATION_SORTS.join(', ')} (default date)` }),
  order: z.string().optional().openapi({ description: 'Staff list: asc or desc' }),
  campaign_id: z
    .string()
    .optional()
    .openapi({ description: 'type=public: the campaign; staff list: only this campaign' }),
  appeal_id: z.string().optional().openapi({ description: 'type=public: the appeal; staff list: only this appeal' }),
  limit: z
    .string()
    .optional()
    .openapi({ type: 'integer', description: `At most 100, or ${TOP_DONORS_LIMIT} for type=public` }),
  offset: z.string().optional().openapi({ type: 'integer' }),
});

const manualAmount = z
  .number({ error: 'amount: Enter the amount in pence as a whole number' })
  .int('Enter the amount in pence as a whole number')
  .openapi({ description: 'Pence' });

const manualDate = z
  .string({ error: 'Enter a date like 2025-03-31' })
  .trim()
  .min(1, 'Enter a date like 2025-03-31')
  .max(40)
  .openapi({ description: 'YYYY-MM-DD (a UK date) or a full ISO timestamp' });

/** A gift received outside Stripe, recorded by staff (POST /donations). */
export const ManualDonationBody = z.object({
  donor: reference('a donor'),
  amount: manualAmount,
  date: manualDate,
  campaign: reference('a campaign'),
  appeal: reference('an appeal'),
  /** Off unless the admin ticks it: the donor may not expect mail for a cheque they posted. */
  send_receipt: z.boolean({ error: 'send_receipt: must be true or false' }).optional(),
  ...OfflineGiftFields,
});

export const ManualDonationUpdateBody = z.object({
  donor: reference('a donor').optional(),
  amount: manualAmount.optional(),
  date: manualDate.optional(),
  campaign: reference('a campaign').optional(),
  appeal: reference('an appeal').nullable().optional(),
  ...OfflineGiftFields,
});

/** POST /donations/{id}/receipt: where the copy of the receipt went. */
export const ReceiptResentSchema = z
  .object({
    sent_to: z.string().openapi({ description: 'The donor’s email address on file', example: 'ada@example.org' }),
    sent_at: z.string().openapi({ example: '2026-11-25T10:00:00.000Z' }),
  })
  .openapi('ReceiptResent');
export type ReceiptResentDto = z.infer<typeof ReceiptResentSchema>;
