import { z } from '@hono/zod-openapi';
import { BATCH_METHODS } from '../../domain/finance';
import { formatPence } from '../../domain/money';
import { pageQueryShape } from './list-query';

/** Lines one batch may carry: a paying-in slip's worth, and one db.batch that stays small on D1. */
export const BATCH_MAX_LINES = 200;
/** Largest single line and batch total, pence (£1m / £10m): beyond it is a typo. */
export const BATCH_LINE_MAX_PENCE = 100_000_000;
export const BATCH_TOTAL_MAX_PENCE = 1_000_000_000;

const pence = (field: string, max: number) =>
  z
    .number({ error: `${field}: enter pence as a whole number` })
    .int(`${field}: enter pence as a whole number`)
    .positive(`${field}: must be more than 0 pence`)
    .max(max, `${field}: at most ${formatPence(max)}; check the figure for a typo`);

const text = (field: string, max: number) =>
  z
    .string({ error: `${field}: must be text` })
    .trim()
    .max(max, `${field}: use at most ${max} characters`);

export const BatchNewDonorSchema = z
  .object({
    first_name: text('first_name', 100).min(1, 'first_name: required'),
    last_name: text('last_name', 100).min(1, 'last_name: required'),
    email: z.email({ error: 'email: enter a valid email address' }).max(254).optional(),
    address: text('address', 300).optional(),
    postcode: text('postcode', 20).optional(),
  })
  .openapi('BatchNewDonor');

export const BatchGiftSchema = z
  .object({
    donor_id: z.string({ error: 'donor_id: must be a donor id' }).optional(),
    donor: BatchNewDonorSchema.optional(),
    amount: pence('amount', BATCH_LINE_MAX_PENCE),
    campaign_id: z.string({ error: 'campaign_id: must be a campaign id' }).optional(),
    appeal_id: z.string({ error: 'appeal_id: must be an appeal id' }).optional(),
    gift_aid: z.boolean({ error: 'gift_aid: true or false' }).optional(),
    benefit_exceeds_limit: z.boolean({ error: 'benefit_exceeds_limit: true or false' }).optional(),
    reference: text('reference', 100).optional(),
    /** A slip can mix cash and cheques: a line paid another way than the batch's method says so. */
    method: z
      .enum(BATCH_METHODS, { error: `method: must be one of ${BATCH_METHODS.join(', ')}` })
      .optional()
      .openapi({ description: "How this gift was paid, when not the batch's method" }),
    send_receipt: z.boolean({ error: 'send_receipt: true or false' }).optional(),
    collection: z.boolean({ error: 'collection: true or false' }).optional().openapi({
      description:
        'A tin or bucket collection: its total, cash or contactless, with no donor (the Small Donations Scheme counts it whole)',
    }),
  })
  .openapi('BatchGift');

export const BatchBodySchema = z
  .object({
    organization_id: z.string({ error: 'organization_id: required' }),
    method: z.enum(BATCH_METHODS, { error: `method: must be one of ${BATCH_METHODS.join(', ')}` }),
    banked_on: z
      .string({ error: 'banked_on: required' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'banked_on: enter the day like 2026-03-31'),
    reference: text('reference', 100).optional(),
    expected_total: pence('expected_total', BATCH_TOTAL_MAX_PENCE),
    gifts: z
      .array(BatchGiftSchema, { error: 'gifts: a list of gifts' })
      .min(1, 'gifts: add at least one gift')
      .max(BATCH_MAX_LINES, `gifts: at most ${BATCH_MAX_LINES} gifts in one batch; split it in two`),
  })
  .openapi('BatchRequest');

export const BatchLineSchema = z
  .object({
    _id: z.string(),
    line: z.number().int().openapi({ description: '1-based position in the batch' }),
    donor_id: z.string(),
    donor_name: z.string(),
    amount: z.number().int().openapi({ description: 'Pence' }),
    refunded_amount: z.number().int(),
    status: z.string(),
    campaign_id: z.string(),
    campaign_title: z.string(),
    general_fund: z.boolean(),
    appeal_id: z.string().nullable(),
    gift_aid: z.boolean(),
    benefit_exceeds_limit: z.boolean(),
    reference: z.string().nullable(),
    method: z.enum(BATCH_METHODS),
    collection: z.boolean(),
    receipt_sent_at: z.string().nullable(),
  })
  .openapi('BatchLine');

export const BatchSummarySchema = z
  .object({
    _id: z.string(),
    organization_id: z.string(),
    organization_name: z.string(),
    method: z
      .enum(BATCH_METHODS)
      .openapi({ description: "The slip's method: its gifts' unless a line says otherwise" }),
    methods: z
      .array(z.enum(BATCH_METHODS))
      .openapi({ description: "Every way the batch's gifts were paid, the slip's method first when a gift was" }),
    banked_on: z.string(),
    reference: z.string().nullable(),
    expected_total: z.number().int(),
    gift_count: z.number().int(),
    created_by: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('BatchSummary');

export const BatchSchema = BatchSummarySchema.extend({ gifts: z.array(BatchLineSchema) }).openapi('Batch');

export type BatchBody = z.infer<typeof BatchBodySchema>;
export type BatchGift = z.infer<typeof BatchGiftSchema>;
export type BatchDto = z.infer<typeof BatchSchema>;
export type BatchSummaryDto = z.infer<typeof BatchSummarySchema>;

export const BatchQuerySchema = z.object({
  organization_id: z.string().optional().openapi({ description: 'Only this organization’s batches' }),
  ...pageQueryShape(),
});

/** Required: the same key again answers the first batch, so a double submit posts once. */
export const BatchHeaders = z.object({
  'idempotency-key': z
    // The validation hook names the header ("idempotency-key: "); the messages do not repeat it.
    .string({ error: 'send a header that names this batch, e.g. a UUID made when the form opened' })
    .trim()
    .min(8, 'use at least 8 characters')
    .max(200, 'use at most 200 characters'),
});
