import { beforeAll, describe, expect, it } from 'vitest';
import { giftAidAdjustments, giftAidClaimedGifts } from '../../../db/schema';
import { ukTaxYearOf } from '../../../domain/dates';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createGiftAidClaim,
  createMonthlyGift,
  createOrganization,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

const DAY = 86_400_000;

describe(`a donor's giving history and totals (${engineName})`, () => {
  let t: TestApp;
  let admin: SignedIn;
  let orgAdminX: SignedIn;
  let financeX: SignedIn;
  let donorId: string;
  let giftIds: Record<string, string>;

  beforeAll(async () => {
    t = await setupTestApp();
    const orgX = (await createOrganization(t.db)).id;
    const orgY = (await createOrganization(t.db)).id;
    const campaignX = await createCampaign(t.db, { organizationId: orgX, title: 'Wells for Kenya' });
    const appealX = await createAppeal(t.db, campaignX.id, { organizationId: orgX, title: 'Sam runs for wells' });
    const campaignY = await createCampaign(t.db, { organizationId: orgY, title: 'Other charity' });
    admin = await signedIn(t.db, 'admin');
    orgAdminX = await signedIn(t.db, 'org_admin', { organizationIds: [orgX] });
    financeX = await signedIn(t.db, 'finance', { organizationIds: [orgX] });
    const donor = await createUser(t.db);
    donorId = donor.id;
    const now = Date.now();
    const lastTaxYear = new Date(ukTaxYearOf(new Date()).start.getTime() - 30 * DAY);
    const gift = async (name: string, values: Partial<Parameters<typeof createDonation>[1]> & { campaignId: string }) =>
      [name, (await createDonation(t.db, { donorId, ...values })).id] as const;
    giftIds = Object.fromEntries([
      // This tax year: £50 with Gift Aid (claimed), £20 partly refunded (£5 back), a cheque to the appeal.
      await gift('claimed', {
        campaignId: campaignX.id,
        amount: 5000,
        giftAid: true,
        method: 'card',
        date: new Date(now - DAY),
      }),
      await gift('partRefunded', {
        campaignId: campaignX.id,
        amount: 2000,
        refundedAmount: 500,
        date: new Date(now - 2 * DAY),
      }),
      await gift('cheque', {
        campaignId: campaignX.id,
        appealId: appealX.id,
        amount: 1500,
        method: 'cheque',
        source: 'batch',
        date: new Date(now - 3 * DAY),
      }),
      // Last tax year: £10; a wholly refunded gift; a failed one and an abandoned checkout (never giving).
      await gift('lastYear', { campaignId: campaignX.id, amount: 1000, date: lastTaxYear }),
      await gift('refunded', {
        campaignId: campaignX.id,
        amount: 3000,
        refundedAmount: 3000,
        status: 'refunded',
        date: lastTaxYear,
      }),
      await gift('failed', { campaignId: campaignX.id, amount: 700, status: 'failed', date: new Date(now - 4 * DAY) }),
      await gift('abandoned', {
        campaignId: campaignX.id,
        amount: 900,
        status: 'abandoned',
        date: new Date(now - 5 * DAY),
      }),
      // To another organization: counted for admins only.
      await gift('elsewhere', { campaignId: campaignY.id, amount: 10_000, date: new Date(now - DAY / 2) }),
    ]);
    const claim = await createGiftAidClaim(t.db, {
      organizationId: orgX,
      earliestDate: new Date(now - DAY),
      latestDate: new Date(now - DAY),
      totalPence: 5000,
      giftAidPence: 1250,
      accountingPeriodEnd: new Date(now + 100 * DAY),
      retainUntil: new Date(now + 2000 * DAY),
    });
    await t.db
      .insert(giftAidClaimedGifts)
      .values({ donationId: giftIds.claimed, claimId: claim.id, line: 1, amountPence: 5000 });
    // £1 of that gift went back after the claim: 25p of Gift Aid is owed back to HMRC.
    await t.db
      .insert(giftAidAdjustments)
      .values({ donationId: giftIds.claimed, claimId: claim.id, organizationId: orgX, giftAidPence: 25 });
    await createMonthlyGift(t.db, { donorId, campaignId: campaignX.id, amount: 1200 });
    await createMonthlyGift(t.db, { donorId, campaignId: campaignX.id, amount: 800, status: 'cancelled' });
    await createMonthlyGift(t.db, { donorId, campaignId: campaignY.id, amount: 3000 });
  }, 60_000);

  const givingOf = (token: string, id: string, query: { limit?: string; offset?: string } = {}) =>
    t.client(token).api.users[':id'].giving.$get({ param: { id }, query });
  const giving = async (token: string, query: { limit?: string; offset?: string } = {}) => {
    const res = await givingOf(token, donorId, query);
    return { body: await bodyOf(res, 200), total: Number(res.headers.get('x-total-count')) };
  };

  it('totals paid gifts net of refunds, this tax year, Gift Aid claimed less adjustments, and active monthly gifts (organization staff: their organization)', {
    timeout: 30_000,
  }, async () => {
    for (const who of [orgAdminX, financeX]) {
      const { body, total } = await giving(who.token);
      expect(body.totals).toEqual({
        given_pence: 5000 + 1500 + 1500 + 1000,
        tax_year_pence: 5000 + 1500 + 1500,
        tax_year: ukTaxYearOf(new Date()).label,
        gift_count: 4,
        gift_aid_claimed_pence: 1250 - 25,
        monthly_active: 1,
        monthly_active_pence: 1200,
      });
      // Newest first; unpaid checkouts and the other organization's gift are not listed.
      expect(body.gifts.slice(0, 4).map((g) => g._id)).toEqual(
        ['claimed', 'partRefunded', 'cheque', 'failed'].map((k) => giftIds[k]),
      );
      expect(new Set(body.gifts.map((g) => g._id))).toEqual(
        new Set(['claimed', 'partRefunded', 'cheque', 'failed', 'lastYear', 'refunded'].map((k) => giftIds[k])),
      );
      expect(total).toBe(6);
      const cheque = body.gifts.find((g) => g._id === giftIds.cheque)!;
      expect(cheque).toMatchObject({
        amount: 1500,
        method: 'cheque',
        source: 'batch',
        campaign: { title: 'Wells for Kenya' },
        appeal: { title: 'Sam runs for wells' },
        gift_aid_claimed: false,
      });
      expect(body.gifts.find((g) => g._id === giftIds.claimed)).toMatchObject({
        gift_aid: true,
        gift_aid_claimed: true,
        status: 'succeeded',
      });
    }
  });

  it('counts every organization for admins, and pages the list', { timeout: 30_000 }, async () => {
    const { body, total } = await giving(admin.token, { limit: '2', offset: '0' });
    expect(body.totals.given_pence).toBe(9000 + 10_000);
    expect(body.totals.monthly_active).toBe(2);
    expect(body.totals.monthly_active_pence).toBe(4200);
    expect(total).toBe(7);
    expect(body.gifts.map((g) => g._id)).toEqual([giftIds.elsewhere, giftIds.claimed]);
  });

  it('refuses donors and other organizations, and bad paging, without a 500', { timeout: 30_000 }, async () => {
    const donor = await signedIn(t.db, 'donor');
    expect((await givingOf(donor.token, donorId)).status).toBe(403);
    expect((await givingOf(donor.token, donor.user.id)).status).toBe(403);
    const otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [(await createOrganization(t.db)).id] });
    expect((await givingOf(otherOrgAdmin.token, donorId)).status).toBe(404);
    expect((await givingOf(admin.token, crypto.randomUUID())).status).toBe(404);
    const bad = await givingOf(admin.token, donorId, { limit: '5000' });
    expect((await errorOf(bad, 400)).message).toMatch(/limit/);
  });
});
