import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { campaigns, donations, monthlyGifts, outbox, users } from '../../../db/schema';
import type { AuthUser } from '../../lib/types';
import type { MonthlyGiftFilters, OfficeMonthlyGift } from '../../schemas/monthly-gifts';
import { orgCondition, staffScope } from '../reports/scope';
import type { ViewerContext } from '../../lib/service-context';
import { pausedDates } from './records';
import { isoOrNull } from '../../../domain/dates';

const appeals = alias(campaigns, 'appeal');

/** The newest payment row of the gift (its invoices in date order). */
const newestPayment = (column: SQL) =>
  sql`(select ${column} from ${donations} d where d.subscription_id = ${monthlyGifts.id} order by d.date desc, d.created_at desc limit 1)`;
const lastStatus = newestPayment(sql.raw('d.status'));
const lastDate = newestPayment(sql.raw('d.date'));
const lastInvoice = newestPayment(sql.raw('d.invoice_id'));
const lastMessage = newestPayment(sql.raw('d.failure_message'));
const lastId = newestPayment(sql.raw('d.id'));
// The failure email's outbox key (api/services/mail/payment-failed.ts): a renewal's by its invoice, a
// first Direct Debit's by its donation; sent, queued or absent.
const failureEmail = sql<
  string | null
>`(select case when o.sent_at is not null then 'sent' else 'queued' end from ${outbox} o where o.key in ('renewal-failed:' || ${lastInvoice}, 'direct-debit-failed:' || ${lastId}) limit 1)`;

// When Stripe tries the failed invoice again (invoice.payment_failed's next_payment_attempt).
const retryAt = sql<number | null>`(select r.retry_at from invoice_retries r where r.invoice_id = ${lastInvoice})`;

const failing = sql`(${monthlyGifts.status} = 'past_due' or ${lastStatus} = 'failed')`;
/**
 * A monthly gift whose first Direct Debit failed never started (`incomplete`, "Not started"), but the
 * office follows it up like a failed renewal: the failed-payments queue lists it, other views do not.
 */
const neverStartedFailing = sql`(${monthlyGifts.status} = 'incomplete' and ${monthlyGifts.paymentMethod} = 'bacs_debit' and ${lastStatus} = 'failed')`;

const SORT_COLUMNS = {
  started: sql`coalesce(${monthlyGifts.startedAt}, ${monthlyGifts.createdAt})`,
  amount: sql`${monthlyGifts.amount}`,
  donor: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  next_payment: sql`${monthlyGifts.nextPaymentAt}`,
  status: sql`${monthlyGifts.status}`,
} as const;

function whereOf(viewer: AuthUser, f: MonthlyGiftFilters): SQL | undefined {
  const scope = staffScope(viewer, f.organization_id);
  const term = f.search?.toLowerCase();
  return and(
    orgCondition(scope, sql`${campaigns.organizationId}`),
    // A checkout that never paid is not a monthly gift yet: listed only when asked for.
    f.status
      ? eq(monthlyGifts.status, f.status)
      : f.failing
        ? sql`(${monthlyGifts.status} <> 'incomplete' or ${neverStartedFailing})`
        : sql`${monthlyGifts.status} <> 'incomplete'`,
    f.failing ? failing : undefined,
    term
      ? sql`(instr(lower(${users.firstName} || ' ' || ${users.lastName}), ${term}) > 0 or instr(lower(${users.email}), ${term}) > 0)`
      : undefined,
  );
}

/**
 * Every monthly gift the viewer may see (admins all, org admins their organizations'), with the
 * donor, the cause and, when the newest payment failed, that failure and whether its email went.
 */
export async function officeMonthlyGifts(
  ctx: ViewerContext,
  f: MonthlyGiftFilters & { limit: number; offset: number; count?: boolean },
): Promise<{ rows: OfficeMonthlyGift[]; total: number }> {
  const { db, viewer } = ctx;
  const where = whereOf(viewer, f);
  const direction = f.order === 'asc' ? asc : desc;
  const sortColumn = SORT_COLUMNS[f.sort ?? 'started'];
  const base = db
    .select({
      gift: monthlyGifts,
      donorFirstName: users.firstName,
      donorLastName: users.lastName,
      donorEmail: users.email,
      campaignTitle: campaigns.title,
      campaignStatus: campaigns.status,
      organizationId: campaigns.organizationId,
      appealTitle: appeals.title,
      appealStatus: appeals.status,
      lastStatus: sql<string | null>`${lastStatus}`,
      lastDate: sql<number | null>`${lastDate}`,
      lastInvoice: sql<string | null>`${lastInvoice}`,
      lastMessage: sql<string | null>`${lastMessage}`,
      failureEmail,
      retryAt,
    })
    .from(monthlyGifts)
    .innerJoin(users, eq(users.id, monthlyGifts.donorId))
    .innerJoin(campaigns, eq(campaigns.id, monthlyGifts.campaignId))
    .leftJoin(appeals, eq(appeals.id, monthlyGifts.appealId))
    .where(where)
    .orderBy(direction(sortColumn), asc(monthlyGifts.id))
    .limit(f.limit)
    .offset(f.offset);
  const [found, counted] = await Promise.all([
    base,
    f.count === false
      ? Promise.resolve([{ n: 0 }])
      : db
          .select({ n: sql<number>`count(*)` })
          .from(monthlyGifts)
          .innerJoin(users, eq(users.id, monthlyGifts.donorId))
          .innerJoin(campaigns, eq(campaigns.id, monthlyGifts.campaignId))
          .where(where),
  ]);
  const rows = found.map((r): OfficeMonthlyGift => {
    const g = r.gift;
    return {
      _id: g.id,
      donor: { _id: g.donorId, name: `${r.donorFirstName} ${r.donorLastName}`.trim(), email: r.donorEmail },
      first_donation_id: g.firstDonationId ?? null,
      amount: g.amount,
      campaign: { _id: g.campaignId, title: r.campaignTitle },
      appeal: g.appealId && r.appealTitle !== null ? { _id: g.appealId, title: r.appealTitle } : null,
      on_site: r.campaignStatus === 'approved' && (g.appealId === null || r.appealStatus === 'approved'),
      organization_id: r.organizationId,
      status: g.status,
      method: g.source,
      payment_method: g.paymentMethod === 'bacs_debit' ? 'bacs_debit' : 'card',
      bank_last4: g.bankLast4,
      started_at: isoOrNull(g.startedAt),
      next_payment_at: g.status === 'cancelled' ? null : isoOrNull(pausedDates(g)?.next ?? g.nextPaymentAt),
      cancelled_at: isoOrNull(g.cancelledAt),
      last_failure:
        r.lastStatus === 'failed' && r.lastDate !== null
          ? {
              failed_at: isoOrNull(Number(r.lastDate)) ?? '',
              invoice_id: r.lastInvoice,
              message: r.lastMessage,
              retry_at: r.retryAt === null ? null : isoOrNull(Number(r.retryAt)),
              email: r.failureEmail === 'sent' || r.failureEmail === 'queued' ? r.failureEmail : 'none',
            }
          : null,
    };
  });
  return { rows, total: Number(counted[0]?.n ?? 0) };
}
