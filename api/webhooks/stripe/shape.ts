import { z } from 'zod';

/**
 * The fields our handlers read, checked before any of them runs. Stripe's real events always pass;
 * a correctly signed but malformed event (`data: null`, ids as objects, amounts as text) is
 * acknowledged as `ignored` and logged, because answering 500 would make Stripe retry it for days.
 */
const id = z.string().min(1).max(255);
const ref = z.union([id, z.object({ id })]);
const pence = z.number().int().nonnegative().max(1_000_000_000);
const metadata = z.record(z.string(), z.string().max(500)).nullish();
const currency = z.string().max(10);

const paymentIntent = z.looseObject({
  id,
  amount: pence,
  amount_received: pence.nullish(),
  currency,
  metadata,
  last_payment_error: z.looseObject({ message: z.string().nullish() }).nullish(),
});

const invoice = z.looseObject({
  id,
  amount_paid: pence.nullish(),
  amount_due: pence.nullish(),
  currency,
  billing_reason: z.string().nullish(),
  next_payment_attempt: z.number().int().nonnegative().nullish(),
  status_transitions: z.looseObject({ paid_at: z.number().int().nullish() }).nullish(),
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: ref, metadata }).nullish(),
    })
    .nullish(),
  payments: z
    .looseObject({
      data: z
        .array(z.looseObject({ status: z.string(), payment: z.looseObject({ payment_intent: ref.nullish() }) }))
        .max(100),
    })
    .nullish(),
});

const charge = z.looseObject({
  payment_intent: ref.nullish(),
  amount: pence,
  amount_refunded: pence,
  metadata,
});

const refund = z.looseObject({
  id,
  amount: pence,
  currency,
  payment_intent: ref.nullish(),
  charge: ref.nullish(),
  status: z.string().nullish(),
});

const seconds = z.number().int().nonnegative();
const subscription = z.looseObject({
  id,
  status: z.string().min(1).max(40),
  metadata,
  start_date: seconds.nullish(),
  canceled_at: seconds.nullish(),
  ended_at: seconds.nullish(),
  cancellation_details: z.looseObject({ comment: z.string().max(500).nullish() }).nullish(),
  pause_collection: z.looseObject({ resumes_at: seconds.nullish() }).nullish(),
  items: z.looseObject({
    data: z
      .array(
        z.looseObject({
          current_period_end: seconds.nullish(),
          price: z.looseObject({ id, unit_amount: pence.nullish() }).nullish(),
        }),
      )
      .max(20),
  }),
});

const mandate = z.looseObject({
  id,
  status: z.enum(['active', 'inactive', 'pending']),
  payment_method_details: z.looseObject({
    type: z.string(),
    bacs_debit: z.looseObject({ reference: z.string().nullish() }).nullish(),
  }),
});

const payout = z.looseObject({
  id,
  amount: pence,
  currency,
  status: z.string().min(1).max(40),
  arrival_date: seconds.nullish(),
  failure_code: z.string().max(100).nullish(),
  failure_message: z.string().max(1000).nullish(),
});

const OBJECT_SHAPES: Record<string, z.ZodType> = {
  'payment_intent.succeeded': paymentIntent,
  'payment_intent.processing': paymentIntent.extend({ latest_charge: z.union([id, z.looseObject({ id })]).nullish() }),
  'mandate.updated': mandate,
  'payment_intent.payment_failed': paymentIntent,
  'invoice.paid': invoice.extend({ amount_paid: pence }),
  'invoice.payment_failed': invoice.extend({ amount_due: pence }),
  'charge.refunded': charge,
  'refund.failed': refund,
  'customer.subscription.updated': subscription,
  'customer.subscription.deleted': subscription,
  'payout.paid': payout,
  'payout.failed': payout,
};

const envelope = z.looseObject({
  id,
  type: z.string().min(1).max(100),
  created: z.number().int().positive(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/** null when the event has every field we read with the right type, else a short reason for the log. */
export function malformedEventReason(event: unknown): string | null {
  const outer = envelope.safeParse(event);
  if (!outer.success)
    return `envelope: ${outer.error.issues[0]?.path.join('.') || 'event'} ${outer.error.issues[0]?.message ?? ''}`.trim();
  const shape = OBJECT_SHAPES[outer.data.type];
  if (!shape) return null;
  const inner = shape.safeParse(outer.data.data.object);
  if (inner.success) return null;
  const issue = inner.error.issues[0];
  return `data.object.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`;
}
