import { z } from '@hono/zod-openapi';
import { USER_TYPES } from '../../db/schema';
import { addressSchema, donorPhone, emailText, imageInput, pagingQuery, personName } from '../lib/fields';
import { donorFilterShape } from '../services/reports/list-filters';
import { PAYMENT_METHODS } from '../../domain/finance';
import { DONATION_STATUSES, DONATION_TYPES } from '../../domain/statuses';
import { pageQueryShape } from './list-query';

/** Donors and staff accounts (/users): create, update and the paged list. */

/** Accepts the response shape back (`name: {first_name, last_name}`) as well as flat name fields. */
export const flattenName = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { name, ...rest } = body as Record<string, unknown>;
  if (!name || typeof name !== 'object') return body;
  return { ...(name as Record<string, unknown>), ...rest };
};

export const donorFields = {
  first_name: personName('First name'),
  last_name: personName('Last name'),
  phone: donorPhone,
  image: imageInput,
  address: addressSchema.partial().optional(),
  type: z.enum(USER_TYPES, { error: `type must be one of: ${USER_TYPES.join(', ')}` }).optional(),
};

export const DonorCreateBody = z.preprocess(
  flattenName,
  z.object({
    ...donorFields,
    email: emailText,
    organization_id: z.string().trim().max(64).optional().openapi({
      description:
        'The organization the donor is added to (org admins: one of theirs; may be left out when they have one)',
    }),
  }),
);

export const DonorUpdateBody = z.preprocess(
  flattenName,
  z
    .object(donorFields)
    .partial()
    .extend({ email: z.string().trim().max(254).optional() }),
);

/** Higher than other lists: the donation form loads donors as select options in one call. */
export const MAX_DONOR_LIST_LIMIT = 1000;

export const DonorListQuery = pagingQuery(MAX_DONOR_LIST_LIMIT).extend(donorFilterShape);

/** A donor's giving as staff and finance see it (GET /api/users/{id}/giving), within the viewer's organizations. */
export const DonorGiftSchema = z
  .object({
    _id: z.string(),
    date: z.string().openapi({ description: 'ISO timestamp' }),
    amount: z.number().int().openapi({ description: 'Pence' }),
    refunded_amount: z.number().int().openapi({ description: 'Pence refunded or reversed so far' }),
    campaign: z.object({ _id: z.string(), title: z.string() }),
    appeal: z.object({ _id: z.string(), title: z.string() }).nullable(),
    organization_id: z.string().nullable(),
    status: z.enum(DONATION_STATUSES),
    type: z.enum(DONATION_TYPES),
    method: z
      .enum(PAYMENT_METHODS)
      .nullable()
      .openapi({ description: 'null on rows from before methods were recorded (card or demo)' }),
    source: z.string(),
    gift_aid: z.boolean(),
    gift_aid_claimed: z.boolean().openapi({ description: 'In a Gift Aid claim (not voided)' }),
  })
  .openapi('DonorGift');

export const DonorGivingSchema = z
  .object({
    donor_id: z.string(),
    totals: z.object({
      given_pence: z.number().int().openapi({ description: 'Paid gifts, net of refunds and reversals' }),
      tax_year_pence: z.number().int().openapi({ description: 'The same, in the current UK tax year' }),
      tax_year: z.string().openapi({ example: '2026-27' }),
      gift_count: z.number().int().openapi({ description: 'Paid gifts not wholly refunded' }),
      gift_aid_claimed_pence: z
        .number()
        .int()
        .openapi({ description: 'Gift Aid claimed from HMRC on their gifts, less adjustments for later refunds' }),
      monthly_active: z.number().int().openapi({ description: 'Monthly gifts now active' }),
      monthly_active_pence: z.number().int().openapi({ description: 'Pence a month from the active monthly gifts' }),
    }),
    gifts: z.array(DonorGiftSchema).openapi({ description: 'Newest first (X-Total-Count: all of them)' }),
  })
  .openapi('DonorGiving');

export const GivingQuerySchema = z.object(pageQueryShape({ max: 500, fallback: 100 }));

export const MergeBodySchema = z
  .object({
    into: z
      .string({ error: 'into: the id of the donor record to keep' })
      .trim()
      .min(1, 'into: the id of the donor record to keep')
      .max(64, 'into: use at most 64 characters')
      .openapi({ description: 'The surviving donor: everything of {id} moves to it' }),
  })
  .openapi('MergeDonors');

export const MergeResultSchema = z
  .object({
    merged: z.string().openapi({ description: 'The id of the record merged away (it no longer exists)' }),
    into: z.string(),
    moved: z.object({
      donations: z.number().int(),
      declarations: z.number().int(),
      monthly_gifts: z.number().int(),
      consents: z.number().int(),
      organizations: z.number().int(),
    }),
    audit_id: z.string(),
  })
  .openapi('MergeResult');

export type DonorGivingDto = z.infer<typeof DonorGivingSchema>;
export type DonorGiftDto = z.infer<typeof DonorGiftSchema>;
export type MergeResultDto = z.infer<typeof MergeResultSchema>;
