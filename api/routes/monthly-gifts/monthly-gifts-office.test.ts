import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns, monthlyGifts, outbox } from '../../../db/schema';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  type DonationFields,
  type MonthlyGiftFields,
  monthlyGiftRow,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

let t: TestApp;
const run = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
let w: Awaited<ReturnType<typeof world>>;

/** Two organizations: Org A has four gifts (one per office status, one failing with its email sent), Org B one. */
async function world() {
  const orgA = await createOrganization(t.db, { name: `Office A ${run}` });
  const orgB = await createOrganization(t.db, { name: `Office B ${run}` });
  const campaignA = await createCampaign(t.db, { organizationId: orgA.id, title: `Wells ${run}` });
  const appealA = await createAppeal(t.db, campaignA.id, { title: '=HYPERLINK("x")' });
  const campaignB = await createCampaign(t.db, { organizationId: orgB.id, title: `Schools ${run}` });
  const donor = await createUser(t.db, {
    firstName: 'Grace',
    lastName: `Hopper${run}`,
    email: `grace${run}@example.org`,
  });
  const other = await createUser(t.db, {
    firstName: 'Alan',
    lastName: `Turing${run}`,
    email: `alan${run}@example.org`,
  });
  const day = 86_400_000;
  const now = Date.now();
  const gift = (id: string, o: Partial<MonthlyGiftFields>) =>
    monthlyGiftRow({
      id: `sub_office_${run}_${id}`,
      donorId: donor.id,
      campaignId: campaignA.id,
      startedAt: new Date(now - 60 * day),
      nextPaymentAt: new Date(now + 10 * day),
      source: 'card',
      ...o,
    });
  const ids = {
    active: gift('active', { amount: 1250, appealId: appealA.id }),
    paused: gift('paused', { status: 'paused', pauseResumesAt: new Date(now + 30 * day) }),
    failing: gift('failing', { status: 'past_due', donorId: other.id, amount: 500 }),
    cancelled: gift('cancelled', { status: 'cancelled', cancelledAt: new Date(now - day), cancelledBy: 'donor' }),
    otherOrg: gift('other', { campaignId: campaignB.id }),
    incomplete: gift('incomplete', { status: 'incomplete', startedAt: null }),
  };
  await t.db.insert(monthlyGifts).values(Object.values(ids));
  // The failing gift: paid once, then its renewal failed and the email went out.
  const invoice = `in_office_${run}`;
  /** One monthly payment of `gift`, `daysAgo` days ago, of its amount unless `fields` say otherwise. */
  const payment = (gift: typeof ids.active, invoiceId: string, daysAgo: number, fields: Partial<DonationFields> = {}) =>
    createDonation(t.db, {
      donorId: gift.donorId,
      campaignId: gift.campaignId,
      type: 'monthly',
      subscriptionId: gift.id,
      invoiceId,
      date: new Date(now - daysAgo * day),
      amount: gift.amount,
      ...fields,
    });
  await payment(ids.failing, `in_paid_${run}`, 40);
  await payment(ids.failing, invoice, 2, {
    status: 'failed',
    failureMessage: "This month's payment did not go through. No money was taken.",
  });
  await t.db.insert(outbox).values({
    to: other.email,
    subject: 'Your payment did not go through',
    text: 'x',
    html: 'x',
    key: `renewal-failed:${invoice}`,
    sentAt: new Date(),
  });
  // The active gift's newest payment succeeded.
  await payment(ids.active, `in_ok_${run}`, 1);
  // The unstarted card gift's first payment was declined while the donor was on the page: not the
  // office's to follow up (a first Direct Debit that fails is; api/routes/stripe/direct-debit.test.ts).
  await payment(ids.incomplete, `in_declined_${run}`, 0, { status: 'failed', failureMessage: 'Card declined' });
  const admin = await signedIn(t.db, 'admin');
  const orgAdminA = await signedIn(t.db, 'org_admin', { organizationIds: [orgA.id] });
  const donorSession = await signedIn(t.db, 'donor');
  return { orgA, orgB, ids, admin, orgAdminA, donorSession, invoice };
}

beforeAll(async () => {
  t = await setupTestApp();
  w = await world();
});

type Api = TestClient['api'];
/** The office list, GET /api/monthly-gifts, with `query`, as `token`'s caller (none: anonymous). */
const list = (query: Parameters<Api['monthly-gifts']['$get']>[0]['query'], token?: string) =>
  t.client(token).api['monthly-gifts'].$get({ query });
/** Its CSV, GET /api/exports/monthly-gifts.csv. */
const csvOf = (query: Parameters<Api['exports']['monthly-gifts.csv']['$get']>[0]['query'], token: string) =>
  t.client(token).api.exports['monthly-gifts.csv'].$get({ query });

describe(`the office's monthly gifts (${engineName})`, () => {
  it('lists each status for an admin, with donor, cause, method and dates', async () => {
    const res = await list({ organization_id: w.orgA.id, limit: '100' }, w.admin.token);
    const body = await bodyOf(res, 200);
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(body.map((g) => g.status).sort()).toEqual(['active', 'cancelled', 'past_due', 'paused']);
    const active = body.find((g) => g._id === w.ids.active.id);
    expect(active).toMatchObject({
      amount: 1250,
      method: 'card',
      status: 'active',
      appeal: { title: '=HYPERLINK("x")' },
      on_site: true,
      last_failure: null,
    });
    // Its appeal set back to a draft (decision 070): the office sees it is off the site.
    const appealId = w.ids.active.appealId!;
    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, appealId));
    const drafted = await bodyOf(await list({ organization_id: w.orgA.id, limit: '100' }, w.admin.token), 200);
    expect(drafted.find((g) => g._id === w.ids.active.id)).toMatchObject({ status: 'active', on_site: false });
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, appealId));
    expect(active?.donor.email).toMatch(/^grace/);
    expect(Date.parse(active?.next_payment_at ?? '')).toBe(w.ids.active.nextPaymentAt!.getTime());
    expect(body.find((g) => g.status === 'cancelled')?.next_payment_at).toBeNull();
    for (const status of ['active', 'paused', 'past_due', 'cancelled'] as const) {
      const one = await bodyOf(await list({ organization_id: w.orgA.id, status }, w.admin.token), 200);
      expect(one.map((g) => g.status)).toEqual([status]);
    }
    // A checkout that never paid shows only when asked for.
    const unpaid = await bodyOf(await list({ organization_id: w.orgA.id, status: 'incomplete' }, w.admin.token), 200);
    expect(unpaid.map((g) => g._id)).toEqual([w.ids.incomplete.id]);
  });

  it('shows an org admin only their organizations’ gifts, and refuses another organization', async () => {
    const body = await bodyOf(await list({ limit: '100' }, w.orgAdminA.token), 200);
    const ids = body.map((g) => g._id);
    expect(ids).toHaveLength(4);
    expect(ids).not.toContain(w.ids.otherOrg.id);
    expect((await list({ organization_id: w.orgB.id }, w.orgAdminA.token)).status).toBe(403);
    expect((await csvOf({ organization_id: w.orgB.id }, w.orgAdminA.token)).status).toBe(403);
  });

  it('refuses donors and anonymous callers', async () => {
    expect((await list({}, w.donorSession.token)).status).toBe(403);
    expect((await csvOf({}, w.donorSession.token)).status).toBe(403);
    expect((await list({})).status).toBe(401);
  });

  it('queues failing gifts with the failure date and whether the email went', async () => {
    const body = await bodyOf(await list({ organization_id: w.orgA.id, failing: 'true' }, w.admin.token), 200);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      _id: w.ids.failing.id,
      status: 'past_due',
      last_failure: { invoice_id: w.invoice, email: 'sent' },
    });
    expect(Date.now() - Date.parse(body[0].last_failure?.failed_at ?? '')).toBeGreaterThan(86_400_000);
    const search = await bodyOf(await list({ search: `turing${run}` }, w.admin.token), 200);
    expect(search.map((g) => g._id)).toEqual([w.ids.failing.id]);
  });

  it('exports the same rows as the list, formula-safe, in pounds and UK dates', async () => {
    const query = { organization_id: w.orgA.id, sort: 'amount', order: 'desc' } as const;
    const listed = await bodyOf(await list(query, w.admin.token), 200);
    const csv = await csvOf(query, w.admin.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Donor name,Donor email,Amount \(GBP\)/);
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(listed.map((g) => g._id));
    const active = lines.find((l) => l.includes(w.ids.active.id))!;
    expect(active).toContain(',12.50,');
    expect(active).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(active).toMatch(/,\d{2}\/\d{2}\/\d{4},/);
    expect(lines.find((l) => l.includes(w.ids.failing.id))).toContain(',sent,');
  });

  it("lets a finance user of the gift's organization read one gift but not cancel it", async () => {
    const financeA = await signedIn(t.db, 'finance', { organizationIds: [w.orgA.id] });
    const one = (id: string, token?: string) => t.client(token).api['monthly-gifts'][':id'].$get({ param: { id } });
    // A monthly payment's page shows the gift it belongs to: the finance officer reads it.
    const read = await bodyOf(await one(w.ids.active.id, financeA.token), 200);
    expect(read).toMatchObject({ _id: w.ids.active.id, amount: 1250 });
    // Another organization's gift, a donor, and no one: refused, and cancelling stays with the admins.
    expect((await errorOf(await one(w.ids.otherOrg.id, financeA.token), 403)).message).toContain('finance users');
    expect((await one(w.ids.active.id, w.donorSession.token)).status).toBe(403);
    expect((await one(w.ids.active.id)).status).toBe(401);
    const cancel = t
      .client(financeA.token)
      .api['monthly-gifts'][':id'].cancel.$post({ param: { id: w.ids.active.id } });
    expect((await cancel).status).toBe(403);
    expect((await bodyOf(await one(w.ids.active.id, w.admin.token), 200)).status).toBe('active');
  });

  it('answers bad input with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['status=lapsed', 'status'],
      ['limit=0', 'limit'],
      ['limit=100000', 'limit'],
      ['failing=maybe', 'failing'],
      ['sort=colour', 'sort'],
      ['organization_id=not-an-id', 'organization_id'],
    ]) {
      // Raw: each row is a query string as a caller types it.
      const res = await t.request(`/api/monthly-gifts?${query}`, { token: w.admin.token });
      expect(res.status, query).toBe(400);
      expect((await errorOf(res, 400)).message, query).toContain(field);
    }
    expect((await t.request('/api/exports/monthly-gifts.csv?status=lapsed', { token: w.admin.token })).status).toBe(
      400,
    );
  });
});
