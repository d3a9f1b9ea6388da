import { desc, eq, isNotNull, isNull, and } from 'drizzle-orm';
import { recomputeTotals, storedTotals } from '../api/services/campaigns/totals';
import { describe, expect, it } from 'vitest';
import { engineName, setupTestApp } from '#test-app';
import * as schema from './schema';
import { DEMO_ACCOUNTS, parseSeedScale, seed } from './seed';
import { addMonths, giftAidDeclaration } from '../domain';

describe(`seed (${engineName})`, () => {
  it('writes the demo charity once, and a second run adds nothing', { timeout: 60_000 }, async () => {
    const { db } = await setupTestApp();
    const tally = async () => ({
      organizations: await db.$count(schema.organizations),
      users: await db.$count(schema.users),
      campaigns: await db.$count(schema.campaigns, isNull(schema.campaigns.campaignId)),
      appeals: await db.$count(schema.campaigns, isNotNull(schema.campaigns.campaignId)),
      donations: await db.$count(schema.donations),
      declarations: await db.$count(schema.giftAidDeclarations),
      prices: await db.$count(schema.prices),
      causes: await db.$count(schema.templateCauses),
      orgAdmins: await db.$count(schema.organizationAdmins),
      reversals: await db.$count(schema.donationReversals),
      monthlyGifts: await db.$count(schema.monthlyGifts),
    });

    await seed(db);
    const first = await tally();
    expect(first).toMatchObject({
      organizations: 3,
      users: 43,
      campaigns: 6,
      appeals: 18,
      donations: 300,
      prices: 4,
      causes: 5,
      orgAdmins: 2,
    });
    expect(first.declarations).toBeGreaterThan(0);
    // "Run for Clean Water" raises for the clean water campaign (decision 073); the other causes for none.
    const causes = await db
      .select({ title: schema.templateCauses.title, campaign: schema.campaigns.title })
      .from(schema.templateCauses)
      .leftJoin(schema.campaigns, eq(schema.campaigns.id, schema.templateCauses.campaignId));
    expect(causes.filter((c) => c.campaign !== null)).toEqual([
      { title: 'Run for Clean Water', campaign: 'Clean Water for Every Village' },
    ]);

    await seed(db);
    expect(await tally()).toEqual(first);

    const { campaignId, status } = schema.campaigns;
    expect(await db.$count(schema.campaigns, and(isNotNull(campaignId), eq(status, 'draft')))).toBeGreaterThan(0);
    expect(await db.$count(schema.campaigns, eq(status, 'deleted'))).toBeGreaterThan(0);

    const demo = await db
      .select({ id: schema.users.id, email: schema.users.email, type: schema.users.type })
      .from(schema.users);
    const byEmail = Object.fromEntries(demo.map((u) => [u.email, u.type]));
    expect(byEmail[DEMO_ACCOUNTS.admin]).toBe('admin');
    expect(byEmail[DEMO_ACCOUNTS.orgAdmin]).toBe('org_admin');
    expect(byEmail[DEMO_ACCOUNTS.donor]).toBe('donor');
    expect(byEmail[DEMO_ACCOUNTS.finance]).toBe('finance');

    // Every seeded Gift Aid declaration names the charity its gift went to (the campaign's
    // organization), never the platform's default name.
    const declared = await db
      .select({ text: schema.giftAidDeclarations.declarationText, charity: schema.organizations.name })
      .from(schema.donations)
      .innerJoin(schema.giftAidDeclarations, eq(schema.giftAidDeclarations.id, schema.donations.giftAidDeclarationId))
      .innerJoin(schema.campaigns, eq(schema.campaigns.id, schema.donations.campaignId))
      .innerJoin(schema.organizations, eq(schema.organizations.id, schema.campaigns.organizationId));
    expect(declared.length).toBe(first.declarations);
    for (const row of declared) expect(row.text).toBe(giftAidDeclaration(row.charity));

    // Every refunded gift has the succeeded refund that took its money back (the journal's reversal line), once.
    const refunded = await db
      .select({ amount: schema.donations.refundedAmount, back: schema.donationReversals.amount })
      .from(schema.donations)
      .leftJoin(
        schema.donationReversals,
        and(
          eq(schema.donationReversals.donationId, schema.donations.id),
          eq(schema.donationReversals.status, 'succeeded'),
        ),
      )
      .where(eq(schema.donations.status, 'refunded'));
    expect(refunded.length).toBeGreaterThan(0);
    for (const row of refunded) expect(row.back).toBe(row.amount);
    expect(await db.$count(schema.donationReversals)).toBe(refunded.length);

    // Every monthly payment belongs to the monthly gift (subscription) of its donor and cause, which
    // the office list and My Donations show: it started with the first payment, gives the newest's
    // amount, and is active only while the newest was paid and its next monthly date is to come.
    const monthly = await db
      .select()
      .from(schema.donations)
      .where(eq(schema.donations.type, 'monthly'))
      .orderBy(schema.donations.date);
    const gifts = await db.select().from(schema.monthlyGifts);
    expect(gifts.length).toBe(first.monthlyGifts);
    expect(new Set(monthly.map((d) => d.subscriptionId)).size).toBe(gifts.length);
    for (const gift of gifts) {
      const payments = monthly.filter((d) => d.subscriptionId === gift.id);
      const newest = payments[payments.length - 1];
      expect(gift.id).toMatch(/^sub_demo[0-9a-f]{24}$/);
      expect(payments.length).toBeGreaterThan(0);
      for (const payment of payments) {
        expect([payment.donorId, payment.campaignId, payment.appealId]).toEqual([
          gift.donorId,
          gift.campaignId,
          gift.appealId,
        ]);
      }
      expect(gift.firstDonationId).toBe(payments[0].id);
      expect(gift.startedAt).toEqual(payments[0].date);
      expect(gift.amount).toBe(newest.amount);
      expect(gift.priceId).toBe(`price_demo_monthly_${newest.amount}`);
      expect(gift.source).toBe('demo');
      const nextDue = addMonths(newest.date, 1);
      if (newest.status === 'succeeded' && nextDue.getTime() > Date.now()) {
        expect(gift.status).toBe('active');
        expect(gift.nextPaymentAt).toEqual(nextDue);
        expect(gift.cancelledAt).toBeNull();
      } else {
        expect(gift.status).toBe('cancelled');
        expect(gift.nextPaymentAt).toBeNull();
        expect(gift.cancelledAt!.getTime()).toBeGreaterThanOrEqual(newest.date.getTime());
        expect(gift.cancelledAt!.getTime()).toBeLessThanOrEqual(Date.now());
        expect(['donor', 'stripe']).toContain(gift.cancelledBy);
      }
    }
    expect(gifts.filter((g) => g.status === 'active').length).toBeGreaterThan(0);
    expect(gifts.filter((g) => g.status === 'cancelled').length).toBeGreaterThan(0);
    const demoDonorId = demo.find((u) => u.email === DEMO_ACCOUNTS.donor)!.id;
    expect(gifts.filter((g) => g.donorId === demoDonorId).length).toBeGreaterThan(0);

    const yearAgo = Date.now() - 366 * 24 * 60 * 60 * 1000;
    const dates = await db.select({ date: schema.donations.date }).from(schema.donations);
    expect(dates.every((d) => d.date.getTime() > yearAgo && d.date.getTime() <= Date.now())).toBe(true);
  });
});

describe(`seed --scale (${engineName})`, () => {
  it('writes N times the donors, appeals and donations, once, with totals equal to a recomputation', {
    timeout: 120_000,
  }, async () => {
    const { db } = await setupTestApp();
    const tally = async () => ({
      users: await db.$count(schema.users),
      campaigns: await db.$count(schema.campaigns, isNull(schema.campaigns.campaignId)),
      appeals: await db.$count(schema.campaigns, isNotNull(schema.campaigns.campaignId)),
      donations: await db.$count(schema.donations),
    });
    await seed(db, undefined, { scale: 3 });
    const first = await tally();
    expect(first).toEqual({ users: 43 + 2 * 40, campaigns: 6, appeals: 3 * 18, donations: 3 * 300 });
    await seed(db, undefined, { scale: 3 });
    expect(await tally()).toEqual(first);
    expect(Object.fromEntries(await storedTotals(db))).toEqual(Object.fromEntries(await recomputeTotals(db)));
    // The demo's own appeals stay first in the newest-first lists.
    const newest = await db
      .select({ title: schema.campaigns.title })
      .from(schema.campaigns)
      .where(isNotNull(schema.campaigns.campaignId))
      .orderBy(desc(schema.campaigns.createdAt))
      .limit(18);
    expect(newest.every((a) => !/\(\d+\)$/.test(a.title))).toBe(true);
  });

  it.each([0, -1, 1001, 2.5, Number.NaN, 'ten', '', '1e2', undefined])(
    'refuses a scale of %j with a message saying what to pass',
    (value) => {
      expect(() => parseSeedScale(value as never)).toThrow(/--scale must be a whole number from 1 to 1000/);
    },
  );

  it('accepts 1 to 1000', () => {
    expect(parseSeedScale('1')).toBe(1);
    expect(parseSeedScale(100)).toBe(100);
    expect(parseSeedScale(' 1000 ')).toBe(1000);
  });
});
