import { z } from '@hono/zod-openapi';
import { createSelectSchema } from 'drizzle-zod';
import { campaigns, donations, organizations, templateCauses, users } from '../../db/schema';
import { ORGANIZATION_NOMINAL_CODES as CODES, PAYMENT_METHODS } from '../../domain/finance';
import { ErasureSchema } from './consent';

/**
 * The API's response shapes, one place. Enums and column types come from the Drizzle
 * tables through drizzle-zod; the snake_case DTO shapes are declared here and checked against every
 * answer outside production (api/lib/openapi.ts checkResponse). The typed client (src/lib/api.ts)
 * gets its types from these through hc<AppType>; nothing on the browser side copies them.
 */

const campaignRow = createSelectSchema(campaigns).shape;
const donationRow = createSelectSchema(donations).shape;
const userRow = createSelectSchema(users).shape;
const organizationRow = createSelectSchema(organizations).shape;
const templateCauseRow = createSelectSchema(templateCauses).shape;

export const OptionSchema = z
  .object({ label: z.string(), value: z.string() })
  .openapi('Option', { description: 'A select option: a label and the id it stands for' });

export const AddressSchema = z
  .object({
    address: z.string().nullable(),
    city: z.string().nullable(),
    province: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
  })
  .openapi('Address');

export const StoredImageSchema = z
  .object({
    Key: z.string(),
    name: z.string(),
    size: z.number().int(),
    type: z.string(),
    url: z.string(),
    variants: z
      .array(z.number().int())
      .optional()
      .openapi({ description: 'Widths of the WebP copies served at `<url>@<width>.webp` (responsive images)' }),
  })
  .openapi('CampaignImage');

export const CampaignSchema = z
  .object({
    _id: campaignRow.id,
    short_id: z.string().openapi({ description: 'The id in the short form used in page URLs' }),
    kind: z.enum(['campaign', 'appeal']),
    title: campaignRow.title,
    description: campaignRow.description,
    story: campaignRow.story,
    video: campaignRow.video,
    date: z.object({ from: campaignRow.dateFrom, to: campaignRow.dateTo }).openapi({
      description:
        'YYYY-MM-DD, inclusive: `from` is the first London day that takes gifts (none: open now), `to` the last (none: never ends)',
    }),
    campaign_date_from: campaignRow.dateFrom.openapi({
      description:
        "An appeal's campaign's start date (YYYY-MM-DD): giving to the appeal opens with it too; null for a campaign",
    }),
    campaign_date_to: campaignRow.dateTo.openapi({
      description:
        "An appeal's campaign's end date (YYYY-MM-DD): giving to the appeal ends with it too; null for a campaign",
    }),
    campaign_status: campaignRow.status.nullable().openapi({
      description:
        "An appeal's campaign's status: the appeal shows and takes gifts only while it is approved; null for a campaign",
    }),
    goal: campaignRow.goal.openapi({ description: 'Pence' }),
    images: z.array(StoredImageSchema),
    organization_id: campaignRow.organizationId,
    campaign_id: campaignRow.campaignId.openapi({
      description: 'The parent campaign of an appeal; null for a campaign',
    }),
    status: campaignRow.status,
    sponsored_event: z.boolean().openapi({
      description: 'A sponsored event: its gifts say "Yes" on the Gift Aid schedule and are never aggregated',
    }),
    created_by: z.object({ first_name: z.string(), last_name: z.string() }),
    summary: z.object({
      total_donations: z.number().int().openapi({ description: 'Pence raised, net of refunds' }),
      donation_count: z.number().int(),
      gift_aid: z
        .number()
        .int()
        .openapi({ description: 'Pence of Gift Aid on the eligible gifts, net of refunds (25%)' }),
    }),
    created_at: z.string(),
    can_edit: z
      .boolean()
      .optional()
      .openapi({ description: 'Answered to signed-in callers: whether they may edit this item' }),
    income_code: campaignRow.incomeCode.optional().openapi({
      description:
        "Answered to those who may set it (its organization's admins and finance users, admins): the fund's income nominal code in the accounts journal; null: the organization's",
    }),
  })
  .openapi('Campaign');

export const CampaignTitleSchema = z
  .object({
    _id: campaignRow.id,
    title: campaignRow.title,
    organization_id: z.string().nullable(),
    /** Its giving days, so the appeal editor can say what they mean for an appeal under it (decision 062). */
    date: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  })
  .openapi('CampaignTitle');

export const TemplateCauseSchema = z
  .object({
    _id: templateCauseRow.id,
    title: templateCauseRow.title,
    description: templateCauseRow.description,
    story: templateCauseRow.story.openapi({ description: '[[name]] is replaced by the fundraiser’s full name' }),
    image: templateCauseRow.image,
    campaign_id: z.string().nullable().openapi({
      description:
        'The campaign an appeal from this cause raises for, when the charity chose one; the editor selects it',
    }),
    campaign_title: z.string().nullable().openapi({
      description:
        'The title of `campaign_id` while it is on the site and takes appeals (the cause’s card names it); null otherwise',
    }),
    appeals_started: z.number().int().optional().openapi({
      description: 'Only in the admins’ list (retired=true): the appeals started from it that are not deleted',
    }),
    retired_at: z.string().nullable().openapi({
      description:
        'When the charity stopped offering it (only in the admins’ list with retired=true); null while offered',
    }),
  })
  .openapi('TemplateCause');

export const DonationSchema = z
  .object({
    _id: donationRow.id,
    amount: donationRow.amount.openapi({ description: 'Pence' }),
    refunded_amount: donationRow.refundedAmount.openapi({ description: 'Pence refunded so far' }),
    date: z.string(),
    status: donationRow.status,
    type: donationRow.type,
    gift_aid: z.boolean(),
    source: donationRow.source,
    payment_method: z.enum(PAYMENT_METHODS).nullable().openapi({
      description:
        'How it was paid: card or bacs_debit (Direct Debit) online; cheque, cash, contactless, bank_transfer, standing_order, charity_voucher or other for gifts the office entered; null for a gift recorded by hand without one',
    }),
    bank_last4: z
      .string()
      .nullable()
      .openapi({ description: 'Direct Debit: the last four digits of the bank account' }),
    subscription_id: z.string().nullable().openapi({ description: 'The monthly gift this payment belongs to' }),
    donor: OptionSchema,
    campaign: OptionSchema,
    appeal: OptionSchema.nullable(),
  })
  .openapi('Donation');

export const GivingSummarySchema = z
  .object({
    total: z.number().int().openapi({ description: 'Pence given, net of refunds' }),
    count: z.number().int(),
    monthly: z.number().int(),
    last_date: z.string().nullable(),
  })
  .openapi('GivingSummary');

export const TopDonorSchema = z
  .object({
    donor: z.string().openapi({ description: 'Public display name, "First L."; never an email' }),
    count: z.number().int(),
    total: z.number().int().nullable().openapi({ description: 'Pence; null when the donor chose to hide the amount' }),
  })
  .openapi('TopDonor');

/** Who an account is, as every answer about a person starts (the signed-in user, a donor). */
const AccountSchema = z.object({
  _id: userRow.id,
  email: userRow.email,
  name: z.object({ first_name: z.string(), last_name: z.string() }),
});

export const DonorSchema = AccountSchema.extend({
  phone: userRow.phone,
  image: userRow.avatar,
  image_url: z.string().nullable(),
  type: userRow.type,
  address: AddressSchema,
  org_ids: z.array(z.string()),
  /** Set once the donor's account was erased: name and contact details are blank. */
  erased_at: z.string().nullable(),
  /** The donor's latest request to delete their account and its outcome, for admins. */
  erasure: ErasureSchema.nullable(),
}).openapi('Donor');

export const UserSchema = AccountSchema.extend({
  type: userRow.type,
  avatar: z.string().nullable(),
  org_ids: z.array(z.string()),
}).openapi('User', { description: 'The signed-in user' });

export const OrganizationSchema = z
  .object({
    _id: organizationRow.id,
    name: organizationRow.name,
    image: organizationRow.image,
    image_url: z.string().nullable(),
    email: organizationRow.email,
    phone: organizationRow.phone,
    charity_number: organizationRow.charityNumber,
    legal_name: organizationRow.legalName.openapi({ description: 'Registered legal name; null: the display name' }),
    regulator: organizationRow.regulator.openapi({
      description:
        'ccew: Charity Commission for England and Wales; oscr: Scottish Charity Regulator; ccni: Charity Commission for Northern Ireland',
    }),
    hmrc_reference: organizationRow.hmrcReference.openapi({
      description: 'HMRC charity reference for Gift Aid claims',
    }),
    accounting_year_end: z.string().openapi({
      description:
        'MM-DD: the last day of the accounting year (04-05 = the tax year); Gift Aid aggregates within one period',
    }),
    address: AddressSchema,
    admins: z.array(OptionSchema),
    appeals_need_approval: z
      .boolean()
      .openapi({ description: 'New appeals under this organization start as drafts until an admin approves them' }),
    income_code: organizationRow.incomeCode.openapi({
      description: `Accounts journal: ${CODES.income_code.purpose.toLowerCase()}; null: ${CODES.income_code.defaultsTo}`,
    }),
    fee_code: organizationRow.feeCode.openapi({
      description: `Accounts journal: ${CODES.fee_code.purpose.toLowerCase()}; null: ${CODES.fee_code.defaultsTo}`,
    }),
    clearing_code: organizationRow.clearingCode.openapi({
      description: `Accounts journal: ${CODES.clearing_code.purpose.toLowerCase()}; null: ${CODES.clearing_code.defaultsTo}`,
    }),
    bank_code: organizationRow.bankCode.openapi({
      description: `Accounts journal: ${CODES.bank_code.purpose.toLowerCase()}; null: ${CODES.bank_code.defaultsTo}`,
    }),
  })
  .openapi('Organization');

export const MonthlyPriceSchema = z
  .object({
    id: z.string(),
    unit_amount: z.number().int().openapi({ description: 'Pence a month' }),
    currency: z.string(),
    recurring: z.object({ interval: z.literal('month') }),
  })
  .openapi('MonthlyPrice');

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');

export type Campaign = z.infer<typeof CampaignSchema>;
export type Donation = z.infer<typeof DonationSchema>;
export type Donor = z.infer<typeof DonorSchema>;
export type Organization = z.infer<typeof OrganizationSchema>;
export type User = z.infer<typeof UserSchema>;
export type TopDonor = z.infer<typeof TopDonorSchema>;
export type AddressDto = z.infer<typeof AddressSchema>;
export type DonationDto = Donation;
export type DonorDto = Donor;
export type OrganizationDto = Organization;
export type UserDto = User;
