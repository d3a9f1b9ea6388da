import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type Stripe from 'stripe';
import { chunks } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { campaigns, monthlyGifts, users } from '../../../db/schema';
import {
  addMonths,
  MAX_PAUSE_MONTHS,
  pauseSchedule,
  type MonthlyGiftCancelledBy,
  type MonthlyGiftStatus,
} from '../../../domain';
import { HttpError, notFound } from '../../lib/errors';
import { canManageOrganization, inOrgScope, isAdmin, readsFinance } from '../../lib/policy';
import type { MonthlyGiftDto } from '../../schemas/monthly-gifts';
import type { Attribution, Statement } from '../donations/record';
import { findLocalPrice } from '../donations/pending';
import type { ViewerContext } from '../../lib/service-context';
import { isoOrNull } from '../../../domain/dates';

/**
 * Monthly gifts a donor controls (docs/decisions/019). The monthly_gifts row mirrors one Stripe
 * Subscription and is written only from what Stripe says: subscription events, paid invoices, and
 * the Subscription object Stripe returns when we change it. Every write is one upsert whose
 * newer-wins rule (`last_event_at`) makes replays and out-of-order delivery end in the same state,
 * and `cancelled` is final.
 */

export type MonthlyGiftRow = typeof monthlyGifts.$inferSelect;

/** What we keep from a Stripe Subscription. */
export type SubscriptionSnapshot = {
  id: string;
  status: MonthlyGiftStatus;
  amount: number | null;
  priceId: string | null;
  pauseResumesAt: number | null;
  nextPaymentAt: number | null;
  startedAt: number | null;
  cancelledAt: number | null;
  cancelledBy: MonthlyGiftCancelledBy | null;
};

const CANCELLED_BY = new Set<string>(['donor', 'link', 'admin', 'erasure']);

export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot {
  const item = sub.items?.data?.[0];
  const cancelled = sub.status === 'canceled' || sub.status === 'incomplete_expired';
  const paused = !cancelled && (sub.pause_collection != null || sub.status === 'paused');
  const status: MonthlyGiftStatus = cancelled
    ? 'cancelled'
    : paused
      ? 'paused'
      : sub.status === 'active' || sub.status === 'trialing'
        ? 'active'
        : sub.status === 'past_due' || sub.status === 'unpaid'
          ? 'past_due'
          : 'incomplete';
  const comment = sub.cancellation_details?.comment ?? '';
  const periodEnd = (item as { current_period_end?: number } | undefined)?.current_period_end ?? null;
  return {
    id: sub.id,
    status,
    amount: item?.price?.unit_amount ?? null,
    priceId: item?.price?.id ?? null,
    pauseResumesAt: paused && sub.pause_collection?.resumes_at ? sub.pause_collection.resumes_at * 1000 : null,
    nextPaymentAt: cancelled ? null : periodEnd ? periodEnd * 1000 : null,
    startedAt: sub.start_date ? sub.start_date * 1000 : null,
    cancelledAt: cancelled ? (sub.canceled_at ?? sub.ended_at ?? Math.floor(Date.now() / 1000)) * 1000 : null,
    cancelledBy: cancelled ? ((CANCELLED_BY.has(comment) ? comment : 'stripe') as MonthlyGiftCancelledBy) : null,
  };
}

const t = monthlyGifts;
/** The stored row is cancelled: nothing but a cancellation detail changes it again. */
const isCancelled = sql`${t.status} = 'cancelled'`;

/**
 * How the gift is paid, as its first donation was (a Direct Debit's mandate and bank digits). The
 * inserts below list every column in the table's order; item_down_told_at (null) follows these three.
 */
const methodOfFirstGift = (
  donationId: string,
) => sql`coalesce((select payment_method from donations where id = ${donationId}), 'card'),
  (select bank_last4 from donations where id = ${donationId}), (select mandate_id from donations where id = ${donationId})`;
const keepMethod = {
  paymentMethod: sql`case when excluded.mandate_id is not null then 'bacs_debit' else ${t.paymentMethod} end`,
  bankLast4: sql`coalesce(excluded.bank_last4, ${t.bankLast4})`,
  mandateId: sql`coalesce(excluded.mandate_id, ${t.mandateId})`,
};

/**
 * The donor cancelled the Direct Debit at their bank: every running gift on an inactive mandate is
 * cancelled, once. Run after any write that can link a gift to a mandate, so the order of events
 * does not matter (a mandate cancelled before the first invoice was recorded still stops the gift).
 */
export function cancelGiftsOfInactiveMandates(
  db: Db,
  guard: SQL,
  scope: { mandateId: string } | { subscriptionId: string },
): Statement {
  const now = Date.now();
  return db
    .update(t)
    .set({
      status: 'cancelled',
      cancelledAt: new Date(now),
      cancelledBy: 'bank',
      nextPaymentAt: null,
      pauseResumesAt: null,
      updatedAt: new Date(now),
    })
    .where(
      and(
        'mandateId' in scope ? eq(t.mandateId, scope.mandateId) : eq(t.id, scope.subscriptionId),
        sql`${t.status} <> 'cancelled'`,
        sql`${t.mandateId} in (select id from direct_debit_mandates where status = 'inactive')`,
        guard,
      ),
    ) as unknown as Statement;
}

/**
 * A subscription's state as of `eventAt` (seconds). Inserts the row if this is the first we hear
 * of it; otherwise applies it only when it is at least as new as what is stored.
 */
export function upsertFromSubscription(
  db: Db,
  guard: SQL,
  s: SubscriptionSnapshot,
  a: Attribution,
  eventAt: number,
  amountFallback: number,
): Statement {
  const now = Date.now();
  const newer = sql`(excluded.last_event_at >= ${t.lastEventAt} and not ${isCancelled})`;
  return db
    .insert(t)
    .select(
      sql`select ${s.id}, ${a.donorId}, ${a.campaignId}, ${a.appealId}, ${a.donationId}, ${s.priceId}, ${s.amount ?? amountFallback},
        ${s.status}, ${s.pauseResumesAt}, ${s.nextPaymentAt}, ${s.startedAt}, ${s.cancelledAt}, ${s.cancelledBy},
        ${a.giftAidDeclarationId}, ${a.source}, ${eventAt}, null, ${now}, ${now}, ${methodOfFirstGift(a.donationId)}, null where ${guard}`,
    )
    .onConflictDoUpdate({
      target: t.id,
      set: {
        status: sql`case when ${isCancelled} or excluded.status = 'cancelled' then 'cancelled' when excluded.last_event_at >= ${t.lastEventAt} then excluded.status else ${t.status} end`,
        amount: sql`case when ${newer} then excluded.amount else ${t.amount} end`,
        priceId: sql`case when ${newer} then coalesce(excluded.price_id, ${t.priceId}) else ${t.priceId} end`,
        pauseResumesAt: sql`case when ${newer} then excluded.pause_resumes_at else ${t.pauseResumesAt} end`,
        // A cancelled gift has no next payment, whichever event came first (a cancellation newer than
        // the stored state must not keep its date through the coalesce).
        nextPaymentAt: sql`case when ${isCancelled} or excluded.status = 'cancelled' then null when ${newer} then coalesce(excluded.next_payment_at, ${t.nextPaymentAt}) else ${t.nextPaymentAt} end`,
        startedAt: sql`coalesce(${t.startedAt}, excluded.started_at)`,
        cancelledAt: sql`coalesce(${t.cancelledAt}, excluded.cancelled_at)`,
        // Who cancelled: the first specific answer wins ('stripe' only when nobody here did).
        cancelledBy: sql`case when ${t.cancelledBy} is null or ${t.cancelledBy} = 'stripe' then coalesce(excluded.cancelled_by, ${t.cancelledBy}) else ${t.cancelledBy} end`,
        lastEventAt: sql`max(${t.lastEventAt}, excluded.last_event_at)`,
        updatedAt: sql`excluded.updated_at`,
        ...keepMethod,
      },
    }) as unknown as Statement;
}

/**
 * A paid invoice: the gift is running. It starts the row when no subscription event came first,
 * moves `incomplete`/`past_due` to `active`, and pushes the next payment date forward; it never
 * undoes a pause or a cancellation, and amounts stay as the newest subscription event says.
 */
export function upsertFromPaidInvoice(
  db: Db,
  guard: SQL,
  p: { subscriptionId: string; a: Attribution; amount: number; paidAt: number; periodEnd: number | null },
): Statement {
  const now = Date.now();
  const next = p.periodEnd ?? addMonths(new Date(p.paidAt), 1).getTime();
  return db
    .insert(t)
    .select(
      sql`select ${p.subscriptionId}, ${p.a.donorId}, ${p.a.campaignId}, ${p.a.appealId}, ${p.a.donationId}, null, ${p.amount},
        'active', null, ${next}, ${p.paidAt}, null, null, ${p.a.giftAidDeclarationId}, ${p.a.source}, 0, null, ${now}, ${now},
        ${methodOfFirstGift(p.a.donationId)}, null where ${guard}`,
    )
    .onConflictDoUpdate({
      target: t.id,
      set: {
        status: sql`case when ${t.status} in ('incomplete', 'past_due') then 'active' else ${t.status} end`,
        nextPaymentAt: sql`case when ${isCancelled} then ${t.nextPaymentAt} else max(coalesce(${t.nextPaymentAt}, 0), excluded.next_payment_at) end`,
        startedAt: sql`coalesce(${t.startedAt}, excluded.started_at)`,
        amount: sql`case when ${t.lastEventAt} = 0 then excluded.amount else ${t.amount} end`,
        updatedAt: sql`excluded.updated_at`,
        ...keepMethod,
      },
    }) as unknown as Statement;
}

/**
 * The first Direct Debit of a monthly gift failed: Stripe's Subscription stays `incomplete` (it never
 * started), and the row mirrors that so the office's failed-payments queue can show it with its
 * reason (docs/decisions/053). Only a Direct Debit's: a declined first card payment happens while
 * the donor is on the page and sees it. Inserted only when no row exists, with no event time, so any
 * subscription event or paid invoice, earlier or later, decides the row's state.
 */
export function insertNeverStartedGift(
  db: Db,
  guard: SQL,
  p: { subscriptionId: string; a: Attribution; amount: number },
): Statement {
  const now = Date.now();
  return db
    .insert(t)
    .select(
      sql`select ${p.subscriptionId}, ${p.a.donorId}, ${p.a.campaignId}, ${p.a.appealId}, ${p.a.donationId}, null, ${p.amount},
        'incomplete', null, null, null, null, null, ${p.a.giftAidDeclarationId}, ${p.a.source}, 0, null, ${now}, ${now},
        ${methodOfFirstGift(p.a.donationId)}, null
        where ${guard} and (select payment_method from donations where id = ${p.a.donationId}) = 'bacs_debit'`,
    )
    .onConflictDoNothing({ target: t.id }) as unknown as Statement;
}

export async function findMonthlyGift(db: Db, id: string): Promise<MonthlyGiftRow | null> {
  const [row] = await db.select().from(t).where(eq(t.id, id)).limit(1);
  return row ?? null;
}

/**
 * A monthly gift as its donor (someone else's is a 404), its reader (a money reader of its
 * organization: admins, its org admins and finance users) or its manager (who may cancel it: admins
 * and its org admins).
 */
export async function monthlyGiftFor(
  ctx: ViewerContext,
  id: string,
  as: 'donor' | 'reader' | 'manager',
): Promise<MonthlyGiftRow> {
  const { db, viewer: user } = ctx;
  const gift = /^sub_[A-Za-z0-9_]{3,200}$/.test(id) ? await findMonthlyGift(db, id) : null;
  if (!gift) throw notFound('No such monthly gift');
  if (as === 'donor') {
    // Another donor's gift is indistinguishable from a missing one.
    if (gift.donorId !== user.id) throw notFound('No such monthly gift');
    return gift;
  }
  if (isAdmin(user)) return gift;
  const [campaign] = await db
    .select({ org: campaigns.organizationId })
    .from(campaigns)
    .where(eq(campaigns.id, gift.campaignId))
    .limit(1);
  const org = campaign?.org ?? null;
  const allowed = as === 'reader' ? readsFinance(user) && inOrgScope(user, org) : canManageOrganization(user, org);
  if (allowed) return gift;
  throw new HttpError(
    403,
    as === 'reader'
      ? "Only admins, organization admins and finance users of this gift's organization can read it"
      : "Only administrators of this gift's organization can cancel it",
  );
}

/**
 * A paused gift's skipped dates and first payment after the pause, on its own monthly cycle: Stripe's
 * period end (what `nextPaymentAt` holds) is the very payment the pause skips.
 */
export function pausedDates(r: Pick<MonthlyGiftRow, 'status' | 'pauseResumesAt' | 'startedAt' | 'createdAt'>) {
  if (r.status !== 'paused' || !r.pauseResumesAt) return null;
  return pauseSchedule(r.startedAt ?? r.createdAt, r.pauseResumesAt);
}

export async function toMonthlyGiftDtos(db: Db, rows: MonthlyGiftRow[]): Promise<MonthlyGiftDto[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.campaignId, r.appealId]).filter((x): x is string => !!x))];
  const pieces = await Promise.all(
    chunks(ids).map((part) =>
      db
        .select({ id: campaigns.id, title: campaigns.title, status: campaigns.status })
        .from(campaigns)
        .where(inArray(campaigns.id, part)),
    ),
  );
  const titles = new Map(pieces.flat().map((c) => [c.id, c.title]));
  const approved = new Set(pieces.flat().flatMap((c) => (c.status === 'approved' ? [c.id] : [])));
  return rows.map((r) => {
    const pause = pausedDates(r);
    return {
      _id: r.id,
      amount: r.amount,
      status: r.status,
      cause: {
        campaign_id: r.campaignId,
        campaign: titles.get(r.campaignId) ?? '',
        appeal_id: r.appealId,
        appeal: r.appealId ? (titles.get(r.appealId) ?? null) : null,
        // Taken off the site (decision 070): the donor's list says so, and that the gift goes on.
        on_site: approved.has(r.campaignId) && (r.appealId === null || approved.has(r.appealId)),
      },
      started_at: isoOrNull(r.startedAt),
      next_payment_at: r.status === 'cancelled' ? null : isoOrNull(pause?.next ?? r.nextPaymentAt),
      pause_resumes_at: r.status === 'paused' ? isoOrNull(r.pauseResumesAt) : null,
      skipped_payments: pause ? pause.skipped.map((d) => d.toISOString()) : [],
      cancelled_at: isoOrNull(r.cancelledAt),
      cancelled_by: r.cancelledBy,
      gift_aid: r.giftAidDeclarationId !== null,
      mode: r.source === 'demo' ? 'demo' : 'stripe',
      payment_method: r.paymentMethod,
      bank_last4: r.bankLast4,
    };
  });
}

/** The donor's monthly gifts: running ones first, then those stopped, newest first; incomplete ones never started. */
export async function listDonorMonthlyGifts(db: Db, donorId: string): Promise<MonthlyGiftRow[]> {
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.donorId, donorId), sql`${t.status} <> 'incomplete'`))
    .orderBy(sql`case when ${t.status} = 'cancelled' then 1 else 0 end`, desc(t.startedAt))
    .limit(100);
  return rows;
}

export async function donorContact(db: Db, donorId: string) {
  const [row] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      erasedAt: users.erasedAt,
      stripeCustomerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, donorId))
    .limit(1);
  return row ?? null;
}

/** Validates the pause length and gives the instant payments restart. */
export function pauseUntil(months: number, now = new Date()): Date {
  if (!Number.isInteger(months) || months < 1 || months > MAX_PAUSE_MONTHS)
    throw new HttpError(400, `months: pause for 1 to ${MAX_PAUSE_MONTHS} months`);
  return addMonths(now, months);
}

export async function offeredPrice(db: Db, priceId: string) {
  const price = await findLocalPrice(db, priceId);
  if (!price) throw new HttpError(400, 'price: unknown monthly price; choose one of the amounts offered');
  return price;
}
