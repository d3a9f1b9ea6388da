import { and, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { appealOfGift, appeals, campaignOfGift, giftOf } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { campaigns, donations, giftAidAdjustments, giftAidClaimedGifts, monthlyGifts } from '../../../db/schema';
import { ukTaxYearOf } from '../../../domain/dates';
import { orgScope } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { DonorGivingDto } from '../../schemas/users';
import { getUser } from './manage';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';

/** Checkouts nobody paid are not giving: anyone can start one for any email. */
const UNPAID = ['pending', 'abandoned'] as const;

/** Gifts to the viewer's organizations only: an organization's staff see what was given to them. */
function inScope(viewer: AuthUser): SQL | undefined {
  const scope = orgScope(viewer);
  if (scope === 'all') return undefined;
  return scope.length ? inArray(campaigns.organizationId, scope) : sql`0`;
}

const num = (value: unknown) => Number(value ?? 0);

/**
 * One donor's giving history and totals, as their organization's staff and finance see it: totals
 * count paid gifts net of refunds and reversals (the same rule as the campaign totals), and Gift Aid
 * claimed less any adjustment owed back to HMRC after a refund.
 */
export async function donorGiving(
  db: Db,
  idParam: string,
  viewer: AuthUser,
  page: { limit: number; offset: number },
  now = new Date(),
): Promise<{ giving: DonorGivingDto; total: number }> {
  const donor = await getUser({ db, viewer }, idParam);
  const donorId = donor._id;
  const scope = inScope(viewer);
  const listed = and(eq(donations.donorId, donorId), notInArray(donations.status, [...UNPAID]), scope);
  const paid = and(eq(donations.donorId, donorId), inArray(donations.status, [...PAID_DONATION_STATUSES]), scope);
  const taxYear = ukTaxYearOf(now);
  const net = sql`${donations.amount} - ${donations.refundedAmount}`;

  const [rows, [count], [sums], [claimed], [adjusted], [monthly]] = await Promise.all([
    db
      .select({
        gift: donations,
        campaignTitle: campaigns.title,
        organizationId: campaigns.organizationId,
        appealTitle: appeals.title,
        claimId: giftAidClaimedGifts.claimId,
      })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .leftJoin(appeals, appealOfGift)
      .leftJoin(giftAidClaimedGifts, eq(giftAidClaimedGifts.donationId, donations.id))
      .where(listed)
      .orderBy(desc(donations.date), desc(donations.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)` }).from(donations).innerJoin(campaigns, campaignOfGift).where(listed),
    db
      .select({
        given: sql<number>`coalesce(sum(${net}), 0)`,
        taxYear: sql<number>`coalesce(sum(case when ${donations.date} >= ${taxYear.start.getTime()} and ${donations.date} < ${taxYear.end.getTime()} then ${net} else 0 end), 0)`,
        gifts: sql<number>`coalesce(sum(${donations.status} = 'succeeded'), 0)`,
      })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .where(paid),
    // A donor's Gift Aid: 25% of each of their claimed gifts, rounded down per gift. (A claim rounds
    // 25% of its whole total once, as HMRC does, so across donors the claim can be a few pence more.)
    db
      .select({ n: sql<number>`coalesce(sum(${giftAidClaimedGifts.amountPence} * 25 / 100), 0)` })
      .from(giftAidClaimedGifts)
      .innerJoin(donations, giftOf(giftAidClaimedGifts))
      .innerJoin(campaigns, campaignOfGift)
      .where(and(eq(donations.donorId, donorId), scope)),
    db
      .select({ n: sql<number>`coalesce(sum(${giftAidAdjustments.giftAidPence}), 0)` })
      .from(giftAidAdjustments)
      .innerJoin(donations, giftOf(giftAidAdjustments))
      .innerJoin(campaigns, campaignOfGift)
      .where(and(eq(donations.donorId, donorId), scope)),
    db
      .select({ n: sql<number>`count(*)`, pence: sql<number>`coalesce(sum(${monthlyGifts.amount}), 0)` })
      .from(monthlyGifts)
      .innerJoin(campaigns, eq(campaigns.id, monthlyGifts.campaignId))
      .where(and(eq(monthlyGifts.donorId, donorId), eq(monthlyGifts.status, 'active'), scope)),
  ]);

  return {
    total: num(count?.n),
    giving: {
      donor_id: donorId,
      totals: {
        given_pence: num(sums?.given),
        tax_year_pence: num(sums?.taxYear),
        tax_year: taxYear.label,
        gift_count: num(sums?.gifts),
        gift_aid_claimed_pence: Math.max(0, num(claimed?.n) - num(adjusted?.n)),
        monthly_active: num(monthly?.n),
        monthly_active_pence: num(monthly?.pence),
      },
      gifts: rows.map(({ gift, campaignTitle, organizationId, appealTitle, claimId }) => ({
        _id: gift.id,
        date: gift.date.toISOString(),
        amount: gift.amount,
        refunded_amount: gift.refundedAmount,
        campaign: { _id: gift.campaignId, title: campaignTitle },
        appeal: gift.appealId && appealTitle !== null ? { _id: gift.appealId, title: appealTitle } : null,
        organization_id: organizationId,
        status: gift.status,
        type: gift.type,
        method: gift.method,
        source: gift.source,
        gift_aid: gift.giftAid,
        gift_aid_claimed: claimId !== null,
      })),
    },
  };
}
