import { eq, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { preparedRead } from '../../../db/prepared';
import { appealOfGift, appeals, campaignOfGift, donorOfGift } from '../../../db/gift-joins';
import { campaigns, checkoutDetails, donations, organizations, outbox, users } from '../../../db/schema';
import type { Statement } from '../donations/record';
import { identityColumns } from '../organizations/charity';
import { causeFrom, greetedName, type MailContext } from './facts';
import { createMailer, type MailMessage } from './mailer';
import { receiptEmail } from './receipt';

/** Statuses a success settles (as record.ts's `settle`): the gift is `succeeded` after the batch. */
const UNSETTLED = new Set(['pending', 'failed', 'abandoned', 'processing']);

/** A receipt written by the recording batch: its message and the outbox row's id. */
export type ReceiptInBatch = { outboxId: string; message: MailMessage };

/**
 * The rows of a payment's gift, by id or PaymentIntent (usually the same row), each with what its receipt says about the donor and the cause: one read for both.
 */
function giftsWithReceiptFactsQuery(db: Db) {
  return db
    .select({
      row: donations,
      email: users.email,
      firstName: users.firstName,
      erasedAt: users.erasedAt,
      typedFirstName: checkoutDetails.firstName,
      campaignTitle: campaigns.title,
      org: campaigns.organizationId,
      identity: identityColumns,
      appealTitle: appeals.title,
    })
    .from(donations)
    .leftJoin(users, donorOfGift)
    .leftJoin(checkoutDetails, eq(checkoutDetails.donationId, donations.id))
    .leftJoin(campaigns, campaignOfGift)
    .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
    .leftJoin(appeals, appealOfGift)
    .where(
      or(eq(donations.id, sql.placeholder('id')), eq(donations.paymentIntentId, sql.placeholder('paymentIntentId'))),
    )
    .limit(2);
}

/** Every gift webhook runs this read: its SQL (six joins, the whole gift row) is built once per database. */
export async function findGiftsWithReceiptFacts(db: Db, id: string, paymentIntentId: string) {
  const rows = await preparedRead(db, 'receipt:gifts-with-facts', () => giftsWithReceiptFactsQuery(db), {
    id,
    paymentIntentId,
  });
  return rows.map(({ row, ...facts }) => ({ row, facts }));
}

export type GiftWithReceiptFacts = Awaited<ReturnType<typeof findGiftsWithReceiptFacts>>[number];

/**
 * A one-off card gift's receipt, rendered before the gift is recorded so that its outbox row joins
 * the recording batch: one write transaction a gift instead of two. The facts the batch does not
 * change (donor, names, cause, charity) come with the gift's read; the ones it does (status, date,
 * amount) follow from the stored row and the payment exactly as the batch's upsert derives them.
 * Null when this gift's receipt is not that simple (no stored row, a monthly or Direct Debit gift,
 * an erased donor, a gift the payment does not settle, no way to send email): the receipt is then
 * sent after the batch from what it stored, as every other email is.
 */
export function receiptBeforeRecording(
  mail: MailContext,
  stored: GiftWithReceiptFacts | undefined,
  payment: { paymentIntentId: string; amount: number; date: Date },
): MailMessage | null {
  if (!stored) return null;
  const { row, facts } = stored;
  if (row.type !== 'once' || row.paymentMethod === 'bacs_debit' || row.paymentIntentId !== payment.paymentIntentId)
    return null;
  const settles = UNSETTLED.has(row.status);
  if (!settles && row.status !== 'succeeded') return null;
  if (!facts.email || facts.erasedAt || !createMailer(mail.db, mail.config).stores) return null;
  // A blank name the batch may fill from the Gift Aid declaration (fillDonorFromDeclaration): that
  // receipt reads it after the batch.
  const firstName = greetedName(facts.typedFirstName, facts.firstName);
  if (!firstName?.trim() && row.giftAidDeclarationId) return null;
  return receiptEmail({
    donationId: row.id,
    amount: payment.amount,
    refundedAmount: row.refundedAmount,
    date: settles ? payment.date : row.date,
    status: 'succeeded',
    type: 'once',
    source: row.source,
    reference: row.invoiceId ?? payment.paymentIntentId,
    ...causeFrom(
      mail.config,
      facts.campaignTitle === null
        ? undefined
        : { title: facts.campaignTitle, org: facts.org, identity: facts.identity },
      row.appealId ? facts.appealTitle : null,
    ),
    giftAid: row.giftAid,
    donor: { email: facts.email, firstName, erased: false },
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
      // Every column in the table's order: id, to, subject, text, html, sent_at, key, created_at, attempts,
      // last_attempt_at, batch_key (a new column needs its value here too).
      sql`select ${outboxId}, ${message.to}, ${message.subject}, ${message.text}, ${message.html}, null, ${message.key ?? null}, ${Date.now()}, 0, null, null where ${guard}`,
    )
    .onConflictDoNothing({ target: outbox.key })
    .returning({ id: outbox.id });
}

/** True when the batch's result for the receipt's statement holds the row it wrote. */
export const receiptWritten = (result: unknown) => Array.isArray(result) && result.length > 0;

/** Sends a receipt whose outbox row the recording batch wrote. */
export async function transmitReceipt(mail: MailContext, receipt: ReceiptInBatch, options?: { gather?: boolean }) {
  await createMailer(mail.db, mail.config).transmit(receipt.outboxId, receipt.message, options);
}
