import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import type { AfterAnswer } from '../../lib/after-answer';
import type { Statement } from '../../services/donations/record';
import type { MailContext } from '../../services/mail/facts';
import type { ReceiptInBatch } from '../../services/mail/receipt-of-payment';
import type { PaymentProvider } from '../../services/payments/provider';
import type { FeeWanted } from '../../services/payments/settlement';

/**
 * `mail`: where receipts and notices go after the event is recorded (absent: none are sent).
 * `payments`: the provider asked for what must follow at Stripe (absent: nothing is asked).
 * `afterAnswer`: runs the receipts, notices and Stripe's fee look-up after the webhook's answer
 * (absent: the fee is looked up before the batch and the emails are sent before the answer).
 */
export type WebhookContext = {
  db: Db;
  stripe: Stripe | null;
  mail?: MailContext;
  payments?: PaymentProvider;
  afterAnswer?: AfterAnswer;
};

/**
 * A paid gift's writes and what they recorded: the gift (and its appeal), so that what follows the
 * batch (the receipt, the fundraiser's notice) needs no read to find it again. `receipt`: the
 * receipt's outbox row is one of `writes` (`statement`); it is sent after the batch if the batch wrote it.
 */
export type RecordedGift = {
  writes: Statement[];
  gift: {
    donationId: string;
    appealId: string | null;
    receipt?: ReceiptInBatch & { statement: Statement };
    /** Stripe's fee, to be looked up and stored after the answer (not one of `writes`). */
    fee?: FeeWanted;
  };
};

/** The writes an event needs (run in one batch with the event id), or 'ignore' when it is not ours. */
export type EventHandler = (ctx: WebhookContext, event: Stripe.Event) => Promise<Statement[] | RecordedGift | 'ignore'>;
