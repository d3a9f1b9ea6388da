import { z } from '@hono/zod-openapi';
import {
  BATCH_METHODS,
  type BatchMethod,
  GIFT_AID_CLAIM_STATUSES,
  GIFT_AID_DECLARATION_METHODS,
  isAccountingYearEnd,
  isIsoDay,
} from '../../domain';

/** Gift Aid's request and response shapes (declarations, claims, GASDS); the services' DTO types are inferred from these. */

const text = (field: string, max: number) =>
  z.string({ error: `${field}: must be text` }).max(max, `${field}: too long`);

/** Donor details as HMRC's schedule needs them; the domain rule (checkGiftAidDetails) checks the rest. */
export const GiftAidDetailsBody = z.object({
  title: text('title', 100).nullish(),
  first_name: text('first_name', 200),
  last_name: text('last_name', 200),
  house: text('house', 200),
  address: text('address', 400).nullish(),
  postcode: text('postcode', 40),
});

export const DeclarationSchema = z
  .object({
    _id: z.string(),
    version: z.number().int(),
    title: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    house: z.string(),
    address: z.string(),
    postcode: z.string(),
    declaration: z.string(),
    method: z.enum(GIFT_AID_DECLARATION_METHODS),
    covers_past: z.boolean(),
    covers_future: z.boolean(),
    declared_at: z.string(),
    cancelled_at: z.string().nullable(),
    replaced_by: z.string().nullable(),
    needs_review: z.boolean(),
    organization_id: z.string().nullable(),
    overseas: z.boolean(),
    /** Oral declarations: when the written confirmation went to the donor (they count from then). */
    confirmation_sent_at: z.string().nullable(),
    /** Whether gifts can be claimed under it now: in force, and for an oral one, confirmed in writing. */
    effective: z.boolean(),
  })
  .openapi('GiftAidDeclaration');
export type DeclarationDto = z.infer<typeof DeclarationSchema>;

export const MyDeclarationsSchema = z
  .object({ active: z.boolean(), declarations: z.array(DeclarationSchema) })
  .openapi('MyGiftAid');

export const ClaimSchema = z
  .object({
    _id: z.string(),
    organization: z.object({ label: z.string(), value: z.string() }),
    charity_reference: z.string(),
    status: z.enum(GIFT_AID_CLAIM_STATUSES),
    hmrc_reference: z.string().nullable(),
    aggregated: z.boolean(),
    date_from: z.string().nullable(),
    date_to: z.string().nullable(),
    earliest_date: z.string(),
    latest_date: z.string(),
    row_count: z.number().int(),
    gift_count: z.number().int(),
    /** Pence donated on the schedule. */
    total: z.number().int(),
    /** Gift Aid claimed, pence. */
    gift_aid: z.number().int(),
    /** Over-claimed Gift Aid from earlier claims set against this one, pence. */
    adjustment: z.number().int(),
    /** What HMRC should pay: gift_aid less adjustment, pence. */
    net_claim: z.number().int(),
    accounting_period_end: z.string(),
    retain_until: z.string(),
    created_at: z.string(),
    submitted_at: z.string().nullable(),
    paid_at: z.string().nullable(),
    /** HMRC's payment as received (pence), the day it arrived, and the note kept with a difference. */
    paid_amount: z.number().int().nullable(),
    paid_on: z.string().nullable(),
    payment_note: z.string().nullable(),
    /** paid_amount - net_claim when they differ; null when paid in full or not paid yet. */
    payment_difference: z.number().int().nullable(),
    rejected_at: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    voided_at: z.string().nullable(),
    void_reason: z.string().nullable(),
  })
  .openapi('GiftAidClaim');
export type ClaimDto = z.infer<typeof ClaimSchema>;

const DonorOnSchedule = z.object({
  title: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  house: z.string(),
  postcode: z.string(),
});

export const EligibleGiftSchema = z.object({
  _id: z.string(),
  date: z.string(),
  /** Net pence (amount less refunds). */
  amount: z.number().int(),
  gift_aid: z.number().int(),
  source: z.string(),
  type: z.string(),
  organization_id: z.string(),
  campaign: z.string(),
  donor: DonorOnSchedule,
  declaration_id: z.string(),
  declaration_method: z.string(),
});
export type EligibleGiftDto = z.infer<typeof EligibleGiftSchema>;

export const EligibleSchema = z
  .object({
    items: z.array(EligibleGiftSchema),
    count: z.number().int(),
    total: z.number().int(),
    gift_aid: z.number().int(),
    shown: z.number().int(),
  })
  .openapi('GiftAidEligible');
export type EligibleList = z.infer<typeof EligibleSchema>;

/** One gift of a claim, with the schedule line it is on. */
export const ClaimGiftSchema = z
  .object({
    donation_id: z.string(),
    line: z.number().int(),
    date: z.string(),
    /** Net pence claimed on. */
    amount: z.number().int(),
    gift_aid: z.number().int(),
    campaign: z.string(),
    donor_id: z.string().nullable(),
    donor_name: z.string(),
    declaration_id: z.string().nullable(),
    aggregated: z.boolean(),
    sponsored: z.boolean(),
  })
  .openapi('GiftAidClaimGift');
export type ClaimGiftDto = z.infer<typeof ClaimGiftSchema>;

export const ClaimWithGiftsSchema = z.object({ claim: ClaimSchema, gifts: z.array(ClaimGiftSchema) });

export const AdjustmentSchema = z
  .object({
    _id: z.string(),
    donation_id: z.string(),
    donor_name: z.string().nullable().openapi({ description: 'The gift’s donor, null once their name is erased' }),
    donation_date: z.string().nullable().openapi({ description: 'When the gift was made' }),
    claim_id: z.string(),
    organization_id: z.string(),
    gift_aid: z.number().int().openapi({
      description:
        'Pence: over-claimed Gift Aid (refund), or negative where a failed refund takes an unreported one back (refund_failed)',
    }),
    reason: z.string().openapi({ example: 'refund', description: 'refund or refund_failed' }),
    settled_claim_id: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('GiftAidAdjustment');
export type AdjustmentDto = z.infer<typeof AdjustmentSchema>;

export const SummarySchema = z
  .object({
    /** Gift Aid on every claim made (draft, submitted or paid; not void), pence. */
    claimed: z.number().int(),
    paid: z.number().int(),
    to_claim: z.number().int(),
    adjustments_due: z.number().int(),
    eligible_gifts: z.number().int(),
  })
  .openapi('GiftAidSummary');
export type GiftAidSummary = z.infer<typeof SummarySchema>;

export const dayField = (field: string) =>
  z
    .string()
    .max(10, `${field}: enter a date like 2026-04-06`)
    .refine((v) => v === '' || isIsoDay(v), `${field}: enter a date like 2026-04-06`)
    .optional();

const requiredDay = (field: string) =>
  z
    .string({ error: `${field}: enter a date like 2026-04-06` })
    .refine(isIsoDay, `${field}: enter a date like 2026-04-06`);

export const OrgQuery = z.object({ organization_id: z.string().max(64).optional() });
export const EligibleQuery = OrgQuery.extend({ from: dayField('from'), to: dayField('to') });
export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const NewClaimBody = z.object({
  organization_id: z.string({ error: 'organization_id: required' }).min(1, 'organization_id: required').max(64),
  from: dayField('from'),
  to: dayField('to'),
  aggregate: z.boolean({ error: 'aggregate: must be true or false' }).optional(),
});
export type NewClaim = z.infer<typeof NewClaimBody>;

const HMRC_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9 /-]*$/;
/** Empty is let through to the service, which says once what to enter (a regex error on "" would read as gibberish). */
const hmrcReference = z
  .string({ error: "hmrc_reference: enter HMRC's reference for the submission" })
  .trim()
  .max(40, 'hmrc_reference: at most 40 characters')
  .refine((v) => v === '' || HMRC_REFERENCE.test(v), 'hmrc_reference: letters, digits, spaces, / and - only');

export const ClaimUpdateBody = z.object({
  status: z.enum(GIFT_AID_CLAIM_STATUSES, { error: 'status: one of submitted, paid' }),
  hmrc_reference: hmrcReference.nullish(),
});
export type ClaimUpdate = z.infer<typeof ClaimUpdateBody>;

export const VoidClaimBody = z.object({ reason: text('reason', 500).trim().optional() });
export const RejectClaimBody = z.object({
  reason: z
    .string({ error: "reason: enter HMRC's reason for rejecting the claim" })
    .trim()
    .min(1, "reason: enter HMRC's reason for rejecting the claim")
    .max(1000, 'reason: at most 1,000 characters'),
});
export const ResubmitClaimBody = z.object({ hmrc_reference: hmrcReference });
export const PaymentBody = z.object({
  amount: z
    .number({ error: 'amount: enter the pence HMRC paid, a whole number' })
    .int('amount: enter the pence HMRC paid, a whole number')
    .min(0, 'amount: cannot be negative')
    .max(1_000_000_000, 'amount: too large'),
  paid_on: requiredDay('paid_on'),
  note: text('note', 1000).trim().optional(),
});
export type PaymentInput = z.infer<typeof PaymentBody>;

export const RecordDeclarationBody = GiftAidDetailsBody.extend({
  donor_id: z.string({ error: 'donor_id: required' }).min(1, 'donor_id: required').max(64),
  organization_id: z.string({ error: 'organization_id: required' }).min(1, 'organization_id: required').max(64),
  covers_past: z.boolean({ error: 'covers_past: must be true or false' }),
  covers_future: z.boolean({ error: 'covers_future: must be true or false' }),
  declared_on: requiredDay('declared_on'),
  /** paper (signed form) or oral (by phone or in person; needs a written confirmation). Default paper. */
  method: z.enum(['paper', 'oral'], { error: 'method: paper or oral' }).optional(),
  /** Lives outside the UK: the postcode may be left empty (the schedule shows X). */
  overseas: z.boolean({ error: 'overseas: must be true or false' }).optional(),
});
export type RecordDeclarationInput = z.infer<typeof RecordDeclarationBody>;

export const DonorDeclarationsQuery = z.object({ donor_id: z.string().min(1, 'donor_id: required').max(64) });
export const CoveringQuery = z.object({
  donor_id: z.string().min(1, 'donor_id: required').max(64),
  organization_id: z.string().min(1, 'organization_id: required').max(64),
  date: requiredDay('date'),
});
export const CoveringSchema = z
  .object({
    eligible: z.boolean(),
    declaration: DeclarationSchema.nullable().openapi({
      description: 'The declaration that covers the gift, or the nearest one that does not',
    }),
    reason: z.string().nullable().openapi({ description: 'Why no declaration covers the gift; null when one does' }),
  })
  .openapi('GiftAidCovering');

export const ConfirmationBody = z.object({
  /** Send the written confirmation by email now (default), or record the day one was sent by post. */
  send_email: z.boolean({ error: 'send_email: must be true or false' }).optional(),
  sent_on: dayField('sent_on'),
});

export const VerifyResultSchema = z.object({ _id: z.string(), gift_aid: z.literal(true), declaration_id: z.string() });

export const GasdsQuery = z.object({
  organization_id: z.string({ error: 'organization_id: required' }).min(1, 'organization_id: required').max(64),
  tax_year: z.coerce
    .number({ error: 'tax_year: the year it starts, like 2025 for 2025-26' })
    .int('tax_year: the year it starts, like 2025 for 2025-26')
    .min(2013, 'tax_year: GASDS began in 2013-14')
    .max(2100, 'tax_year: the year it starts, like 2025 for 2025-26'),
});
export const GasdsClaimBody = z.object({
  organization_id: GasdsQuery.shape.organization_id,
  tax_year: z
    .number({ error: 'tax_year: the year it starts, like 2025 for 2025-26' })
    .int('tax_year: the year it starts, like 2025 for 2025-26')
    .min(2013, 'tax_year: GASDS began in 2013-14')
    .max(2100, 'tax_year: the year it starts, like 2025 for 2025-26'),
  amount: z
    .number({ error: 'amount: pence of small donations to claim on' })
    .int('amount: whole pence')
    .min(1, 'amount: more than 0')
    .optional(),
});

export const GasdsSchema = z
  .object({
    organization_id: z.string(),
    tax_year: z.number().int(),
    label: z.string(),
    /** Small cash/contactless gifts without a declaration, not yet claimed: count and pence. */
    small_gifts: z.number().int(),
    small_donations: z.number().int(),
    /** Gift Aid donations claimed in the tax year (non-void claims), pence; GASDS may be at most 10x. */
    gift_aid_donations: z.number().int(),
    already_claimed: z.number().int(),
    /** The caps: £8,000 less what was claimed already, and 10x Gift Aid donations less the same. */
    annual_cap_left: z.number().int(),
    matching_cap_left: z.number().int(),
    /** What can be claimed on now (pence of donations) and its top-up (25%). */
    claimable: z.number().int(),
    top_up: z.number().int(),
    limited_by: z.enum(['small_donations', 'annual_limit', 'matching_rule']),
    claims: z.array(
      z.object({
        _id: z.string(),
        donations: z.number().int(),
        top_up: z.number().int(),
        gift_count: z.number().int(),
        status: z.string(),
        created_at: z.string(),
      }),
    ),
  })
  .openapi('GasdsPosition');
export type GasdsDto = z.infer<typeof GasdsSchema>;

export const AccountingYearEnd = z
  .string({ error: 'accounting_year_end: a day like 03-31 (month-day)' })
  .refine(isAccountingYearEnd, 'accounting_year_end: a day like 03-31 (month-day; not 02-29)');

/**
 * Gift Aid fields of a gift recorded by hand, shared by manual gifts (POST/PUT /api/donations) and
 * batch lines: how it was paid (cash and contactless can count for GASDS) and whether the donor
 * received a benefit above HMRC's limits (the gift is then never eligible).
 */
export const OfflineGiftFields = {
  method: z.enum(BATCH_METHODS, { error: `method: one of ${BATCH_METHODS.join(', ')}` }).optional(),
  benefit_exceeds_limit: z.boolean({ error: 'benefit_exceeds_limit: must be true or false' }).optional(),
};
export type OfflineGiftInput = { method?: BatchMethod; benefit_exceeds_limit?: boolean };
