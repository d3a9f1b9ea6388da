import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, campaigns, donations, monthlyGifts, outbox, prices, users } from '../../../db/schema';
import { addMonths, formatLongUkDate } from '../../../domain';
import { createAppeal, createCampaign, createOrganization, createUser, signedIn } from '../../../tests/factories';
import {
  giftMetadata,
  fakeId,
  invoicePaid,
  invoicePaymentFailed,
  sendEvent,
  subscriptionDeleted,
  subscriptionUpdated,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import {
  bodyOf,
  engineName,
  errorOf,
  messageOf,
  PLATFORM_CHARITY,
  PLATFORM_CHARITY_ENV,
  setupTestApp,
  type TestApp,
} from '#test-app';

let t: TestApp;
const P = { five: `price_mg_${Date.now()}_5`, ten: `price_mg_${Date.now()}_10`, twenty: `price_mg_${Date.now()}_20` };

beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...PLATFORM_CHARITY_ENV });
  await t.db.insert(prices).values([
    { id: P.five, unitAmount: 500 },
    { id: P.ten, unitAmount: 1000 },
    { id: P.twenty, unitAmount: 2000 },
  ]);
});

const mail = (to: string) => t.db.select().from(outbox).where(eq(outbox.to, to));

/** A signed-in donor who started a demo monthly gift of £10 and paid the first month. */
async function monthlyDonor() {
  const org = await createOrganization(t.db);
  const campaign = await createCampaign(t.db, { organizationId: org.id });
  const appeal = await createAppeal(t.db, campaign.id, { title: 'Water for <Kibera> & friends' });
  const { user: donor, token } = await signedIn(t.db, 'donor', { overrides: { firstName: 'Ada' } });
  const stripe = t.client(token).api.stripe;
  const start = await stripe.client_secret.$post({
    json: { price: P.ten, campaign_id: campaign.id, appeal_id: appeal.id },
  });
  const { clientSecret } = await bodyOf(start, 200);
  const confirm = await stripe.demo.confirm.$post({ json: { clientSecret } });
  expect(await confirm.json()).toEqual({ status: 'succeeded' });
  const [row] = await t.db.select().from(donations).where(eq(donations.donorId, donor.id));
  const gift = () =>
    t.db
      .select()
      .from(monthlyGifts)
      .where(eq(monthlyGifts.id, row.subscriptionId!))
      .then((r) => r[0]);
  const list = async () => bodyOf(await t.client(token).api.me['monthly-gifts'].$get(), 200);
  const param = { id: row.subscriptionId! };
  const mine = (as = token) => t.client(as).api.me['monthly-gifts'][':id'];
  const act = {
    change: (price: string, as = token) => mine(as).change.$post({ param, json: { price } }),
    pause: (months: number, as = token) => mine(as).pause.$post({ param, json: { months } }),
    resume: (as = token) => mine(as).resume.$post({ param }),
    cancel: (as = token) => mine(as).cancel.$post({ param }),
  };
  /** Raw: for bodies the schema refuses (a month count as text, no price), which is what those tests check. */
  const actRaw = (path: string, json: unknown) =>
    t.request(`/api/me/monthly-gifts/${row.subscriptionId}/${path}`, { method: 'POST', token, json });
  const meta = giftMetadata({
    kind: 'monthly',
    donationId: row.id,
    campaignId: campaign.id,
    appealId: appeal.id,
    donorId: donor.id,
    source: 'demo',
  });
  return {
    org,
    campaign,
    appeal,
    donor,
    token,
    row,
    subscriptionId: row.subscriptionId!,
    gift,
    list,
    act,
    actRaw,
    meta,
  };
}

describe(`monthly gifts in demo mode (${engineName})`, () => {
  it('starts active after the first payment, with one receipt that has the next date and a cancel link', async () => {
    const m = await monthlyDonor();
    expect(await m.gift()).toMatchObject({
      status: 'active',
      amount: 1000,
      donorId: m.donor.id,
      appealId: m.appeal.id,
      source: 'demo',
    });
    const [listed] = await m.list();
    expect(listed).toMatchObject({
      _id: m.subscriptionId,
      amount: 1000,
      status: 'active',
      cause: { appeal: 'Water for <Kibera> & friends', on_site: true },
      mode: 'demo',
    });
    expect(Date.parse(listed.next_payment_at ?? '') - Date.now()).toBeGreaterThan(27 * 86400_000);
    // Its appeal taken off the site (decision 070): the list says so; the gift still runs.
    await t.db.update(campaigns).set({ status: 'deleted' }).where(eq(campaigns.id, m.appeal.id));
    expect((await m.list())[0]).toMatchObject({ status: 'active', cause: { on_site: false } });
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, m.appeal.id));
    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, m.appeal.campaignId!));
    expect((await m.list())[0]).toMatchObject({ cause: { on_site: false } });
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, m.appeal.campaignId!));
    expect((await m.list())[0]).toMatchObject({ cause: { on_site: true } });
    const mails = await mail(m.donor.email);
    expect(mails).toHaveLength(1);
    const [receipt] = mails;
    expect(receipt.key).toBe(`receipt:${m.row.id}`);
    expect(receipt.subject).toBe(`Your receipt: £10.00 to ${PLATFORM_CHARITY.name}`);
    expect(receipt.text).toContain(`Registered charity number ${PLATFORM_CHARITY.number}`);
    expect(receipt.text).toContain(PLATFORM_CHARITY.address);
    expect(receipt.text).toContain(`Payment reference: ${m.row.invoiceId}`);
    expect(receipt.text).toMatch(/next monthly payment of £10\.00 is due on \d{1,2} \w+ \d{4}/);
    expect(receipt.text).toMatch(/\/monthly\/cancel\?token=cancel\.sub_demo/);
    // User text is escaped in the HTML part, never raw.
    expect(receipt.html).toContain('Water for &lt;Kibera&gt; &amp; friends');
    expect(receipt.html).not.toContain('<Kibera>');
  });

  it('sends one receipt per gift under repeated and concurrent webhook copies', async () => {
    const m = await monthlyDonor();
    const renewalInvoice = fakeId('in');
    const renewal = invoicePaid({
      invoiceId: renewalInvoice,
      subscriptionId: m.subscriptionId,
      amount: 1000,
      metadata: m.meta,
      first: false,
    });
    const results = await Promise.all([renewal, renewal, renewal].map((e) => sendEvent(t, e)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    await sendEvent(t, renewal);
    // A different event id for the same invoice (Stripe resends) is still one receipt.
    const again = invoicePaid({
      invoiceId: renewalInvoice,
      subscriptionId: m.subscriptionId,
      amount: 1000,
      metadata: m.meta,
      first: false,
    });
    await Promise.all([sendEvent(t, again), sendEvent(t, again)]);
    const receipts = (await mail(m.donor.email)).filter((r) => r.key?.startsWith('receipt:'));
    expect(receipts).toHaveLength(2);
    const renewalRow = (await t.db.select().from(donations).where(eq(donations.invoiceId, renewalInvoice)))[0];
    expect(receipts.map((r) => r.key).sort()).toEqual([`receipt:${m.row.id}`, `receipt:${renewalRow.id}`].sort());
  });

  it('changes the amount to a listed price, pauses for 1-3 months and cancels, with a notice each', async () => {
    const m = await monthlyDonor();
    const change = await m.act.change(P.twenty);
    expect(await bodyOf(change, 200)).toMatchObject({ amount: 2000, status: 'active' });

    const paused = await bodyOf(await m.act.pause(2), 200);
    expect(paused).toMatchObject({ status: 'paused', amount: 2000 });
    const resumes = Date.parse(paused.pause_resumes_at ?? '');
    expect(resumes - Date.now()).toBeGreaterThan(58 * 86400_000);
    expect(resumes - Date.now()).toBeLessThan(63 * 86400_000);

    const cancel = await m.act.cancel();
    expect(await bodyOf(cancel, 200)).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'donor',
      next_payment_at: null,
    });
    expect((await m.act.cancel()).status).toBe(409);
    expect((await m.act.pause(1)).status).toBe(409);

    const subjects = (await mail(m.donor.email)).map((r) => r.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        `Your monthly gift to ${PLATFORM_CHARITY.name} is now £20.00`,
        `Your monthly gift to ${PLATFORM_CHARITY.name} is paused`,
        `Your monthly gift to ${PLATFORM_CHARITY.name} is cancelled`,
      ]),
    );
    expect((await m.list())[0]).toMatchObject({ status: 'cancelled' });
  });

  it('a 1-month pause of a gift first paid today names the skipped payment and the next one taken', async () => {
    const m = await monthlyDonor();
    // First paid this morning: the pause, counted from now, ends later on the day the next payment falls due.
    const started = new Date(Date.now() - 3600_000);
    await t.db.update(monthlyGifts).set({ startedAt: started }).where(eq(monthlyGifts.id, m.subscriptionId));
    const paused = await bodyOf(await m.act.pause(1), 200);
    expect(paused.skipped_payments).toEqual([addMonths(started, 1).toISOString()]);
    expect(paused.next_payment_at).toBe(addMonths(started, 2).toISOString());
    expect((await m.list())[0]).toMatchObject({
      skipped_payments: paused.skipped_payments,
      next_payment_at: paused.next_payment_at,
    });
    const [notice] = (await mail(m.donor.email)).filter((r) => r.subject?.endsWith('is paused'));
    expect(notice.text).toContain(`The payment due on ${formatLongUkDate(addMonths(started, 1))} will not be taken.`);
    expect(notice.text).toContain(`the next payment is on ${formatLongUkDate(addMonths(started, 2))}.`);
    // A copy of the first receipt asked for now names the payment after the pause as the next one.
    const copy = await t.client(m.token).api.donations[':id'].receipt.$post({ param: { id: m.row.id } });
    expect(copy.status).toBe(200);
    const [resent] = (await mail(m.donor.email)).filter((r) => r.key?.startsWith('receipt-copy:'));
    expect(resent.text).toContain(`is due on ${formatLongUkDate(addMonths(started, 2))}.`);
    // Running again, the gift has no skipped payments.
    const resumed = await bodyOf(await m.act.resume(), 200);
    expect(resumed).toMatchObject({ status: 'active', skipped_payments: [] });
  });

  it('resumes a paused gift at once with a notice, and refuses a second pause or resuming a running gift', async () => {
    const m = await monthlyDonor();
    const notPaused = await m.act.resume();
    expect((await errorOf(notPaused, 409)).message).toBe('This monthly gift is not paused');
    expect((await m.act.pause(3)).status).toBe(200);
    const firstPause = (await m.gift()).pauseResumesAt;
    // Pausing again would count from today and could cut the first pause short.
    const twice = await m.act.pause(1);
    expect((await errorOf(twice, 409)).message).toMatch(/already paused\. Resume it first/);
    expect((await m.gift()).pauseResumesAt).toEqual(firstPause);

    const resumed = await bodyOf(await m.act.resume(), 200);
    expect(resumed).toMatchObject({ status: 'active', pause_resumes_at: null });
    // The next payment is the gift's next monthly date, not the date the pause would have ended.
    const next = Date.parse(resumed.next_payment_at ?? '') - Date.now();
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(31 * 86400_000);
    expect(await m.gift()).toMatchObject({ status: 'active', pauseResumesAt: null });
    expect((await m.list())[0]).toMatchObject({ status: 'active' });
    expect((await m.act.resume()).status).toBe(409);
    const running = (await mail(m.donor.email)).filter(
      (r) => r.subject === `Your monthly gift to ${PLATFORM_CHARITY.name} is running again`,
    );
    expect(running).toHaveLength(1);
    expect(running[0].text).toMatch(/is running again\. The next payment is due on \d{1,2} \w+ \d{4}\./);
    // Someone else's gift is not found; a cancelled gift cannot be resumed.
    expect((await m.act.resume((await signedIn(t.db, 'donor')).token)).status).toBe(404);
    expect((await m.act.cancel()).status).toBe(200);
    expect((await m.act.resume()).status).toBe(409);
  });

  it('rejects bad input with a message naming the field, and changes nothing', async () => {
    const m = await monthlyDonor();
    for (const [path, body, field] of [
      ['pause', { months: 4 }, 'months'],
      ['pause', { months: 0 }, 'months'],
      ['pause', { months: 1.5 }, 'months'],
      ['pause', { months: '2' }, 'months'],
      ['change', { price: 'price_not_offered' }, 'price'],
      ['change', {}, 'price'],
      ['change', { price: P.ten }, 'price'],
    ] as const) {
      const res = await m.actRaw(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(await messageOf(res)).toMatch(new RegExp(`^${field}`));
    }
    expect(await m.gift()).toMatchObject({ status: 'active', amount: 1000, pauseResumesAt: null });
  });

  it("answers 404 for another donor's gift and 403 to managers of other organizations, changing nothing", async () => {
    const m = await monthlyDonor();
    const strangerToken = (await signedIn(t.db, 'donor')).token;
    for (const res of [
      await m.act.cancel(strangerToken),
      await m.act.pause(1, strangerToken),
      await m.act.change(P.five, strangerToken),
    ]) {
      expect(res.status).toBe(404);
    }
    // A donor cannot use the managers' route, even for their own gift.
    const param = { id: m.subscriptionId };
    const managed = (token?: string) => t.client(token).api['monthly-gifts'][':id'];
    expect((await managed(m.token).cancel.$post({ param })).status).toBe(403);
    const otherToken = (await signedIn(t.db, 'org_admin', { organizationIds: [(await createOrganization(t.db)).id] }))
      .token;
    expect((await managed(otherToken).cancel.$post({ param })).status).toBe(403);
    expect((await managed(otherToken).$get({ param })).status).toBe(403);
    expect((await t.client().api.me['monthly-gifts'][':id'].cancel.$post({ param })).status).toBe(401);
    // Raw: a made-up id in the path, as a visitor might type it.
    expect((await t.request(`/api/monthly-gifts/nonsense/cancel`, { method: 'POST', token: otherToken })).status).toBe(
      404,
    );
    expect(await m.gift()).toMatchObject({ status: 'active', amount: 1000 });
  });

  it("lets an admin of the gift's organization cancel it", async () => {
    const m = await monthlyDonor();
    const token = (await signedIn(t.db, 'org_admin', { organizationIds: [m.org.id] })).token;
    const managed = t.client(token).api['monthly-gifts'][':id'];
    const param = { id: m.subscriptionId };
    expect(await bodyOf(await managed.$get({ param }), 200)).toMatchObject({ status: 'active' });
    const res = await managed.cancel.$post({ param });
    expect(res.status).toBe(200);
    expect(await m.gift()).toMatchObject({ status: 'cancelled', cancelledBy: 'admin' });
    // The audit log says which staff member ended it; a second press is a 409 and adds no row.
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.targetId, m.subscriptionId));
    expect(rows).toMatchObject([
      {
        action: 'monthly_gift.cancel',
        actorType: 'org_admin',
        organizationId: m.org.id,
        changes: { status: ['active', 'cancelled'] },
      },
    ]);
    expect((await managed.cancel.$post({ param })).status).toBe(409);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, m.subscriptionId))).toHaveLength(1);
  });
});

describe(`customer.subscription.* webhooks (${engineName})`, () => {
  it('applies the newest state whatever the delivery order, and cancelled stays cancelled', async () => {
    const m = await monthlyDonor();
    const now = Math.floor(Date.now() / 1000);
    const base = { subscriptionId: m.subscriptionId, metadata: m.meta };
    const pausedLater = subscriptionUpdated({
      ...base,
      amount: 2000,
      pauseResumesAt: now + 40 * 86400,
      created: now + 20,
      previous: { pause_collection: null },
    });
    const olderChange = subscriptionUpdated({ ...base, amount: 1500, created: now + 10, previous: { items: {} } });
    expect(await (await sendEvent(t, pausedLater)).json()).toMatchObject({ outcome: 'recorded' });
    await sendEvent(t, olderChange);
    expect(await m.gift()).toMatchObject({ status: 'paused', amount: 2000, lastEventAt: now + 20 });
    // Replays change nothing.
    expect(await (await sendEvent(t, pausedLater)).json()).toMatchObject({ outcome: 'duplicate' });

    const deleted = subscriptionDeleted({ ...base, amount: 2000, created: now + 30 });
    const resurrect = subscriptionUpdated({
      ...base,
      amount: 3000,
      status: 'active',
      created: now + 40,
      previous: { items: {} },
    });
    await Promise.all([sendEvent(t, resurrect), sendEvent(t, deleted)]);
    expect(await m.gift()).toMatchObject({ status: 'cancelled', cancelledBy: 'stripe', nextPaymentAt: null });
    const cancelledMails = (await mail(m.donor.email)).filter((r) => r.key?.startsWith('monthly-cancelled:'));
    expect(cancelledMails).toHaveLength(1);
    // A later paid invoice (Stripe's last one, delivered late) does not restart it.
    await sendEvent(
      t,
      invoicePaid({
        invoiceId: fakeId('in'),
        subscriptionId: m.subscriptionId,
        amount: 2000,
        metadata: m.meta,
        first: false,
      }),
    );
    expect(await m.gift()).toMatchObject({ status: 'cancelled' });

    // Both delivery orders, one after the other: a cancelled gift never keeps a next payment date.
    for (const order of ['cancellation first', 'cancellation last'] as const) {
      const g = await monthlyDonor();
      const b = { subscriptionId: g.subscriptionId, metadata: g.meta };
      const cancel = subscriptionDeleted({ ...b, amount: 2000, created: now + 30 });
      const later = subscriptionUpdated({
        ...b,
        amount: 3000,
        status: 'active',
        created: now + 40,
        previous: { items: {} },
      });
      for (const event of order === 'cancellation first' ? [cancel, later] : [later, cancel]) await sendEvent(t, event);
      expect(await g.gift(), order).toMatchObject({ status: 'cancelled', nextPaymentAt: null });
    }
  });

  it('creates the gift from a subscription event that arrives before its first invoice', async () => {
    const donor = await createUser(t.db);
    const campaign = await createCampaign(t.db);
    const donationId = crypto.randomUUID();
    const subscriptionId = fakeId('sub');
    const meta = giftMetadata({ kind: 'monthly', donationId, campaignId: campaign.id, donorId: donor.id });
    await sendEvent(
      t,
      subscriptionUpdated({
        subscriptionId,
        amount: 500,
        metadata: meta,
        status: 'active',
        previous: { status: 'incomplete' },
      }),
    );
    await sendEvent(t, invoicePaid({ invoiceId: fakeId('in'), subscriptionId, amount: 500, metadata: meta }));
    const [gift] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, subscriptionId));
    expect(gift).toMatchObject({ status: 'active', amount: 500, donorId: donor.id, firstDonationId: donationId });
    // Not ours: metadata that points nowhere is ignored.
    const stranger = subscriptionUpdated({
      subscriptionId: fakeId('sub'),
      amount: 500,
      metadata: { ...meta, donor_id: crypto.randomUUID(), donation_id: crypto.randomUUID() },
    });
    expect(await (await sendEvent(t, stranger)).json()).toMatchObject({ outcome: 'ignored' });
  });

  it('emails a failed renewal once, with a signed link to update the card', async () => {
    const m = await monthlyDonor();
    const failed = invoicePaymentFailed({
      invoiceId: fakeId('in'),
      subscriptionId: m.subscriptionId,
      amount: 1000,
      metadata: m.meta,
      first: false,
    });
    await Promise.all([sendEvent(t, failed), sendEvent(t, failed)]);
    const notices = (await mail(m.donor.email)).filter((r) => r.key?.startsWith('renewal-failed:'));
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toContain('No money was taken');
    expect(notices[0].text).toMatch(/\/monthly\/card\?token=card\.sub_/);
    const users_ = await t.db.select().from(users).where(like(users.email, m.donor.email));
    expect(users_).toHaveLength(1);
  });
});
