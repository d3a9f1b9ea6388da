/**
 * The charity's back office: how offline income arrives, why money goes back, and the rows that
 * record it. The ledger rule: a recorded gift is never edited into another amount; refunds,
 * reversals and lost disputes are rows of their own linked to it (docs/decisions/031).
 */
import { ONLINE_PAYMENT_METHODS } from './statuses';

/** Methods a batch of offline income can be entered with: every way of paying but the payment provider's. */
export const BATCH_METHODS = [
  'cheque',
  'cash',
  'contactless',
  'bank_transfer',
  'standing_order',
  'charity_voucher',
  'other',
] as const;
export type BatchMethod = (typeof BATCH_METHODS)[number];

/** How a gift was paid: online through the payment provider (`card`, `bacs_debit`), or offline. */
export const PAYMENT_METHODS = [...ONLINE_PAYMENT_METHODS, ...BATCH_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What people read for each method (screens, exports). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  bacs_debit: 'Direct Debit',
  cheque: 'Cheque',
  cash: 'Cash',
  contactless: 'Contactless',
  bank_transfer: 'Bank transfer',
  standing_order: 'Standing order',
  charity_voucher: 'Charity voucher',
  other: 'Other',
};

/**
 * A row that takes money back off a gift: a `refund` through the payment provider, a `reversal` of
 * offline income (bounced cheque, entered in error, returned to donor), or a lost `dispute`.
 */
export const REVERSAL_KINDS = ['refund', 'reversal', 'dispute'] as const;
export type ReversalKind = (typeof REVERSAL_KINDS)[number];

/** Reasons for reversing offline income. */
export const OFFLINE_REVERSAL_REASONS = ['bounced_cheque', 'entered_in_error', 'returned_to_donor'] as const;
/** Reasons Stripe takes for a Refund (its `reason`), plus `other`. */
export const CARD_REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;
export const REVERSAL_REASONS = [...CARD_REFUND_REASONS, ...OFFLINE_REVERSAL_REASONS, 'dispute_lost'] as const;
export type ReversalReason = (typeof REVERSAL_REASONS)[number];

/** A refund is `pending` until the provider confirms it; only `succeeded` rows count against a gift. */
export const REVERSAL_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type ReversalStatus = (typeof REVERSAL_STATUSES)[number];

/** A dispute (or the inquiry before one, `warning_*`) the charity may still answer or is waiting on. */
const OPEN_DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'needs_response',
  'under_review',
] as const;
/** Stripe's dispute statuses, kept as Stripe sends them. */
export const DISPUTE_STATUSES = [...OPEN_DISPUTE_STATUSES, 'warning_closed', 'won', 'lost', 'prevented'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const isOpenDispute = (status: string) => (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);

export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A campaign row is either a campaign/appeal or an organization's general (unrestricted) fund. */
export const CAMPAIGN_KINDS = ['campaign', 'general_fund'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/** What the audit log records a change to. */
export const AUDIT_TARGETS = [
  'donation',
  'reversal',
  'batch',
  'declaration',
  'claim',
  'gasds_claim',
  'organization',
  'user',
  'campaign',
  'monthly_gift',
  'payout',
  'dispute',
  'template_cause',
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/**
 * Nominal codes the accounts journal uses when neither the campaign (fund) nor its organization
 * names one. Sage 50's standard chart numbering, which most UK charity charts follow; an
 * organization sets its own codes to match its chart of accounts.
 */
/**
 * Stripe balance transaction types that are Stripe charging the account itself, with no gift behind
 * them: the journal posts these, and only these, of a payout's lines that match no gift, as fees
 * (decision 079). A line matching no gift of any other type (a payment made outside the app, a
 * refund or dispute not recorded, a reserve, a failed payout's money coming back) is shown on the
 * payout's page as unmatched, never guessed into the books.
 */
export const STRIPE_CHARGE_TYPES = ['stripe_fee', 'stripe_fx_fee', 'tax_fee', 'network_cost', 'contribution'] as const;

export const DEFAULT_NOMINAL_CODES = {
  /** Donations to a restricted fund (a campaign or appeal). */
  restrictedIncome: '4000',
  /** Donations to the general (unrestricted) fund. */
  unrestrictedIncome: '4010',
  /** Payment provider fees (Sage's "Bank charges and interest"). */
  fees: '7900',
  /** Stripe clearing: card and Bacs gifts wait here until a payout reaches the bank. */
  clearing: '1210',
  /** The bank current account: offline income is banked straight into it. */
  bank: '1200',
} as const;

/** A nominal (account) code: Xero's account codes are at most 10 letters and digits, Sage's nominal codes digits. */
export const NOMINAL_CODE_MAX_LENGTH = 10;

/**
 * The one rule for a nominal code an organization or campaign sets (docs/decisions/035): 1-10
 * letters, digits, '-' and '.', starting with a letter or digit (so no CSV cell can read as a
 * formula). Empty clears the code back to the default. Answers why a code is refused, or null.
 */
export function nominalCodeProblem(code: string): string | null {
  const trimmed = code.trim();
  if (trimmed === '') return null;
  if (trimmed.length > NOMINAL_CODE_MAX_LENGTH)
    return `Use at most ${NOMINAL_CODE_MAX_LENGTH} characters, as in your chart of accounts (e.g. 4000)`;
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(trimmed))
    return 'Use letters, digits, "-" and "." only, starting with a letter or digit, as in your chart of accounts (e.g. 4000)';
  return null;
}

/** A stored nominal code: trimmed, or null (the default) when empty. */
export const nominalCodeOf = (code: string | null | undefined): string | null => code?.trim() || null;

/** The organization's four codes as the API names them, with the default each falls back to and what it is for. */
export const ORGANIZATION_NOMINAL_CODES = {
  income_code: {
    label: 'Income code',
    defaultsTo: `${DEFAULT_NOMINAL_CODES.restrictedIncome} for restricted funds, ${DEFAULT_NOMINAL_CODES.unrestrictedIncome} for the general fund`,
    placeholder: `${DEFAULT_NOMINAL_CODES.restrictedIncome} / ${DEFAULT_NOMINAL_CODES.unrestrictedIncome}`,
    purpose: 'Donation income of every fund without a code of its own',
  },
  fee_code: {
    label: 'Fees code',
    defaultsTo: DEFAULT_NOMINAL_CODES.fees,
    placeholder: DEFAULT_NOMINAL_CODES.fees,
    purpose: "The payment provider's fees",
  },
  clearing_code: {
    label: 'Stripe clearing code',
    defaultsTo: DEFAULT_NOMINAL_CODES.clearing,
    placeholder: DEFAULT_NOMINAL_CODES.clearing,
    purpose: 'Card and Direct Debit gifts until Stripe pays them out',
  },
  bank_code: {
    label: 'Bank code',
    defaultsTo: DEFAULT_NOMINAL_CODES.bank,
    placeholder: DEFAULT_NOMINAL_CODES.bank,
    purpose: 'Offline income paid in (in Xero, a clearing account: Xero takes no journals on a Bank account)',
  },
} as const;
export type OrganizationNominalCode = keyof typeof ORGANIZATION_NOMINAL_CODES;
export const ORGANIZATION_NOMINAL_CODE_FIELDS = Object.keys(ORGANIZATION_NOMINAL_CODES) as OrganizationNominalCode[];

/** The codes an organization's journal posts to: its own, or the default of each (both income defaults when unset). */
export function journalCodesOf(
  org: Partial<Record<OrganizationNominalCode, string | null>> | null,
): Record<OrganizationNominalCode, string> {
  return Object.fromEntries(
    ORGANIZATION_NOMINAL_CODE_FIELDS.map((field) => [
      field,
      org?.[field] || ORGANIZATION_NOMINAL_CODES[field].placeholder,
    ]),
  ) as Record<OrganizationNominalCode, string>;
}

/** Methods paid through the payment provider (net of its fee into the clearing account). */
export const PROVIDER_METHODS = ['card', 'bacs_debit'] as const satisfies readonly PaymentMethod[];

/**
 * The payment provider's fee on a gift, pence, as the accounts journal counts it: what Stripe reported
 * for a gift paid through it (a null method is an older card or demo gift), or null while Stripe has
 * not reported it; 0 for offline and hand-recorded gifts, which no provider charged for.
 */
export function providerFeeOf(gift: { method: string | null; source: string; feePence: number | null }): number | null {
  const throughProvider =
    (PROVIDER_METHODS as readonly string[]).includes(gift.method ?? '') ||
    (gift.method === null && (gift.source === 'card' || gift.source === 'demo'));
  return throughProvider ? gift.feePence : 0;
}

/** Xero's tax rate for lines outside the scope of VAT (donations, transfers between accounts). */
export const JOURNAL_TAX_RATE = 'No VAT';

/** Xero imports at most this many lines in one manual journal file (Xero's "Import manual journals" help). */
export const XERO_JOURNAL_MAX_LINES = 300;

export const JOURNAL_FORMATS = ['xero', 'sage'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** Card processing as Stripe prices standard UK cards: 1.5% + 20p. The platform keeps nothing. */
export const CARD_FEE_PERCENT = 1.5;
export const CARD_FEE_FIXED_PENCE = 20;

/** The card processing fee on a gift, whole pence rounded to the nearest penny. */
export function cardFeeOn(pence: number): number {
  return Math.round((pence * CARD_FEE_PERCENT) / 100) + CARD_FEE_FIXED_PENCE;
}
