import {
  type AnyColumn,
  and,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { campaignOfGift, giftOf } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { campaigns, donationReversals, donations, organizations, payoutLines, payouts } from '../../../db/schema';
import { DAY_MS, londonMidnight, nextDay } from '../../../domain/dates';
import { DEFAULT_NOMINAL_CODES, PROVIDER_METHODS, STRIPE_CHARGE_TYPES } from '../../../domain/finance';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import { localDay, londonLocalMs } from '../reports/london-buckets';
import { badRequest } from '../../lib/errors';
import type { JournalQuery } from '../../schemas/journal';
import { orgCondition, type OrgScope, staffScope } from '../reports/scope';
import type { ViewerContext } from '../../lib/service-context';

/**
 * The accounts journal: one balanced journal per organization per London day, with lines per fund
 * (campaign, or the organization's general fund) and per channel (payment provider or bank).
 * Gifts count on their own date at their gross amount; refunds, reversals and lost disputes count on
 * the day they succeeded (docs/decisions/035). What Stripe took in a payout that no gift's lines hold
 * (its own fees, dispute fees) is a journal of that payout on its arrival day; the payout itself is
 * coded from the bank feed to Stripe clearing, which then empties (docs/decisions/079).
 */

export type JournalLine = {
  /** Pence: positive is a debit, negative a credit (Xero's convention). */
  amount: number;
  accountCode: string;
  description: string;
  fund: string;
};

export type Journal = {
  /** What it journals, first in Xero's narration: "Donations", or "Stripe charges" of one payout. */
  title: string;
  /** "YYYY-MM-DD", London. */
  day: string;
  organizationName: string;
  /** Stable per organization and day, so a re-export can be matched to what was imported. */
  reference: string;
  lines: JournalLine[];
};

type Channel = 'provider' | 'bank';

type FundRow = {
  day: string;
  organizationId: string;
  organizationName: string;
  shortOrg: string;
  fund: string;
  incomeCode: string;
  feeCode: string;
  clearingCode: string;
  bankCode: string;
  channel: Channel;
  gross: number;
  fees: number;
  reversed: number;
  /** Refunds that had succeeded and then failed: the money came back, posted on the day it did. */
  returned: number;
};

/** Gifts made through the provider (a null method is an older card or demo gift). */
const channelOf = sql<Channel>`case when ${donations.method} in (${sql.join(
  PROVIDER_METHODS.map((m) => sql.raw(`'${m}'`)),
  sql`, `,
)}) or (${donations.method} is null and ${donations.source} in ('card', 'demo')) then 'provider' else 'bank' end`;

const fundColumns = {
  organizationId: sql<string>`coalesce(${organizations.id}, '')`,
  organizationName: sql<string>`coalesce(${organizations.name}, '')`,
  campaignTitle: campaigns.title,
  kind: campaigns.kind,
  restricted: campaigns.fundRestricted,
  campaignIncome: campaigns.incomeCode,
  orgIncome: organizations.incomeCode,
  feeCode: organizations.feeCode,
  clearingCode: organizations.clearingCode,
  bankCode: organizations.bankCode,
};

type FundColumns = {
  organizationId: string;
  organizationName: string;
  campaignTitle: string;
  kind: string;
  restricted: boolean | number;
  campaignIncome: string | null;
  orgIncome: string | null;
  feeCode: string | null;
  clearingCode: string | null;
  bankCode: string | null;
};

function codes(r: FundColumns) {
  const general = r.kind === 'general_fund';
  const restricted = !general && Boolean(r.restricted);
  return {
    fund: general ? 'General fund' : r.campaignTitle,
    incomeCode:
      r.campaignIncome ||
      r.orgIncome ||
      (restricted ? DEFAULT_NOMINAL_CODES.restrictedIncome : DEFAULT_NOMINAL_CODES.unrestrictedIncome),
    feeCode: r.feeCode || DEFAULT_NOMINAL_CODES.fees,
    clearingCode: r.clearingCode || DEFAULT_NOMINAL_CODES.clearing,
    bankCode: r.bankCode || DEFAULT_NOMINAL_CODES.bank,
  };
}

/** Stripe's charges in one payout for one fund, with the fund's codes (a line of no gift: the general fund). */
function payoutShare(
  r: Omit<FundColumns, 'campaignTitle' | 'kind' | 'restricted'> & {
    campaignTitle: string | null;
    kind: string | null;
    restricted: boolean | number | null;
    dayNumber: number;
    payoutId: string;
    charges: number;
  },
) {
  const c = codes(
    r.campaignTitle === null
      ? { ...r, campaignTitle: '', kind: 'general_fund', restricted: false, campaignIncome: null }
      : { ...r, campaignTitle: r.campaignTitle, kind: r.kind ?? '', restricted: r.restricted ?? false },
  );
  return {
    day: localDay(Number(r.dayNumber) * DAY_MS),
    organizationId: r.organizationId,
    organizationName: r.organizationName,
    shortOrg: r.organizationId.slice(0, 8),
    payoutId: r.payoutId,
    charges: Number(r.charges),
    ...c,
  };
}

/** Adds a fund's line to a journal; a line of 0 is left out. */
const lineAdder = (journal: Journal, fund: string) => (amount: number, accountCode: string, description: string) => {
  if (amount !== 0) journal.lines.push({ amount, accountCode, description, fund });
};

/** Journals for London days `from`..`to` inclusive, oldest first, within the viewer's scope. */
export async function accountsJournal(db: Db, scope: OrgScope, from: string, to: string): Promise<Journal[]> {
  const start = londonMidnight(from);
  const end = londonMidnight(nextDay(to));
  const fromYear = Number(from.slice(0, 4));
  const toYear = Number(to.slice(0, 4)) + 1;
  /** A timestamp column as its London day number, the day a journal is dated by. */
  const dayOf = (column: SQL | AnyColumn) =>
    sql<number>`cast(${londonLocalMs(sql`${column}`, fromYear, toYear)} / ${sql.raw(String(DAY_MS))} as integer)`;
  const scoped = orgCondition(scope, sql`${campaigns.organizationId}`);
  const giftDay = dayOf(donations.date);
  /** Reversal rows summed per day (of `at`), fund and channel. */
  const reversalsBy = (
    at: typeof donationReversals.succeededAt | typeof donationReversals.failedAt,
    where: SQL | undefined,
  ) =>
    db
      .select({
        ...fundColumns,
        dayNumber: dayOf(at),
        channel: channelOf,
        amount: sql<number>`sum(${donationReversals.amount})`,
      })
      .from(donationReversals)
      .innerJoin(donations, giftOf(donationReversals))
      .innerJoin(campaigns, campaignOfGift)
      .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
      .where(and(gte(at, start), lt(at, end), scoped, where))
      .groupBy(dayOf(at), campaigns.id, channelOf);

  const [gifts, reversals, returns] = await Promise.all([
    db
      .select({
        ...fundColumns,
        dayNumber: giftDay,
        channel: channelOf,
        gross: sql<number>`sum(${donations.amount})`,
        // Only the provider charges a fee; an unknown fee is 0, never guessed.
        fees: sql<number>`sum(case when ${channelOf} = 'provider' then coalesce(${donations.feePence}, 0) else 0 end)`,
      })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
      .where(
        and(
          inArray(donations.status, [...PAID_DONATION_STATUSES]),
          gte(donations.date, start),
          lt(donations.date, end),
          scoped,
        ),
      )
      .groupBy(giftDay, campaigns.id, channelOf),
    // Every reversal that succeeded, on the day it did, whatever became of it: a day already
    // exported keeps its lines, and a refund that failed later is returned on its own day.
    reversalsBy(donationReversals.succeededAt, undefined),
    reversalsBy(donationReversals.failedAt, isNotNull(donationReversals.succeededAt)),
  ]);

  const payoutOrg = sql<string>`coalesce(${campaigns.organizationId}, ${payouts.organizationId})`;
  const arrivalDay = dayOf(payouts.arrivalDate);
  // What Stripe took in each settled payout that no gift's lines hold, per fund: Stripe's own
  // charges on a line of no gift (STRIPE_CHARGE_TYPES: the payout's organization's general fund),
  // and the fee of a gift's line that is not its charge (a dispute's fee: the gift's fund). A payout
  // that failed or was cancelled still took them: its money comes back, its fees do not.
  const notAGiftsCharge = or(
    and(isNull(payoutLines.donationId), inArray(payoutLines.type, [...STRIPE_CHARGE_TYPES])),
    and(isNotNull(payoutLines.donationId), notInArray(payoutLines.type, ['charge', 'payment'])),
  );
  const payoutCharges = await db
    .select({
      ...fundColumns,
      dayNumber: arrivalDay,
      payoutId: payouts.id,
      charges: sql<number>`sum(case when ${payoutLines.donationId} is null then -${payoutLines.net} else ${payoutLines.fee} end)`,
    })
    .from(payoutLines)
    .innerJoin(payouts, eq(payouts.id, payoutLines.payoutId))
    .leftJoin(donations, eq(donations.id, payoutLines.donationId))
    .leftJoin(campaigns, campaignOfGift)
    .innerJoin(organizations, eq(organizations.id, payoutOrg))
    .where(
      and(
        inArray(payouts.status, ['paid', 'failed', 'canceled']),
        gte(payouts.arrivalDate, start),
        lt(payouts.arrivalDate, end),
        notAGiftsCharge,
        orgCondition(scope, payoutOrg),
      ),
    )
    .groupBy(arrivalDay, payouts.id, payoutOrg, campaigns.id);

  const rows = new Map<string, FundRow>();
  const rowFor = (r: FundColumns & { dayNumber: number; channel: Channel }): FundRow => {
    const day = localDay(Number(r.dayNumber) * DAY_MS);
    const c = codes(r);
    const key = `${r.organizationId}|${day}|${c.fund}|${c.incomeCode}|${r.channel}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        day,
        organizationId: r.organizationId,
        organizationName: r.organizationName,
        shortOrg: r.organizationId.slice(0, 8),
        ...c,
        channel: r.channel,
        gross: 0,
        fees: 0,
        reversed: 0,
        returned: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const g of gifts) {
    const row = rowFor(g);
    row.gross += Number(g.gross);
    row.fees += Number(g.fees);
  }
  for (const r of reversals) rowFor(r).reversed += Number(r.amount);
  for (const r of returns) rowFor(r).returned += Number(r.amount);

  const journals = new Map<string, Journal>();
  /** The day's donations journal of an organization, or (with a payout) that payout's own journal. */
  const journalOf = (
    r: { day: string; organizationId: string; organizationName: string; shortOrg: string },
    payoutId?: string,
  ) => {
    const key = `${r.day}|${r.organizationId}|${payoutId ?? ''}`;
    let journal = journals.get(key);
    if (!journal) {
      // A payout's journal has a reference of its own, so a payout settled after its day was exported
      // adds a journal instead of changing one already imported; with the organization, as a payout
      // may hold several's gifts. 30 characters, Sage's limit.
      const reference = payoutId
        ? `STR-${r.day.replaceAll('-', '')}-${payoutId.slice(-8)}${r.shortOrg ? `-${r.shortOrg}` : ''}`
        : `DON-${r.day.replaceAll('-', '')}${r.shortOrg ? `-${r.shortOrg}` : ''}`;
      const title = payoutId ? `Stripe charges in payout ${payoutId}` : 'Donations';
      journal = { title, day: r.day, organizationName: r.organizationName, reference, lines: [] };
      journals.set(key, journal);
    }
    return journal;
  };
  // Lines in fund order (the journals themselves are sorted once, at the end).
  const sorted = [...rows.values()].sort((a, b) => a.fund.localeCompare(b.fund) || a.channel.localeCompare(b.channel));
  for (const r of sorted) {
    const add = lineAdder(journalOf(r), r.fund);
    const cashCode = r.channel === 'provider' ? r.clearingCode : r.bankCode;
    const cashName = r.channel === 'provider' ? 'Stripe clearing' : 'bank';
    add(-r.gross, r.incomeCode, `Donations to ${r.fund} (${r.channel === 'provider' ? 'card' : 'offline'})`);
    add(r.fees, r.feeCode, `Payment fees on donations to ${r.fund}`);
    add(r.gross - r.fees, cashCode, `Donations to ${r.fund}, net, to ${cashName}`);
    add(r.reversed, r.incomeCode, `Refunds and reversals of donations to ${r.fund}`);
    add(-r.reversed, cashCode, `Refunds and reversals of donations to ${r.fund}, from ${cashName}`);
    add(-r.returned, r.incomeCode, `Failed refunds of donations to ${r.fund}, back as income`);
    add(r.returned, cashCode, `Failed refunds of donations to ${r.fund}, back to ${cashName}`);
  }
  // One pair of lines per payout and fund (a general fund's gifts and Stripe's own lines meet there).
  const chargeByFund = new Map<string, ReturnType<typeof payoutShare>>();
  for (const share of payoutCharges.map(payoutShare)) {
    const key = `${share.day}|${share.organizationId}|${share.payoutId}|${share.fund}|${share.feeCode}|${share.clearingCode}`;
    const known = chargeByFund.get(key);
    if (known) known.charges += share.charges;
    else chargeByFund.set(key, share);
  }
  const shares = [...chargeByFund.values()].sort((a, b) => a.fund.localeCompare(b.fund));
  for (const r of shares) {
    if (r.charges === 0) continue;
    const add = lineAdder(journalOf(r, r.payoutId), r.fund);
    add(r.charges, r.feeCode, `Stripe fees and adjustments in payout ${r.payoutId}`);
    add(-r.charges, r.clearingCode, `Stripe fees and adjustments in payout ${r.payoutId}, from Stripe clearing`);
  }
  return [...journals.values()]
    .filter((j) => j.lines.length > 0)
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        a.organizationName.localeCompare(b.organizationName) ||
        a.reference.localeCompare(b.reference),
    );
}

/** The journals a viewer may export: their organizations, or the one named (which must exist). */
export async function journalFor(ctx: ViewerContext, query: JournalQuery): Promise<Journal[]> {
  const { db, viewer } = ctx;
  const scope = staffScope(viewer, query.organization_id);
  if (query.organization_id) {
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, query.organization_id))
      .limit(1);
    if (!org) throw badRequest('organization_id: no such organization');
  }
  return accountsJournal(db, scope, query.from, query.to);
}
