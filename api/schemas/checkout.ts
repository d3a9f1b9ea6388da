import { z } from '@hono/zod-openapi';
import { DONATION_STATUSES, ONLINE_PAYMENT_METHODS } from '../../domain';

/** Starting a gift (/stripe/client_secret) and the demo mode's payment. */

export const CheckoutSessionSchema = z
  .object({
    clientSecret: z.string(),
    mode: z.enum(['stripe', 'demo']),
    publishableKey: z.string().nullable(),
    type: z.enum(['once', 'monthly']),
    amount: z.number().int().openapi({ description: 'Pence' }),
    method: z.enum(ONLINE_PAYMENT_METHODS).openapi({ description: 'card (and wallets) or bacs_debit (Direct Debit)' }),
  })
  .openapi('CheckoutSession');

export const DemoPaymentSchema = z.object({ status: z.enum(DONATION_STATUSES) });
