import { z } from '@hono/zod-openapi';
import { idParam } from '../services/reports/list-filters';
import { pageQueryShape } from './list-query';

/** Messages of support left with gifts: the public ones on an appeal and the staff's moderation list. */

export const PublicMessageSchema = z
  .object({
    _id: z.string(),
    name: z.string().openapi({ description: '"First L." or "Anonymous"' }),
    message: z.string(),
    amount: z.number().int().nullable().openapi({ description: 'Pence, or null when the donor hid it' }),
    date: z.string(),
  })
  .openapi('SupportMessage');

export const StaffMessageSchema = PublicMessageSchema.extend({
  amount: z.number().int(),
  donor: z.string(),
  anonymous: z.boolean(),
  hide_amount: z.boolean(),
  hidden: z.boolean(),
  status: z.string(),
  campaign: z.string(),
  appeal: z.string().nullable(),
}).openapi('SupportMessageForStaff');

export const StaffMessageQuery = z.object({
  donation_id: idParam('a donation'),
  appeal_id: idParam('an appeal'),
  campaign_id: idParam('a campaign'),
  limit: z.coerce.number().int().min(1).max(100, 'Must be at most 100').optional(),
});

export const MessageHiddenBody = z.object({ hidden: z.boolean({ error: 'Must be true or false' }) });

/** A fundraiser's supporters (decision 075): every paid gift to their appeal, as the public page shows its donor. */
export const SupporterSchema = z
  .object({
    _id: z.string(),
    name: z.string().openapi({ description: '"First L." or "Anonymous"' }),
    amount: z.number().int().nullable().openapi({ description: 'Pence net of refunds, or null when the donor hid it' }),
    message: z.string().nullable().openapi({ description: 'Their message of support; null with none, or hidden' }),
    date: z.string(),
    monthly: z.boolean().openapi({ description: 'A payment of a monthly gift' }),
  })
  .openapi('Supporter');

export const SupportersQuery = z.object(pageQueryShape({ max: 100, fallback: 50 }));
