import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatLongUkDay, londonDayFromToday as londonDay } from '../../../domain';
import { campaigns, donations } from '../../../db/schema';
import { createAppeal, createCharity, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, type TestApp } from '#test-app';
import { datedCheckouts } from '../../../tests/support/dated-checkouts';

/**
 * A start date opens giving (docs/decisions/059), the mirror of ended.test.ts: a new checkout for an
 * item whose start date is still ahead (an appeal also waits for its campaign) answers 409 and stores
 * nothing; the start day itself takes gifts, an earlier start date opens the item at once, and a
 * payment already started is recorded whatever the date.
 */
const { app, monthlyPrice, start, counts } = datedCheckouts('opens');
let t: TestApp;
beforeAll(() => {
  t = app();
});

describe(`POST /api/stripe/client_secret: an item before its start date takes no gifts yet (${engineName})`, () => {
  it('refuses an appeal that opens on 1 December 2099 with 409 in its own words and stores nothing', async () => {
    const { campaign } = await createCharity(t.db, { campaign: { dateFrom: null, dateTo: null } });
    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      dateFrom: '2099-12-01',
      dateTo: null,
    });
    const before = await counts();
    const res = await start({
      campaign_id: campaign.id,
      appeal_id: appeal.id,
      giftAid: true,
      gift_aid: { first_name: 'Ann', last_name: 'Lee', house: '1', address: 'High Street, Leeds', postcode: 'LS1 4AP' },
      message: 'Good luck!',
    });
    expect(await errorOf(res, 409)).toEqual({
      statusCode: 409,
      message: 'This appeal opens for gifts on 1 December 2099.',
    });
    expect(await counts()).toEqual(before);
  });

  it('an appeal waits for its campaign (the later start), and a gift to that campaign is refused too', async () => {
    const tomorrow = londonDay(1);
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateFrom: tomorrow, dateTo: londonDay(90) },
      appeal: { dateFrom: londonDay(-5), dateTo: londonDay(60) },
    });
    // The appeal says when its campaign opens, so pages and the dashboard can tell without asking again.
    const read = await t.client().api.appeals[':id'].$get({ param: { id: appeal.id } });
    expect(await bodyOf(read, 200)).toMatchObject({ date: { from: londonDay(-5) }, campaign_date_from: tomorrow });
    const before = await counts();
    expect((await errorOf(await start({ campaign_id: campaign.id, appeal_id: appeal.id }), 409)).message).toBe(
      `This appeal opens for gifts on ${formatLongUkDay(tomorrow)}.`,
    );
    expect((await errorOf(await start({ campaign_id: campaign.id, appeal_id: null }), 409)).message).toBe(
      `This campaign opens for gifts on ${formatLongUkDay(tomorrow)}.`,
    );
    // A new monthly gift is refused the same way.
    const monthly = await start({
      campaign_id: campaign.id,
      appeal_id: appeal.id,
      amount: undefined,
      price: monthlyPrice,
    });
    expect((await errorOf(monthly, 409)).message).toBe(`This appeal opens for gifts on ${formatLongUkDay(tomorrow)}.`);
    expect(await counts()).toEqual(before);
  });

  it('takes gifts on the start day itself, and with no start date at all', async () => {
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateFrom: null, dateTo: null },
      appeal: { dateFrom: londonDay(0), dateTo: null },
    });
    const res = await start({ campaign_id: campaign.id, appeal_id: appeal.id });
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = await t.db.select().from(donations).where(eq(donations.appealId, appeal.id));
    expect(stored.map((d) => [d.status, d.amount])).toEqual([['pending', 1500]]);
    expect((await start({ campaign_id: campaign.id, appeal_id: null })).status).toBe(200);
  });

  it('an earlier start date opens the appeal at once: its fundraiser edits the date, then the gift is accepted', async () => {
    const { user, token } = await signedIn(t.db, 'donor');
    const { campaign } = await createCharity(t.db, { campaign: { dateFrom: null, dateTo: null } });
    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      createdBy: user.id,
      dateFrom: londonDay(10),
      dateTo: londonDay(40),
    });
    expect((await start({ campaign_id: campaign.id, appeal_id: appeal.id })).status).toBe(409);

    const put = await t
      .client(token)
      .api.campaigns[':id'].$put({ param: { id: appeal.id }, json: { date: { from: londonDay(0) } } });
    expect((await bodyOf(put, 200)).date?.from).toBe(londonDay(0));
    const accepted = await start({ campaign_id: campaign.id, appeal_id: appeal.id });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
  });

  it('a start date after the end date is refused when saved, and the stored dates stay as they were', async () => {
    const { user, token } = await signedIn(t.db, 'donor');
    const { campaign } = await createCharity(t.db, { campaign: { dateFrom: null, dateTo: null } });
    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      createdBy: user.id,
      dateFrom: londonDay(0),
      dateTo: londonDay(20),
    });
    const put = await t
      .client(token)
      .api.campaigns[':id'].$put({ param: { id: appeal.id }, json: { date: { from: londonDay(30) } } });
    expect(await errorOf(put, 400)).toEqual({ statusCode: 400, message: 'date.from must be on or before date.to' });
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id));
    expect([row.dateFrom, row.dateTo]).toEqual([londonDay(0), londonDay(20)]);
  });
});

describe(`An appeal cannot be set to start after its campaign's last day (${engineName})`, () => {
  it('refuses such a start date when the appeal is created or edited, and stores nothing', async () => {
    const { user, token } = await signedIn(t.db, 'donor');
    const { campaign } = await createCharity(t.db, { campaign: { dateFrom: null, dateTo: londonDay(20) } });
    const refusal = {
      statusCode: 400,
      message: `date.from: the campaign takes gifts until ${formatLongUkDay(londonDay(20))}; an appeal starting after that could never take one`,
    };
    const title = `Too late ${Date.now()}`;
    const create = (from: string) =>
      t.client(token).api.campaigns.$post({
        json: {
          title,
          description: 'A walk after the campaign.',
          story: 'Walking.',
          goal: 500,
          campaign_id: campaign.id,
          images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
          date: { from, to: londonDay(40) },
        },
      });
    expect(await errorOf(await create(londonDay(21)), 400)).toEqual(refusal);
    expect(await t.db.select().from(campaigns).where(eq(campaigns.title, title))).toHaveLength(0);
    // Its last day is still a day to start on.
    const lastDay = await bodyOf(await create(londonDay(20)), 201);
    expect(lastDay.date?.from).toBe(londonDay(20));

    const appeal = await createAppeal(t.db, campaign.id, {
      organizationId: campaign.organizationId,
      createdBy: user.id,
      dateFrom: londonDay(0),
      dateTo: londonDay(40),
    });
    const put = await t
      .client(token)
      .api.campaigns[':id'].$put({ param: { id: appeal.id }, json: { date: { from: londonDay(25) } } });
    expect(await errorOf(put, 400)).toEqual(refusal);
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id));
    expect(row.dateFrom).toBe(londonDay(0));
  });
});

describe(`Gifts started before a start date moved later are still recorded (${engineName})`, () => {
  it('a payment opened while the appeal was open is settled after its start date moved ahead', async () => {
    const { campaign, appeal } = await createCharity(t.db, {
      campaign: { dateFrom: null, dateTo: null },
      appeal: { dateFrom: londonDay(0), dateTo: null },
    });
    const { clientSecret } = await bodyOf(
      await start({ campaign_id: campaign.id, appeal_id: appeal.id, amount: 2500 }),
      200,
    );
    // The fundraiser moves the start date to next week while the donor is paying.
    await t.db
      .update(campaigns)
      .set({ dateFrom: londonDay(7) })
      .where(eq(campaigns.id, appeal.id));
    expect((await start({ campaign_id: campaign.id, appeal_id: appeal.id })).status).toBe(409);

    // The confirmation runs the same event handler as Stripe's webhook: the money is recorded.
    const confirmed = await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(await confirmed.json()).toEqual({ status: 'succeeded' });
    const stored = await t.db.select().from(donations).where(eq(donations.appealId, appeal.id));
    expect(stored.map((d) => [d.status, d.amount])).toEqual([['succeeded', 2500]]);
  });
});
