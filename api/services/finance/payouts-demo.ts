import { and, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { campaignOfGift, giftOf } from '../../../db/gift-joins';
import { chunks } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { campaigns, donationReversals, donations } from '../../../db/schema';
import { DAY_MS, londonIsoDate, londonMidnight } from '../../../domain/dates';
import { markEventApplied, notYetApplied, type Statement } from '../donations/record';
import { demoSettlement } from '../payments/settlement';
import { payoutStatements, type PayoutLineInput } from './payouts-record';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';

export const DEMO_PAYOUTS = {
  /** Gifts settled this many days before today are paid out; older history predates the demo. */
  lookbackDays: 30,
  /** Lines per payout at most (the rest wait for the next day). */
  maxLines: 2000,
} as const;

/** One id per organization per London day: the same day's second run finds it made. */
export const demoPayoutId = (organizationId: string, isoDay: string) =>
  `po_demo_${isoDay.replace(/-/g, '')}_${organizationId.replace(/-/g, '')}`;

/**
 * Demo mode's stand-in for Stripe's daily automatic payout: each organization's demo gifts settled
 * before today (London) and not paid out yet, less their refunds, at the /fees rate, as one payout
 * recorded through the same statements as payout.paid. Its writes and a marker row go in one batch
 * guarded by that marker, so the day's payout is made exactly once however often this runs.
 */
export async function makeDemoPayouts(db: Db, now: Date): Promise<number> {
  const today = londonIsoDate(now);
  const cutoff = londonMidnight(today);
  const since = new Date(cutoff.getTime() - DEMO_PAYOUTS.lookbackDays * DAY_MS);
  const gifts = await db
    .select({
      id: donations.id,
      amount: donations.amount,
      fee: donations.feePence,
      txn: donations.balanceTransactionId,
      pi: donations.paymentIntentId,
      date: donations.date,
      org: campaigns.organizationId,
    })
    .from(donations)
    .innerJoin(campaigns, campaignOfGift)
    .where(
      and(
        eq(donations.source, 'demo'),
        inArray(donations.status, [...PAID_DONATION_STATUSES]),
        isNull(donations.payoutId),
        gte(donations.date, since),
        lt(donations.date, cutoff),
      ),
    )
    .limit(DEMO_PAYOUTS.maxLines * 10);
  const refunds = await db
    .select({
      id: donationReversals.id,
      gift: donationReversals.donationId,
      amount: donationReversals.amount,
      provider: donationReversals.providerId,
      at: donationReversals.succeededAt,
      org: campaigns.organizationId,
    })
    .from(donationReversals)
    .innerJoin(donations, giftOf(donationReversals))
    .innerJoin(campaigns, campaignOfGift)
    .where(
      and(
        eq(donations.source, 'demo'),
        eq(donationReversals.kind, 'refund'),
        eq(donationReversals.status, 'succeeded'),
        isNull(donationReversals.payoutId),
        gte(donationReversals.succeededAt, since),
        lt(donationReversals.succeededAt, cutoff),
      ),
    );
  const byOrg = new Map<string, PayoutLineInput[]>();
  const reversalIds = new Map<string, string>();
  const add = (org: string | null, line: PayoutLineInput, reversalId?: string) => {
    if (!org) return;
    const lines = byOrg.get(org) ?? [];
    if (lines.length >= DEMO_PAYOUTS.maxLines) return;
    lines.push(line);
    byOrg.set(org, lines);
    if (reversalId) reversalIds.set(line.balanceTransactionId, reversalId);
  };
  for (const g of gifts) {
    const fee = g.fee ?? demoSettlement(g.amount).fee;
    add(g.org, {
      balanceTransactionId: g.txn ?? `txn_demo_${g.id.replace(/-/g, '')}`,
      type: 'charge',
      sourceId: g.pi,
      paymentIntentId: g.pi,
      amount: g.amount,
      fee,
      net: g.amount - fee,
      availableOn: g.date.getTime(),
      donationId: g.id,
    });
  }
  for (const r of refunds) {
    // A refund does not give Stripe's fee back: the whole amount leaves the balance.
    add(
      r.org,
      {
        balanceTransactionId: `txn_demo_${r.id.replace(/-/g, '')}`,
        type: 'refund',
        sourceId: r.provider ?? r.id,
        paymentIntentId: null,
        amount: -r.amount,
        fee: 0,
        net: -r.amount,
        availableOn: r.at ? r.at.getTime() : null,
        donationId: r.gift,
      },
      r.id,
    );
  }
  let made = 0;
  for (const [org, lines] of byOrg) {
    const amount = lines.reduce((sum, l) => sum + l.net, 0);
    // Stripe pays out nothing when refunds outweigh gifts: the lines wait for the next day.
    if (amount <= 0) continue;
    const id = demoPayoutId(org, today);
    const marker = `demo-payout:${id}`;
    const guard = notYetApplied(marker);
    const ownRefunds = lines.map((l) => reversalIds.get(l.balanceTransactionId)).filter((v): v is string => !!v);
    const statements: Statement[] = [
      ...payoutStatements(
        db,
        guard,
        {
          id,
          amount,
          currency: 'gbp',
          status: 'paid',
          arrivalDate: now.getTime(),
          failureCode: null,
          failureMessage: null,
          eventAt: Math.floor(now.getTime() / 1000),
          organizationId: org,
        },
        lines,
      ),
      // Demo refunds may carry no re_… id to match on: they are named by their own row.
      ...chunks(ownRefunds).map((part) =>
        db
          .update(donationReversals)
          .set({ payoutId: id })
          .where(and(inArray(donationReversals.id, part), guard)),
      ),
      markEventApplied(db, marker, 'payout.paid'),
    ];
    const before = await db.query.webhookEvents.findFirst({ where: (t, { eq: is }) => is(t.id, marker) });
    if (before) continue;
    await db.batch(statements as [Statement, ...Statement[]]);
    made += 1;
  }
  return made;
}
