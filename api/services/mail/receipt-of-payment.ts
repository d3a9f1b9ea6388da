import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaigns, checkoutDetails, type donations, organizations, outbox, users } from '../../../db/schema';
import type { Statement } from '../donations/record';
import { charityFromOrganization, identityColumns } from '../organizations/charity';
import type { MailContext } from './facts';
import { createMailer, type MailMessage } from './mailer';
import { receiptEmail } from './receipt';

type DonationRow = typeof donations.$inferSelect;

/** Statuses a success settles (as record.ts's `settle`): the gift is `succeeded` after the batch. */
const UNSETTLED = new Set(['pending', 'failed', 'abandoned', 'processing']);

/** A receipt written by the recording batch: its message and the outbox row's id. */
export type ReceiptInBatch = { outboxId: string; message: MailMessage };

/**
 * A one-off card gift's receipt, rendered before the gift is recorded so that its outbox row joins
 * the recording batch: one write transaction a gift instead of two. The facts the batch does not
 * change (donor, names, cause, charity) are read here in one read; the ones it does (status, date,
 * amount) follow from the stored row and the payment exactly as the batch's upsert derives them.
 * Null when this gift's receipt is not that simple (no stored row, a monthly or Direct Debit gift,
 * an erased donor, a gift the payment does not settle, no way to send email): the receipt is then
 * sent after the batch from what it stored, as every other email is.
 */
export async function receiptBeforeRecording(
  mail: MailContext,
  stored: DonationRow | undefined,
  payment: { paymentIntentId: string; amount: number; date: Date },
): Promise<MailMessage | null> {
  if (!stored || stored.type !== 'once' || stored.paymentMethod === 'bacs_debit') return null;
  if (stored.paymentIntentId !== payment.paymentIntentId) return null;
  const settles = UNSETTLED.has(stored.status);
  if (!settles && stored.status !== 'succeeded') return null;
  if (!createMailer(mail.db, mail.config).stores) return null;
  const ids = [stored.campaignId, stored.appealId].filter((x): x is string => !!x);
  const rows = await mail.db
    .select({
      id: campaigns.id,
      title: campaigns.title,
      org: campaigns.organizationId,
      identity: identityColumns,
      email: users.email,
      firstName: users.firstName,
      erasedAt: users.erasedAt,
      typedFirstName: checkoutDetails.firstName,
    })
    .from(campaigns)
    .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
    .leftJoin(users, eq(users.id, sql`${stored.donorId}`))
    .leftJoin(checkoutDetails, eq(checkoutDetails.donationId, sql`${stored.id}`))
    .where(inArray(campaigns.id, ids));
  const campaign = rows.find((r) => r.id === stored.campaignId);
  if (!campaign?.email || campaign.erasedAt) return null;
  const appeal = stored.appealId ? rows.find((r) => r.id === stored.appealId) : undefined;
  return receiptEmail({
    donationId: stored.id,
    amount: payment.amount,
    refundedAmount: stored.refundedAmount,
    date: settles ? payment.date : stored.date,
    status: 'succeeded',
    type: 'once',
    source: stored.source,
    reference: stored.invoiceId ?? payment.paymentIntentId,
    campaignTitle: campaign.title ?? 'our work',
    appealTitle: appeal?.title ?? null,
    charity: campaign.org ? charityFromOrganization(campaign.identity, mail.config) : mail.config.charity,
    giftAid: stored.giftAid,
    // As giftFacts: the name typed with the gift, else the account's.
    donor: { email: campaign.email, firstName: campaign.typedFirstName || campaign.firstName || null, erased: false },
    monthly: null,
    directDebit: null,
  });
}

/**
 * The receipt's outbox row as a statement of the recording batch: guarded like the gift's own
 * writes (a replay's batch writes nothing) and keyed (a receipt already written stays the only one).
 * The batch's result for it says whether this delivery wrote it, and so must send it.
 */
export function receiptOutboxStatement(db: Db, guard: SQL, message: MailMessage, outboxId: string): Statement {
  return db
    .insert(outbox)
    .select(
      sql`select ${outboxId}, ${message.to}, ${message.subject}, ${message.text}, ${message.html}, null, ${message.key ?? null}, ${Date.now()} where ${guard}`,
    )
    .onConflictDoNothing({ target: outbox.key })
    .returning({ id: outbox.id });
}

/** True when the batch's result for the receipt's statement holds the row it wrote. */
export const receiptWritten = (result: unknown) => Array.isArray(result) && result.length > 0;

/** Sends a receipt whose outbox row the recording batch wrote. */
export async function transmitReceipt(mail: MailContext, receipt: ReceiptInBatch) {
  await createMailer(mail.db, mail.config).transmit(receipt.outboxId, receipt.message);
}
