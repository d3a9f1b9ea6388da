import { z } from '@hono/zod-openapi';
import { parseId } from '../../../domain/ids';
import { DONATION_STATUSES, USER_TYPES } from '../../../domain/statuses';
import { isIsoDay } from '../../../domain/dates';
import { MAX_PAGE_SIZE, MAX_SEARCH_TERM_LENGTH } from '../../../domain/limits';

/**
 * Query parameters of the admin lists and their CSV exports: one schema per list, so a filtered
 * view, its URL in the dashboard and its export always mean the same rows. Unknown sort fields,
 * inverted ranges and oversized pages are 400s naming the parameter.
 */

export const DONATION_SORTS = ['date', 'amount', 'donor', 'campaign', 'status'] as const;
export const DONOR_SORTS = ['created', 'name', 'email'] as const;
export const ORGANIZATION_SORTS = ['name', 'created'] as const;

const search = z
  .string()
  .trim()
  .max(MAX_SEARCH_TERM_LENGTH, `Use at most ${MAX_SEARCH_TERM_LENGTH} characters`)
  // The lists search with instr(), not LIKE, so D1's 50-byte LIKE pattern limit does not apply.
  .optional()
  .transform((v) => (v ? v : undefined))
  .openapi({ description: 'Case-insensitive text to look for' });

const order = z
  .enum(['asc', 'desc'], { error: 'Must be asc or desc' })
  .optional()
  .openapi({ description: 'Sort direction' });

const sortOf = <T extends readonly [string, ...string[]]>(fields: T) =>
  z
    .enum(fields, { error: `Must be one of: ${fields.join(', ')}` })
    .optional()
    .openapi({ description: `Sort field: ${fields.join(', ')}` });

/** An optional id query parameter (UUID or short id), parsed to the UUID; 400 naming what it should be. */
export const idParam = (what: string) =>
  z
    .string()
    .max(64)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const id = parseId(v);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: `Must be ${what} id` });
        return z.NEVER;
      }
      return id;
    });

const day = z
  .string()
  .optional()
  .refine((v) => v === undefined || v === '' || isIsoDay(v), 'Enter a date like 2026-03-31')
  .transform((v) => (v ? v : undefined));

const pence = z.coerce
  .number({ error: 'Enter pence as a whole number' })
  .int('Enter pence as a whole number')
  .min(0, 'Must be 0 or more')
  .max(1_000_000_000, 'Too large')
  .optional();

export const paging = (max: number = MAX_PAGE_SIZE) => ({
  limit: z.coerce
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(1, 'Must be at least 1')
    .max(max, `Must be at most ${max}`)
    .default(Math.min(50, max)),
  offset: z.coerce
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(0, 'Must be 0 or more')
    .max(1_000_000)
    .default(0),
});

export const donationFilterShape = {
  search: search.openapi({ description: 'Donor name or email contains' }),
  donor_id: idParam('a donor'),
  campaign_id: idParam('a campaign'),
  appeal_id: idParam('an appeal'),
  status: z.enum(DONATION_STATUSES, { error: `Must be one of: ${DONATION_STATUSES.join(', ')}` }).optional(),
  type: z.enum(['once', 'monthly'], { error: 'Must be once or monthly' }).optional(),
  date_from: day.openapi({ description: 'First London day, YYYY-MM-DD (inclusive)' }),
  date_to: day.openapi({ description: 'Last London day, YYYY-MM-DD (inclusive)' }),
  amount_min: pence.openapi({ description: 'Smallest amount, pence' }),
  amount_max: pence.openapi({ description: 'Largest amount, pence' }),
  sort: sortOf(DONATION_SORTS),
  order,
};

/** Cross-field checks: ranges must not be inverted. */
function checkRanges(
  v: { date_from?: string; date_to?: string; amount_min?: number; amount_max?: number },
  ctx: z.RefinementCtx,
) {
  if (v.date_from && v.date_to && v.date_to < v.date_from) {
    ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'Must be on or after date_from' });
  }
  if (v.amount_min !== undefined && v.amount_max !== undefined && v.amount_max < v.amount_min) {
    ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'Must be at least amount_min' });
  }
}

export const donationFilters = z.object(donationFilterShape).superRefine(checkRanges);
export type DonationFilters = z.infer<typeof donationFilters>;

export const donationListQuery = z.object({ ...donationFilterShape, ...paging() }).superRefine(checkRanges);

export const donorFilterShape = {
  search: search.openapi({ description: 'Name or email contains' }),
  type: z.enum(USER_TYPES, { error: `Must be one of: ${USER_TYPES.join(', ')}` }).optional(),
  sort: sortOf(DONOR_SORTS),
  order,
};
export const donorFilters = z.object(donorFilterShape);
export type DonorFilters = z.infer<typeof donorFilters>;

export const organizationFilterShape = {
  search: search.openapi({ description: 'Name contains' }),
  sort: sortOf(ORGANIZATION_SORTS),
  order,
};
export const organizationFilters = z.object(organizationFilterShape);
export type OrganizationFilters = z.infer<typeof organizationFilters>;
