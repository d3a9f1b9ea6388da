import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import type { donations } from '../../../db/schema';
import type { ReversalReason } from '../../../domain/finance';
import type { Donor, PendingDonation } from '../donations/pending';
import type { MonthlyGiftRow } from '../monthly-gifts/records';

/**
 * The one seam between the app and whoever takes the money: Stripe when its keys are set, else
 * demo payments. Chosen once per request from configuration (createPaymentProvider) and put on
 * c.var.payments; services ask it, never the configuration, what to do.
 */

export type PaymentMode = 'stripe' | 'demo';

/** What opening a checkout needs: the pending gift (already validated) and who gives it. */
export type OpenPaymentRequest = {
  pending: PendingDonation;
  donor: Donor;
  /** Monthly gifts: the Stripe Price id of the chosen amount. */
  priceId: string | null;
  /** The line in Stripe's dashboard and on card receipts. */
  description: string;
  /** The charity's name, which a Direct Debit shows on the donor's bank statement. */
  statementName: string;
};

export type OpenedPayment = {
  clientSecret: string;
  paymentIntentId: string | null;
  invoiceId: string | null;
  subscriptionId: string | null;
};

export type SubscriptionChange =
  | { kind: 'cancel'; by: string }
  | { kind: 'price'; price: { id: string; unit_amount: number } }
  | { kind: 'pause'; resumesAt: number }
  | { kind: 'resume' };

/**
 * How a subscription change is recorded: Stripe's answer is stored at once (its webhook confirms
 * it later); a demo change arrives as the event Stripe would have sent.
 */
export type SubscriptionChangeResult = { answer: Stripe.Subscription } | { event: Stripe.Event };

/** A refund to make at the provider: our reversal row's id keeps a retried request one refund. */
export type RefundRequest = {
  gift: typeof donations.$inferSelect;
  reversalId: string;
  amount: number;
  reason: ReversalReason;
  /**
   * The same refund asked again after Stripe did not answer: Stripe replays its first answer to a
   * key for a day (a 500 included), so the provider first looks for the refund it may have made.
   */
  again?: boolean;
};

/**
 * The refund as the event that records it (Stripe's answer, or the event a demo refund would send);
 * or why nothing was refunded (the HTTP status and message to answer, and the note for the reversal);
 * or `unsure`: no answer came (a timeout, Stripe's own 500), so the refund may have been made.
 */
export type RefundOutcome =
  | { event: Stripe.Event }
  | { refused: { status: 502 | 503; message: string; note: string } }
  | { unsure: { message: string; note: string } };

export type CheckoutStopOutcome = 'cancelled' | 'paid' | 'unknown';

export interface PaymentProvider {
  readonly mode: PaymentMode;
  /** For the browser's Payment Element; null in demo mode. */
  readonly publishableKey: string | null;
  /** Stripe's API for the webhook handlers' look-ups; null when there is no account to ask. */
  readonly api: Stripe | null;
  /** The donation source of the gifts it opens. */
  readonly source: 'card' | 'demo';
  /** Throws HttpError 503 when this server cannot take payments (production without Stripe keys). */
  assertReady(): void;
  /** Donation sources whose checkouts live at this provider and must be stopped there. */
  readonly remoteSources: readonly ('card' | 'demo' | 'manual')[];
  /** The provider for a gift recorded with this source (a demo gift stays demo on a Stripe server). */
  forSource(source: string): PaymentProvider;
  /** Opens the payment the browser confirms; throws HttpError when it cannot. */
  openPayment(
    request: OpenPaymentRequest,
    saveCustomerId: (customerId: string) => Promise<string>,
  ): Promise<OpenedPayment>;
  changeSubscription(gift: MonthlyGiftRow, change: SubscriptionChange): Promise<SubscriptionChangeResult>;
  /** Stops a checkout that was never paid (housekeeping). */
  stopCheckout(row: typeof donations.$inferSelect): Promise<CheckoutStopOutcome>;
  /** Deletes an expired donor's Customer; a missing one counts as deleted. */
  deleteCustomer(customerId: string): Promise<'deleted' | 'missing'>;
  /**
   * Events that settle payments still processing which nobody else will report: demo Direct Debits
   * (Stripe sends its own). Housekeeping records them through the webhook's path.
   */
  delayedSettlements(db: Db, limit: number): Promise<Stripe.Event[]>;
  /** Where a donor updates the card of a monthly gift, or null when there is no card on file. */
  cardUpdateUrl(customerId: string, returnUrl: string): Promise<string | null>;
  /**
   * Cancels a subscription we already recorded as cancelled (a Direct Debit mandate cancelled at the
   * bank), unless it is cancelled there already: 'already' then, so a repeated event calls nothing.
   */
  stopSubscription(subscriptionId: string, by: string): Promise<'cancelled' | 'already'>;
  /** Refunds part or all of a card or demo gift; the caller records the event through the webhook's path. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Whether this server settles demo checkouts itself (POST /api/donations/demo-confirm). */
  readonly confirmsDemoPayments: boolean;
  /** Whether a monthly gift's card lives at the provider, where the donor can update it. */
  readonly keepsCardOnFile: boolean;
  /**
   * Pays out settled gifts the provider does not pay out itself (demo payments, once a day);
   * how many payouts it made. Stripe pays out by itself and reports it by webhook (payout.paid).
   */
  payOutSettled(db: Db, now: Date): Promise<number>;
}
