import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { londonDayFromToday as londonDay } from '../../../domain';
import { campaigns, donations } from '../../../db/schema';
import { createAppeal, createCharity, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, type TestApp } from '#test-app';
import { datedCheckouts } from '../../../tests/support/dated-checkouts';

/**
 * An end date ends giving (docs/decisions/056): a new checkout for an item whose end date has
 * passed (an appeal also ends with its campaign) answers 409 and stores nothing; a payment started
 * before the end is still recorded, the office's manual gifts still go in, and a later end date
 * reopens the item.
 */
const { app, monthlyPrice, start, counts } = datedCheckouts('ended');
let t: TestApp;
beforeAll(() => {
  t = app();
});

const GIFT_AID = {
  first_name: 'Ann',
  last_name: 'Lee',
  house: '1',
  address: 'High Street, Leeds',
  postcode: 'LS1 4AP',
};

describe(`POST /api/stripe/client_secret: an item past its end date takes no new gifts (${engineName})`, () => {
  it('refuses an ended appeal with 409 in its own words and stores nothing', async () => {
    const { campaign } = await createCharity(t.db, { campaign: { dateTo: londonDay(30) } });
    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      dateTo: '2025-11-30',
    });
    const before = await counts();
    const res = await start({
      campaign_id: campaign.id,
      appeal_id: appeal.id,
      giftAid: true,
      gift_aid: GIFT_AID,
      message: 'Good luck!',
    });
    expect(await errorOf(res, 409)).toEqual({
      statusCode: 409,
      message: 'This appeal ended on 30 November 2025 and takes no new gifts.',
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses an appeal whose campaign ended yesterday, naming the campaign’s end, and a gift to that campaign', async () => {
    const yesterday = londonDay(-1);
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateTo: yesterday },
      appeal: { dateTo: londonDay(60) },
    });
    // The appeal says when its campaign ends, so pages and the dashboard can tell without asking again.
    const read = await t.client().api.appeals[':id'].$get({ param: { id: appeal.id } });
    expect(await bodyOf(read, 200)).toMatchObject({ date: { to: londonDay(60) }, campaign_date_to: yesterday });
    const before = await counts();
    const spoken = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${yesterday}T12:00:00Z`));
    expect((await errorOf(await start({ campaign_id: campaign.id, appeal_id: appeal.id }), 409)).message).toBe(
      `This appeal ended on ${spoken} and takes no new gifts.`,
    );
    expect((await errorOf(await start({ campaign_id: campaign.id, appeal_id: null }), 409)).message).toBe(
      `This campaign ended on ${spoken} and takes no new gifts.`,
    );
    // A new monthly gift is refused the same way.
    const monthly = await start({
      campaign_id: campaign.id,
      appeal_id: appeal.id,
      amount: undefined,
      price: monthlyPrice,
    });
    expect((await errorOf(monthly, 409)).message).toBe(`This appeal ended on ${spoken} and takes no new gifts.`);
    expect(await counts()).toEqual(before);
  });

  it('still takes gifts on the last day itself, and with no end date at all', async () => {
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateTo: null },
      appeal: { dateTo: londonDay(0) },
    });
    const res = await start({ campaign_id: campaign.id, appeal_id: appeal.id });
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = await t.db.select().from(donations).where(eq(donations.appealId, appeal.id));
    expect(stored.map((d) => [d.status, d.amount])).toEqual([['pending', 1500]]);
    expect((await start({ campaign_id: campaign.id, appeal_id: null })).status).toBe(200);
  });

  it('a later end date reopens an ended appeal: its fundraiser edits the date, then the gift is accepted', async () => {
    const { user, token } = await signedIn(t.db, 'donor');
    const { campaign } = await createCharity(t.db, { campaign: { dateTo: null } });
    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      createdBy: user.id,
      dateFrom: londonDay(-40),
      dateTo: londonDay(-2),
    });
    const refused = await start({ campaign_id: campaign.id, appeal_id: appeal.id });
    expect(refused.status).toBe(409);

    const put = await t
      .client(token)
      .api.campaigns[':id'].$put({ param: { id: appeal.id }, json: { date: { to: londonDay(14) } } });
    expect((await bodyOf(put, 200)).date?.to).toBe(londonDay(14));
    const accepted = await start({ campaign_id: campaign.id, appeal_id: appeal.id });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
  });
});

describe(`Gifts started before the end are still recorded (${engineName})`, () => {
  it('a payment opened while the appeal was open is settled after its end date passes', async () => {
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateTo: null },
      appeal: { dateTo: londonDay(0) },
    });
    const res = await start({ campaign_id: campaign.id, appeal_id: appeal.id, amount: 2500 });
    const { clientSecret } = await bodyOf(res, 200);
    // Midnight passes: the appeal's end date is now behind it.
    await t.db
      .update(campaigns)
      .set({ dateTo: londonDay(-1) })
      .where(eq(campaigns.id, appeal.id));
    expect((await start({ campaign_id: campaign.id, appeal_id: appeal.id })).status).toBe(409);

    // The confirmation runs the same event handler as Stripe's webhook: the money is recorded.
    const confirmed = await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(await confirmed.json()).toEqual({ status: 'succeeded' });
    const stored = await t.db.select().from(donations).where(eq(donations.appealId, appeal.id));
    expect(stored.map((d) => [d.status, d.amount])).toEqual([['succeeded', 2500]]);
  });

  it('the office still enters a manual gift to an ended appeal (income that arrived before the end)', async () => {
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateTo: londonDay(-10) },
      appeal: { dateTo: londonDay(-10) },
    });
    const { token } = await signedIn(t.db, 'admin');
    const donor = await signedIn(t.db, 'donor');
    const res = await t.client(token).api.donations.$post({
      json: { donor: donor.user.id, amount: 4_000, date: londonDay(-12), campaign: campaign.id, appeal: appeal.id },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const stored = await t.db.select().from(donations).where(eq(donations.appealId, appeal.id));
    expect(stored.map((d) => [d.status, d.amount])).toEqual([['succeeded', 4000]]);
  });
});
