import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { isUuid } from '../../../domain/ids';
import { preparedRead } from '../../../db/prepared';
import { campaigns, donations, giftAidDeclarations, users, webhookEvents } from '../../../db/schema';
import { giftAidEligibleAt } from '../gift-aid/flag';
import type { PaymentMethod } from '../../../domain/finance';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The one recording path for card gifts: Stripe webhooks and demo confirmations both end here.
 * D1 has no interactive transactions, so every write is a single conditional statement that runs
 * in one `db.batch` with the event-id insert: each write is skipped when the event was already
 * applied, and each is written so that applying it twice, or in any order, ends in the same state.
 */

/** Anything `db.batch` accepts on both engines (query builders, not raw SQL: D1's batch needs them). */
export type Statement = Parameters<Db['batch']>[0][number];

export type Attribution = {
  donationId: string;
  donorId: string;
  campaignId: string;
  appealId: string | null;
  giftAidDeclarationId: string | null;
  source: 'card' | 'demo';
};

/** Our metadata from a PaymentIntent or subscription, or null when the object is not ours. */
export function parseAttribution(
  metadata: Record<string, string> | null | undefined,
  kind: 'one_off' | 'monthly',
): Attribution | null {
  if (!metadata || metadata.kind !== kind) return null;
  const { donation_id, donor_id, campaign_id, appeal_id, gift_aid_declaration_id, source } = metadata;
  if (![donation_id, donor_id, campaign_id].every((id) => typeof id === 'string' && isUuid(id))) return null;
  if (appeal_id && !isUuid(appeal_id)) return null;
  if (gift_aid_declaration_id && !isUuid(gift_aid_declaration_id)) return null;
  return {
    donationId: donation_id.toLowerCase(),
    donorId: donor_id.toLowerCase(),
    campaignId: campaign_id.toLowerCase(),
    appealId: appeal_id ? appeal_id.toLowerCase() : null,
    giftAidDeclarationId: gift_aid_declaration_id ? gift_aid_declaration_id.toLowerCase() : null,
    source: source === 'demo' ? 'demo' : 'card',
  };
}

/** Metadata can outlive rows (another environment on the same Stripe account): never guess. */
export async function attributionExists(db: Db, a: Attribution): Promise<boolean> {
  const [donor] = await db.select({ id: users.id }).from(users).where(eq(users.id, a.donorId)).limit(1);
  const [campaign] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(eq(campaigns.id, a.campaignId))
    .limit(1);
  if (!donor || !campaign) return false;
  if (a.appealId) {
    const [appeal] = await db
      .select({ parent: campaigns.campaignId })
      .from(campaigns)
      .where(eq(campaigns.id, a.appealId))
      .limit(1);
    if (!appeal || appeal.parent !== a.campaignId) return false;
  }
  if (a.giftAidDeclarationId) {
    const [declaration] = await db
      .select({ donorId: giftAidDeclarations.donorId })
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.id, a.giftAidDeclarationId))
      .limit(1);
    if (!declaration || declaration.donorId !== a.donorId) return false;
  }
  return true;
}

type DonationRow = typeof donations.$inferSelect;

/** A stored gift's own attribution: what its later events settle, whatever the metadata says now. */
export function attributionOfRow(row: DonationRow): Attribution {
  return {
    donationId: row.id,
    donorId: row.donorId,
    campaignId: row.campaignId,
    appealId: row.appealId,
    giftAidDeclarationId: row.giftAidDeclarationId,
    source: row.source === 'demo' ? 'demo' : 'card',
  };
}

/**
 * Who a payment event credits. A row already recorded for the payment (by PaymentIntent, invoice,
 * or the metadata's donation id) keeps its attribution, so an appeal moved or metadata gone stale
 * still settles the gift; otherwise the metadata, if it points at rows we have.
 */
export async function resolveAttribution(
  db: Db,
  parsed: Attribution | null,
  ref: { paymentIntentId?: string | null; invoiceId?: string | null },
): Promise<Attribution | null> {
  const row =
    (ref.paymentIntentId ? await findDonationByPaymentIntent(db, ref.paymentIntentId) : null) ??
    (ref.invoiceId ? await findDonationByInvoice(db, ref.invoiceId) : null) ??
    (parsed ? await findDonationById(db, parsed.donationId) : null);
  if (row) return attributionOfRow(row);
  return parsed && (await attributionExists(db, parsed)) ? parsed : null;
}

/** True until this event id is stored; the guard of every write in the event's batch. */
export const notYetApplied = (eventId: string): SQL =>
  sql`not exists (select 1 from webhook_events where id = ${eventId})`;

/** Whether this event id is already stored (a repeat delivery): a primary-key look-up built once per database. */
export async function eventApplied(db: Db, eventId: string): Promise<boolean> {
  const build = () =>
    db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(eq(webhookEvents.id, sql.placeholder('id')))
      .limit(1);
  const [row] = await preparedRead(db, 'webhook:event-applied', build, { id: eventId });
  return Boolean(row);
}

/** The event id, stored last in its batch; its result is `[{ id }]`, or `[]` when a concurrent copy stored it first. */
export function markEventApplied(db: Db, eventId: string, type: string) {
  return db
    .insert(webhookEvents)
    .values({ id: eventId, type })
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
}

/** Whether the batch's `markEventApplied` stored the id (so this delivery, not a concurrent copy, applied the event). */
export const eventMarked = (result: unknown) => Array.isArray(result) && result.length > 0;

type NewRow = {
  id: string;
  /** Stripe `created` of the refund figure (refunded_amount); 0 when none. */
  refundsAsOf?: number;
  amount: number;
  a: Attribution;
  date: number;
  status: 'succeeded' | 'failed' | 'refunded' | 'processing';
  type: 'once' | 'monthly';
  paymentIntentId: string | null;
  invoiceId: string | null;
  subscriptionId: string | null;
  refundedAmount: number;
  failureMessage: string | null;
  /** Card unless the provider says otherwise (a Bacs Direct Debit). */
  method?: PaymentMethod;
  /** Direct Debit details, when the event that makes the row knows them. */
  bacs?: BacsDetails | null;
};

/** What a Direct Debit payment tells us: the bank account's last four digits and its mandate. */
export type BacsDetails = { last4: string | null; mandateId: string | null };

/**
 * `insert into donations select <row> where <guard>`: drizzle lists the columns in table order,
 * so the values below follow db/schema/donations.ts exactly.
 */
function guardedInsert(db: Db, row: NewRow, guard: SQL) {
  const now = Date.now();
  return db.insert(donations).select(sql`select ${row.id}, ${row.amount}, ${row.a.donorId}, ${row.a.campaignId},
    ${row.a.appealId}, ${row.date}, ${row.status}, ${row.type}, ${giftAidEligibleAt(row.a.giftAidDeclarationId, row.date)},
    ${row.a.giftAidDeclarationId}, ${row.paymentIntentId}, ${row.invoiceId}, ${row.subscriptionId}, ${row.refundedAmount},
    ${row.failureMessage}, ${row.a.source}, ${now}, ${now}, ${row.refundsAsOf ?? 0}, ${row.bacs ? 'bacs_debit' : (row.method ?? 'card')},
    null, null, null, null, null, null, 0, null, null, ${row.bacs ? 'bacs_debit' : 'card'}, ${row.bacs?.last4 ?? null}, ${row.bacs?.mandateId ?? null},
    ${ownCheckoutOf(row.subscriptionId)} where ${guard}`);
}

/**
 * A renewal follows its monthly gift's first payment (decision 077). A one-off row made here only
 * when the webhook beat the checkout's own insert is not known to be the owner's: not named.
 */
function ownCheckoutOf(subscriptionId: string | null) {
  if (!subscriptionId) return sql`0`;
  return sql`coalesce((select 1 from donations f where f.subscription_id = ${subscriptionId} and f.own_checkout = 1 limit 1), 0)`;
}

/** Not (yet) paid: a success settles these. An abandoned checkout that is paid after all still counts. */
const unsettled = sql`${donations.status} in ('pending', 'failed', 'abandoned', 'processing')`;
/** A failure ends these: a checkout not paid yet, or a Direct Debit Bacs had not settled. */
const awaiting = sql`${donations.status} in ('pending', 'processing')`;
const settle = {
  date: sql`case when ${unsettled} then excluded.date else ${donations.date} end`,
  failureMessage: sql`case when ${unsettled} then null else ${donations.failureMessage} end`,
  status: sql`case when ${unsettled} then 'succeeded' else ${donations.status} end`,
  updatedAt: sql`excluded.updated_at`,
};

/** A paid one-off gift: creates the row if the pending insert is not visible yet, else settles it. */
export function upsertSucceededPayment(
  db: Db,
  guard: SQL,
  p: { a: Attribution; paymentIntentId: string; amount: number; date: number },
) {
  const row: NewRow = {
    id: p.a.donationId,
    amount: p.amount,
    a: p.a,
    date: p.date,
    status: 'succeeded',
    type: 'once',
    paymentIntentId: p.paymentIntentId,
    invoiceId: null,
    subscriptionId: null,
    refundedAmount: 0,
    failureMessage: null,
  };
  return guardedInsert(db, row, guard).onConflictDoUpdate({
    target: donations.paymentIntentId,
    set: { amount: sql`excluded.amount`, ...settle },
  });
}

/**
 * A Direct Debit submitted to Bacs (payment_intent.processing): a pending gift becomes processing,
 * outside the totals until it succeeds. The bank details are kept whatever the order of events, so
 * a success that arrived first still gets its mandate; a settled or failed row keeps its status.
 */
export function upsertProcessingPayment(
  db: Db,
  guard: SQL,
  p: {
    a: Attribution;
    type: 'once' | 'monthly';
    paymentIntentId: string;
    invoiceId: string | null;
    subscriptionId: string | null;
    amount: number;
    date: number;
    bacs: BacsDetails;
  },
) {
  const row: NewRow = {
    id: p.a.donationId,
    amount: p.amount,
    a: p.a,
    date: p.date,
    status: 'processing',
    type: p.type,
    paymentIntentId: p.paymentIntentId,
    invoiceId: p.invoiceId,
    subscriptionId: p.subscriptionId,
    refundedAmount: 0,
    failureMessage: null,
    bacs: p.bacs,
  };
  return guardedInsert(db, row, guard).onConflictDoUpdate({
    target: donations.paymentIntentId,
    set: {
      status: sql`case when ${donations.status} in ('pending', 'abandoned') then 'processing' else ${donations.status} end`,
      paymentMethod: 'bacs_debit',
      bankLast4: sql`coalesce(excluded.bank_last4, ${donations.bankLast4})`,
      mandateId: sql`coalesce(excluded.mandate_id, ${donations.mandateId})`,
      updatedAt: sql`excluded.updated_at`,
    },
  });
}

/** One donation per paid invoice: the first settles the pending row, later ones add rows. */
export function upsertPaidInvoice(
  db: Db,
  guard: SQL,
  p: {
    id: string;
    a: Attribution;
    invoiceId: string;
    subscriptionId: string;
    paymentIntentId: string | null;
    amount: number;
    date: number;
  },
) {
  const row: NewRow = {
    id: p.id,
    amount: p.amount,
    a: p.a,
    date: p.date,
    status: 'succeeded',
    type: 'monthly',
    paymentIntentId: p.paymentIntentId,
    invoiceId: p.invoiceId,
    subscriptionId: p.subscriptionId,
    refundedAmount: 0,
    failureMessage: null,
  };
  return guardedInsert(db, row, guard).onConflictDoUpdate({
    target: donations.invoiceId,
    set: {
      amount: sql`excluded.amount`,
      paymentIntentId: sql`coalesce(${donations.paymentIntentId}, excluded.payment_intent_id)`,
      ...settle,
    },
  });
}

/** What failed: a one-off gift's PaymentIntent, or a monthly gift's invoice. */
export type FailedPaymentOf = { paymentIntentId: string } | { invoiceId: string; subscriptionId: string };

/**
 * A failed payment, of a PaymentIntent (a one-off gift) or of an invoice (a monthly gift: the
 * first invoice marks the pending row failed, a renewal gets its own row, unique by invoice_id so
 * retries and copies stay one row). Only `pending` or `processing` becomes `failed`: a success or
 * refund already stored is kept, and a later success settles the row. Failed rows never count in
 * totals. An invoice's row gets no PaymentIntent id (`invoice.paid` fills it in), so a failure can
 * never collide on it.
 */
export function upsertFailedPayment(
  db: Db,
  guard: SQL,
  p: { id: string; a: Attribution; of: FailedPaymentOf; amount: number; date: number; message: string },
) {
  const byInvoice = 'invoiceId' in p.of;
  const row: NewRow = {
    id: p.id,
    amount: p.amount,
    a: p.a,
    date: p.date,
    status: 'failed',
    type: byInvoice ? 'monthly' : 'once',
    paymentIntentId: 'paymentIntentId' in p.of ? p.of.paymentIntentId : null,
    invoiceId: 'invoiceId' in p.of ? p.of.invoiceId : null,
    subscriptionId: 'invoiceId' in p.of ? p.of.subscriptionId : null,
    refundedAmount: 0,
    failureMessage: p.message,
  };
  return guardedInsert(db, row, guard).onConflictDoUpdate({
    target: byInvoice ? donations.invoiceId : donations.paymentIntentId,
    set: {
      amount: sql`case when ${unsettled} then excluded.amount else ${donations.amount} end`,
      failureMessage: sql`case when ${unsettled} then excluded.failure_message else ${donations.failureMessage} end`,
      status: sql`case when ${awaiting} then 'failed' else ${donations.status} end`,
      updatedAt: sql`excluded.updated_at`,
    },
  });
}

/**
 * A refund (the charge's cumulative amount_refunded, so replays cannot double it). The figure of the
 * newest event wins (refunds_as_of holds its Stripe `created`), so it follows Stripe down as well as
 * up: a refund that fails gives the money back to the gift. Events of the same second
 * keep the larger figure. A refunded charge was paid, so a row still pending or failed is settled too.
 */
export function applyRefund(
  db: Db,
  guard: SQL,
  p: { donationId: string; chargedAmount: number; refundedAmount: number; asOf: number },
) {
  const refunded = Math.min(p.refundedAmount, p.chargedAmount);
  const next = sql`case when ${donations.refundsAsOf} < ${p.asOf} then ${refunded}
    when ${donations.refundsAsOf} = ${p.asOf} then max(${donations.refundedAmount}, ${refunded})
    else ${donations.refundedAmount} end`;
  return db
    .update(donations)
    .set({
      amount: p.chargedAmount,
      refundedAmount: next,
      refundsAsOf: sql`max(${donations.refundsAsOf}, ${p.asOf})`,
      failureMessage: null,
      status: sql`case when ${next} >= ${p.chargedAmount} then 'refunded'
        when ${unsettled} or ${donations.status} = 'refunded' then 'succeeded' else ${donations.status} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(donations.id, p.donationId), guard));
}

/** A refund that failed (refund.failed): its amount goes back to the gift unless a newer refund figure is stored. */
export function revertFailedRefund(db: Db, guard: SQL, p: { donationId: string; amount: number; asOf: number }) {
  const next = sql`case when ${donations.refundsAsOf} <= ${p.asOf} then max(0, ${donations.refundedAmount} - ${p.amount}) else ${donations.refundedAmount} end`;
  return db
    .update(donations)
    .set({
      refundedAmount: next,
      refundsAsOf: sql`max(${donations.refundsAsOf}, ${p.asOf})`,
      status: sql`case when ${donations.status} = 'refunded' and ${next} < ${donations.amount} then 'succeeded' else ${donations.status} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(donations.id, p.donationId), guard));
}

/** A refund that arrives before the success event for a one-off gift whose metadata we have. */
export function insertRefundedPayment(
  db: Db,
  guard: SQL,
  p: { a: Attribution; paymentIntentId: string; chargedAmount: number; refundedAmount: number; date: number },
) {
  const asOf = Math.floor(p.date / 1000);
  const refunded = Math.min(p.refundedAmount, p.chargedAmount);
  const full = refunded >= p.chargedAmount;
  const row: NewRow = {
    id: p.a.donationId,
    amount: p.chargedAmount,
    a: p.a,
    date: p.date,
    status: full ? 'refunded' : 'succeeded',
    type: 'once',
    paymentIntentId: p.paymentIntentId,
    invoiceId: null,
    subscriptionId: null,
    refundedAmount: refunded,
    failureMessage: null,
    refundsAsOf: asOf,
  };
  return guardedInsert(db, row, guard).onConflictDoUpdate({
    target: donations.paymentIntentId,
    set: {
      amount: sql`excluded.amount`,
      refundedAmount: sql`case when ${donations.refundsAsOf} < excluded.refunds_as_of then excluded.refunded_amount
        when ${donations.refundsAsOf} = excluded.refunds_as_of then max(${donations.refundedAmount}, excluded.refunded_amount)
        else ${donations.refundedAmount} end`,
      refundsAsOf: sql`max(${donations.refundsAsOf}, excluded.refunds_as_of)`,
      failureMessage: null,
      status: full ? 'refunded' : sql`case when ${unsettled} then 'succeeded' else ${donations.status} end`,
      updatedAt: sql`excluded.updated_at`,
    },
  });
}

export async function findDonationByPaymentIntent(db: Db, paymentIntentId: string) {
  const [row] = await db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).limit(1);
  return row ?? null;
}

export async function findDonationByInvoice(db: Db, invoiceId: string) {
  const [row] = await db.select().from(donations).where(eq(donations.invoiceId, invoiceId)).limit(1);
  return row ?? null;
}

export async function findDonationById(db: Db, id: string) {
  const [row] = await db.select().from(donations).where(eq(donations.id, id)).limit(1);
  return row ?? null;
}

/** Invoices older than metadata snapshots: reuse the attribution of the subscription's first gift. */
export async function attributionFromSubscription(db: Db, subscriptionId: string): Promise<Attribution | null> {
  const [row] = await db
    .select()
    .from(donations)
    .where(eq(donations.subscriptionId, subscriptionId))
    .orderBy(donations.date)
    .limit(1);
  return row ? attributionOfRow(row) : null;
}

/**
 * A paid gift given with a Gift Aid declaration that is the account's (made in the owner's own
 * checkout, or recorded for them): the donor's name and home address from it fill the account's
 * blank fields (donors list, receipts, statements read the account). Only blanks:
 * what an account already says is never overwritten by a checkout, signed in or not. Guarded like
 * the rest of its batch: a replay fills nothing (a donor may have cleared a field since).
 */
export function fillDonorFromDeclaration(db: Db, guard: SQL, a: Attribution) {
  if (!a.giftAidDeclarationId) return null;
  const from = (column: string) =>
    sql.raw(`(select nullif(trim(${column}), '') from gift_aid_declarations d where d.id = `);
  // Only a declaration that became the account's: a guest's stays held with its gift (decision 077),
  // and a stranger's name and address must not fill the account of the email they typed.
  const of = sql`${a.giftAidDeclarationId} and d.donor_id = ${a.donorId} and d.pending_donation_id is null)`;
  const blank = (column: SQLiteColumn) => sql`nullif(trim(coalesce(${column}, '')), '')`;
  return db
    .update(users)
    .set({
      firstName: sql`coalesce(${blank(users.firstName)}, ${from('d.first_name')}${of}, '')`,
      lastName: sql`coalesce(${blank(users.lastName)}, ${from('d.last_name')}${of}, '')`,
      address: sql`coalesce(${blank(users.address)}, ${from("d.house || case when trim(d.address) <> '' then ', ' || d.address else '' end")}${of})`,
      postalCode: sql`coalesce(${blank(users.postalCode)}, ${from('case when d.overseas = 1 then null else d.postcode end')}${of})`,
    })
    .where(and(eq(users.id, a.donorId), guard));
}
