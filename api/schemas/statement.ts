import { z } from '@hono/zod-openapi';

/** A donor's gifts in one UK tax year (GET /me/statement). */

export const StatementSchema = z
  .object({
    tax_year: z.object({ start_year: z.number(), label: z.string(), from: z.string(), to: z.string() }),
    donor: z.object({ name: z.string(), email: z.string() }),
    gifts: z.array(
      z.object({
        _id: z.string(),
        date: z.string(),
        amount: z.number(),
        refunded: z.number(),
        net: z.number(),
        type: z.enum(['once', 'monthly']),
        cause: z.string(),
        charity: z.string(),
        gift_aid: z.boolean(),
        reference: z.string(),
      }),
    ),
    totals: z.object({ count: z.number(), net: z.number(), gift_aid_net: z.number(), gift_aid_value: z.number() }),
    charities: z.array(
      z.object({ name: z.string(), registration: z.string().nullable(), address: z.string().nullable() }),
    ),
    generated_at: z.string(),
  })
  .openapi('AnnualStatement');
export type StatementDto = z.infer<typeof StatementSchema>;

export const StatementQuery = z.object({
  tax_year: z
    .string()
    .max(8)
    .optional()
    .openapi({ example: '2025', description: 'The year the tax year starts in; default the current one' }),
});
