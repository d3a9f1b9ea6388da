import { formatPence, giftAidOn } from '../../../../domain/money';
import {
  CARD_REFUND_REASONS,
  isOpenDispute,
  OFFLINE_REVERSAL_REASONS,
  PAYMENT_METHOD_LABELS,
  type ReversalReason,
} from '../../../../domain/finance';

/** Words the donation page uses for the API's codes. */
const METHODS: Record<string, string> = PAYMENT_METHOD_LABELS;

export const methodLabel = (method: string | null | undefined, bankLast4?: string | null) => {
  if (!method) return 'Not recorded';
  if (method === 'bacs_debit' && bankLast4) return `Direct Debit from the account ending ${bankLast4}`;
  return METHODS[method] ?? method.replace(/_/g, ' ');
};

export const sourceLabel = (source: string) =>
  source === 'batch'
    ? 'Batch (paying-in slip)'
    : source === 'manual'
      ? 'Entered by hand'
      : source === 'demo'
        ? 'Online (demo payments)'
        : 'Online';

export const REASON_LABELS: Record<ReversalReason, string> = {
  requested_by_customer: 'Requested by the donor',
  duplicate: 'Duplicate payment',
  fraudulent: 'Fraudulent',
  other: 'Other',
  bounced_cheque: 'Bounced cheque',
  entered_in_error: 'Entered in error',
  returned_to_donor: 'Returned to donor',
  dispute_lost: 'Dispute lost',
};
export const reasonLabel = (reason: string) => REASON_LABELS[reason as ReversalReason] ?? reason.replace(/_/g, ' ');

/** What staff may choose: a card or Direct Debit gift goes back through Stripe; offline income is reversed. */
export const reasonsFor = (offline: boolean) =>
  (offline ? OFFLINE_REVERSAL_REASONS : CARD_REFUND_REASONS).map((r) => ({ value: r, label: REASON_LABELS[r] }));

const DISPUTE_REASONS: Record<string, string> = {
  fraudulent: 'Fraudulent',
  duplicate: 'Duplicate',
  product_not_received: 'Not received',
  subscription_canceled: 'Monthly gift cancelled',
  unrecognized: 'Unrecognised',
  credit_not_processed: 'Refund not made',
  general: 'General',
};
export const disputeReasonLabel = (reason: string) => DISPUTE_REASONS[reason] ?? reason.replace(/_/g, ' ');
export const statusLabel = (status: string) => status.replace(/_/g, ' ');

export const statusTone = (status: string): 'ok' | 'warn' | 'danger' | 'muted' =>
  status === 'succeeded' || status === 'won'
    ? 'ok'
    : status === 'pending' || status === 'processing' || isOpenDispute(status)
      ? 'warn'
      : status === 'failed' || status === 'lost'
        ? 'danger'
        : 'muted';

/** An audit action ("donation.refund") in words. */
const ACTIONS: Record<string, string> = {
  'donation.create': 'Recorded the gift',
  'donation.update': 'Edited the gift',
  'donation.refund': 'Refunded',
  'donation.reverse': 'Reversed',
  'donation.gift_aid_verify': 'Verified Gift Aid',
  'donation.receipt_resent': 'Emailed the receipt again',
};
export const actionLabel = (action: string) => ACTIONS[action] ?? action.replace(/[._]/g, ' ');

const isMoneyField = (field: string) =>
  field === 'amount' ||
  field.endsWith('_pence') ||
  field.endsWith('Pence') ||
  field === 'refunded_amount' ||
  field === 'refundedAmount';

/** A before/after value of the audit log, short and readable: pence as pounds, ids left out of records. */
export function auditValue(value: unknown, field = ''): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && isMoneyField(field)) return formatPence(value);
  if (Array.isArray(value)) return value.map((v) => auditValue(v)).join(', ');
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== 'id' && !key.endsWith('_id'))
      .map(
        ([key, v]) =>
          `${key.replace(/_/g, ' ')} ${key === 'reason' && typeof v === 'string' ? reasonLabel(v).toLowerCase() : auditValue(v, key)}`,
      );
    return parts.join(', ') || 'recorded';
  }
  return String(value);
}

/**
 * The Claim fact of a gift in no claim. A Gift Aid gift under a declaration says what is left to claim,
 * on what remains after refunds (a claim takes only that); a gift that all went back says nothing will be.
 */
export function notClaimedLabel(gift: { requested: boolean; declared: boolean; amount: number; remaining: number }) {
  if (!gift.requested) return 'Not claimed';
  if (gift.remaining <= 0) return 'Nothing to claim: all of the gift went back';
  if (!gift.declared) return 'Not claimed';
  const left = `${formatPence(giftAidOn(gift.remaining))} to claim`;
  return gift.remaining < gift.amount
    ? `Not claimed yet: ${left} on the ${formatPence(gift.remaining)} that remains`
    : `Not claimed yet: ${left}`;
}

/** What a claim holds of a gift: the amount on HMRC's schedule, and the Gift Aid that amount brings (never one for the other). */
export const claimedLabel = (schedulePence: number) =>
  `${formatPence(schedulePence)} of the gift on its schedule, ${formatPence(giftAidOn(schedulePence))} Gift Aid`;
