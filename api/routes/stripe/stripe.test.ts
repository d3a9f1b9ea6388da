import { eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import { donations, giftAidDeclarations, prices, rateLimits, users } from '../../../db/schema';
import { createAppeal, createCampaign, createOrganization, createSession, createUser } from '../../../tests/factories';
import {
  bodyOf,
  engineName,
  errorOf,
  type JsonOf,
  publicTotals,
  setupTestApp,
  type TestApp,
  type TestClient,
} from '#test-app';
import { GIFT_AID_DECLARATION, giftAidDeclaration } from '../../../domain';

let t: TestApp;
const priceIds = { small: `price_t_${Date.now()}_5`, big: `price_t_${Date.now()}_50`, mid: `price_t_${Date.now()}_10` };

// Every test here starts checkouts anonymously; the site-wide check threshold has its own test.
const resetSiteWideCount = () => t.db.delete(rateLimits).where(eq(rateLimits.key, 'challenge:checkout-anonymous'));
beforeEach(async () => {
  await resetSiteWideCount();
});

beforeAll(async () => {
  t = await setupTestApp();
  await t.db
    .insert(prices)
    .values([
      { id: priceIds.big, unitAmount: 5000 },
      { id: priceIds.small, unitAmount: 500 },
      { id: priceIds.mid, unitAmount: 1000 },
      { id: `${priceIds.mid}_old`, unitAmount: 700, active: false },
    ])
    .onConflictDoNothing();
});

async function world() {
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id);
  const generalFund = await createCampaign(t.db, { kind: 'general_fund', fundRestricted: false });
  const email = `Donor.${crypto.randomUUID().slice(0, 8)}@Example.com`;
  const rows = () => t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
  const totals = () => publicTotals(t, { appealId: appeal.id, campaignId: campaign.id });
  const start = (json: Partial<CheckoutBody>, token?: string) =>
    t.client(token).api.stripe.client_secret.$post({
      json: { email, campaign_id: campaign.id, appeal_id: appeal.id, ...json },
    });
  /** Raw: for bodies the schema refuses (wrong types), which is what those tests check. */
  const startRaw = (json: Record<string, unknown>) =>
    t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email, campaign_id: campaign.id, appeal_id: appeal.id, ...json },
    });
  const confirm = (clientSecret: string, card?: 'success' | 'decline') =>
    t.client().api.stripe.demo.confirm.$post({ json: { clientSecret, card } });
  return { campaign, appeal, generalFund, email, rows, totals, start, startRaw, confirm };
}

type CheckoutBody = JsonOf<TestClient['api']['stripe']['client_secret']['$post']>;

const ANN = { first_name: 'Ann', last_name: 'Lee', house: '1', address: 'High Street, Leeds', postcode: 'LS1 4AP' };

async function counts() {
  const [d, u, g] = await Promise.all([
    t.db.select({ id: donations.id }).from(donations),
    t.db.select({ id: users.id }).from(users),
    t.db.select({ id: giftAidDeclarations.id }).from(giftAidDeclarations),
  ]);
  return { donations: d.length, users: u.length, declarations: g.length };
}

describe(`GET /api/stripe/subscriptions (${engineName})`, () => {
  it('lists active monthly prices cheapest first, without auth', async () => {
    const list = await bodyOf(await t.client().api.stripe.subscriptions.$get(), 200);
    const ours = list.filter((p) => p.id.startsWith('price_t_'));
    expect(ours.map((p) => p.unit_amount)).toEqual([500, 1000, 5000]);
    expect(ours[0]).toEqual({
      id: priceIds.small,
      unit_amount: 500,
      currency: 'gbp',
      recurring: { interval: 'month' },
    });
    const amounts = list.map((p) => p.unit_amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });
});

describe(`POST /api/stripe/client_secret: bad input stores nothing (${engineName})`, () => {
  const cases: [string, (w: Awaited<ReturnType<typeof world>>) => Record<string, unknown>, RegExp][] = [
    ['amount 0', () => ({ amount: 0 }), /amount: the minimum donation is £1/],
    ['a negative amount', () => ({ amount: -500 }), /amount: the minimum donation is £1/],
    ['fractional pence', () => ({ amount: 150.5 }), /amount: must be whole pence/],
    ['an amount as a string', () => ({ amount: '500' }), /amount: must be a whole number of pence/],
    ['an amount above £25,000', () => ({ amount: 2_500_001 }), /amount: the maximum donation is £25,000/],
    ['no amount and no price', () => ({}), /Enter an amount \(one-off\) or choose a monthly price/],
    ['both amount and price', () => ({ amount: 500, price: priceIds.small }), /either amount .* or price/],
    ['a malformed email', () => ({ amount: 500, email: 'not-an-email' }), /email: enter a valid email address/],
    ['a missing email', () => ({ amount: 500, email: undefined }), /email: enter a valid email address/],
    ['an unknown price', () => ({ price: 'price_nope' }), /price: unknown monthly price/],
    ['an inactive price', () => ({ price: `${priceIds.mid}_old` }), /price: unknown monthly price/],
    [
      'an unknown campaign',
      () => ({ amount: 500, campaign_id: crypto.randomUUID(), appeal_id: null }),
      /campaign_id: no such campaign/,
    ],
    ['a malformed campaign id', () => ({ amount: 500, campaign_id: 'abc' }), /campaign_id: must be a campaign id/],
    [
      'an appeal id as campaign id',
      (w) => ({ amount: 500, campaign_id: w.appeal.id, appeal_id: null }),
      /campaign_id: no such campaign/,
    ],
    [
      "an organization's general fund (offline income only)",
      (w) => ({ amount: 500, campaign_id: w.generalFund.id, appeal_id: null }),
      /campaign_id: no such campaign/,
    ],
    ['an unknown appeal', () => ({ amount: 500, appeal_id: crypto.randomUUID() }), /appeal_id: no such appeal/],
    [
      'Gift Aid without details',
      () => ({ amount: 500, giftAid: true }),
      /gift_aid: first and last name, house name or number and postcode/,
    ],
    [
      'Gift Aid with a non-UK postcode',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, postcode: '90210' } }),
      /^gift_aid\.postcode: enter a UK postcode/,
    ],
    [
      'Gift Aid with a first name over 35 characters',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, first_name: 'A'.repeat(36) } }),
      /^gift_aid\.first_name: at most 35 characters/,
    ],
    [
      'Gift Aid with a last name over 35 characters',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, last_name: 'L'.repeat(36) } }),
      /^gift_aid\.last_name: at most 35 characters/,
    ],
    [
      'Gift Aid without a house name or number',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, house: ' ' } }),
      /^gift_aid\.house: enter your house name or number/,
    ],
    [
      'Gift Aid with the house number missing',
      () => ({ amount: 500, giftAid: true, gift_aid: { first_name: 'Ann', last_name: 'Lee', postcode: 'LS1 4AP' } }),
      /gift_aid\.house/,
    ],
    [
      'Gift Aid with a title over 4 characters',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, title: 'Madam' } }),
      /^gift_aid\.title: at most 4 characters/,
    ],
    [
      'Gift Aid accepted with outdated wording',
      () => ({ amount: 500, giftAid: true, gift_aid: { ...ANN, declaration: 'old text' } }),
      /gift_aid.declaration: the Gift Aid wording has changed/,
    ],
  ];

  for (const [name, body, message] of cases) {
    it(`rejects ${name} with a 400 that says what to fix`, async () => {
      const w = await world();
      const before = await counts();
      const res = await w.startRaw(body(w));
      expect((await errorOf(res, 400)).message).toMatch(message);
      expect(await counts()).toEqual(before);
    });
  }

  it('rejects unapproved campaigns and appeals, and an appeal of another campaign', async () => {
    const w = await world();
    const before = await counts();
    const draft = await createCampaign(t.db, { status: 'draft' });
    const deletedAppeal = await createAppeal(t.db, w.campaign.id, { status: 'deleted' });
    const draftAppeal = await createAppeal(t.db, w.campaign.id, { status: 'draft' });
    const other = await createCampaign(t.db);
    const othersAppeal = await createAppeal(t.db, other.id);
    const expectations: [Partial<CheckoutBody>, RegExp][] = [
      [{ campaign_id: draft.id, appeal_id: null }, /campaign_id: this campaign is not accepting donations/],
      [{ appeal_id: deletedAppeal.id }, /appeal_id: this appeal is not accepting donations/],
      [{ appeal_id: draftAppeal.id }, /appeal_id: this appeal is not accepting donations/],
      [{ appeal_id: othersAppeal.id }, /appeal_id: this appeal belongs to a different campaign/],
    ];
    for (const [body, message] of expectations) {
      const res = await w.start({ amount: 500, ...body });
      expect((await errorOf(res, 400)).message).toMatch(message);
    }
    expect(await counts()).toEqual(before);
  });

  it('rejects malformed JSON', async () => {
    // Raw: a body that is not JSON at all.
    const res = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      body: '{"amount":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});

describe(`Demo payments: one-off gifts (${engineName})`, () => {
  it('records a pending gift, then the demo confirmation settles it and the totals move', async () => {
    const w = await world();
    const body = await bodyOf(await w.start({ amount: 1234 }), 200);
    expect(body).toMatchObject({ mode: 'demo', type: 'once', amount: 1234, publishableKey: null });
    expect(body.clientSecret).toMatch(/^pi_demo[0-9a-f]+_secret_[0-9a-f]+$/);

    const [row] = await w.rows();
    expect(row).toMatchObject({
      status: 'pending',
      amount: 1234,
      type: 'once',
      appealId: w.appeal.id,
      source: 'demo',
      giftAid: false,
    });
    const [donor] = await t.db.select().from(users).where(eq(users.id, row.donorId));
    expect(donor.email).toBe(w.email.toLowerCase());
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });

    const done = await w.confirm(body.clientSecret);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ status: 'succeeded' });
    expect(await w.totals()).toEqual({ appeal: 1234, campaign: 1234 });

    // Confirming again (a double click, a retry) changes nothing.
    expect(await (await w.confirm(body.clientSecret)).json()).toEqual({ status: 'succeeded' });
    expect(await w.rows()).toHaveLength(1);
    expect(await w.totals()).toEqual({ appeal: 1234, campaign: 1234 });
  });

  it('accepts short ids, a campaign without an appeal, and reuses the donor for the same email', async () => {
    const w = await world();
    const first = await w.start({
      amount: 500,
      campaign_id: toShortId(w.campaign.id),
      appeal_id: toShortId(w.appeal.id),
    });
    const second = await w.start({ amount: 700, appeal_id: null, email: w.email.toUpperCase() });
    await w.confirm((await bodyOf(first, 200)).clientSecret);
    await w.confirm((await bodyOf(second, 200)).clientSecret);
    const rows = await w.rows();
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.donorId)).size).toBe(1);
    expect(await w.totals()).toEqual({ appeal: 500, campaign: 1200 });
  });

  it('gives the gift to the signed-in donor', async () => {
    const w = await world();
    const user = await createUser(t.db);
    const token = await createSession(t.db, user.id);
    const res = await w.start({ amount: 800, email: undefined }, token);
    expect(res.status).toBe(200);
    const [row] = await w.rows();
    expect(row.donorId).toBe(user.id);
  });

  it('shows a declined demo card as a plain message, records the failure, and a retry succeeds', async () => {
    const w = await world();
    const { clientSecret } = await bodyOf(await w.start({ amount: 2000 }), 200);
    const declined = await w.confirm(clientSecret, 'decline');
    expect((await errorOf(declined, 402)).message).toMatch(/Your card was declined/);
    expect((await w.rows())[0]).toMatchObject({ status: 'failed', failureMessage: expect.stringMatching(/declined/) });
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
    expect(await (await w.confirm(clientSecret)).json()).toEqual({ status: 'succeeded' });
    expect(await w.totals()).toEqual({ appeal: 2000, campaign: 2000 });
  });

  it('records a declined first monthly payment as failed, outside the totals, and a retry succeeds', async () => {
    const w = await world();
    const { clientSecret } = await bodyOf(await w.start({ price: priceIds.mid }), 200);
    const declined = await w.confirm(clientSecret, 'decline');
    expect(declined.status).toBe(402);
    expect((await w.rows())[0]).toMatchObject({ type: 'monthly', status: 'failed' });
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
    expect(await (await w.confirm(clientSecret)).json()).toEqual({ status: 'succeeded' });
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded' });
    expect(await w.totals()).toEqual({ appeal: rows[0].amount, campaign: rows[0].amount });
  });

  it('refuses forged client secrets', async () => {
    const w = await world();
    const { clientSecret } = await bodyOf(await w.start({ amount: 2000 }), 200);
    const forged = clientSecret.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'));
    const res = await w.confirm(forged);
    expect((await errorOf(res, 400)).message).toMatch(/payment session is not valid/);
    expect((await w.rows())[0].status).toBe('pending');
  });

  it('stores the Gift Aid declaration with the exact wording and links it to the gift', async () => {
    const w = await world();
    const res = await w.start({
      amount: 1000,
      giftAid: true,
      gift_aid: {
        title: 'Ms',
        first_name: ' Ann ',
        last_name: 'Lee-Smith',
        house: '1',
        address: 'High Street, Leeds',
        postcode: 'ls14ap',
        declaration: GIFT_AID_DECLARATION,
      },
    });
    await w.confirm((await bodyOf(res, 200)).clientSecret);
    const [row] = await w.rows();
    expect(row).toMatchObject({ giftAid: true, status: 'succeeded' });
    const [declaration] = await t.db
      .select()
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.id, row.giftAidDeclarationId!));
    expect(declaration).toMatchObject({
      donorId: row.donorId,
      title: 'Ms',
      firstName: 'Ann',
      lastName: 'Lee-Smith',
      house: '1',
      address: 'High Street, Leeds',
      postcode: 'LS1 4AP',
      method: 'online',
      coversPast: true,
      coversFuture: true,
      declarationText: GIFT_AID_DECLARATION,
    });
  });

  it('words the declaration for the charity that receives the gift: the campaign organization’s legal name', async () => {
    const org = await createOrganization(t.db, {
      name: 'Harbour Food',
      legalName: 'Harbour Food Network CIO',
      charityNumber: '1170001',
    });
    const campaign = await createCampaign(t.db, { organizationId: org.id });
    const ownWording = giftAidDeclaration('Harbour Food Network CIO');
    const start = (declaration: string) =>
      t.client().api.stripe.client_secret.$post({
        json: {
          email: 'gift.aid@example.com',
          campaign_id: campaign.id,
          amount: 1000,
          giftAid: true,
          gift_aid: { ...ANN, declaration },
        },
      });
    // The platform's wording names another charity: refused, nothing stored.
    const wrong = await start(GIFT_AID_DECLARATION);
    expect((await errorOf(wrong, 400)).message).toMatch(/gift_aid.declaration: the Gift Aid wording has changed/);
    expect(await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toEqual([]);

    const right = await start(ownWording);
    expect(right.status).toBe(200);
    const [row] = await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    const [declaration] = await t.db
      .select()
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.id, row.giftAidDeclarationId!));
    expect(declaration.declarationText).toBe(ownWording);
    expect(declaration.declarationText).toContain('to Harbour Food Network CIO.');
  });
});

describe(`Demo payments: monthly gifts (${engineName})`, () => {
  it('takes the amount from the price, and confirming records the first invoice', async () => {
    const w = await world();
    const body = await bodyOf(await w.start({ price: priceIds.mid }), 200);
    expect(body).toMatchObject({ mode: 'demo', type: 'monthly', amount: 1000 });
    const [pending] = await w.rows();
    expect(pending).toMatchObject({ status: 'pending', type: 'monthly', amount: 1000 });
    expect(pending.invoiceId).toMatch(/^in_demo/);
    expect(pending.subscriptionId).toMatch(/^sub_demo/);

    expect(await (await w.confirm(body.clientSecret)).json()).toEqual({ status: 'succeeded' });
    await w.confirm(body.clientSecret);
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', type: 'monthly', amount: 1000 });
    expect(await w.totals()).toEqual({ appeal: 1000, campaign: 1000 });
  });
});

describe(`Demo confirm with Stripe configured (${engineName})`, () => {
  it('is not available', async () => {
    const live = await setupTestApp({ STRIPE_SECRET_KEY: 'sk_test_x' });
    const res = await live.client().api.stripe.demo.confirm.$post({ json: { clientSecret: 'pi_demo1_secret_2' } });
    expect(res.status).toBe(404);
    const rows = await live.db
      .select()
      .from(donations)
      .where(inArray(donations.status, ['succeeded']));
    expect(Array.isArray(rows)).toBe(true);
  });
});

describe(`Payments without Stripe keys by APP_ENV (${engineName})`, () => {
  it('production takes no demo payments: 503 on client_secret, 404 on demo confirm, nothing stored', async () => {
    const prod = await setupTestApp({ APP_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) });
    const campaign = await createCampaign(prod.db);
    const stripe = prod.client().api.stripe;
    const res = await stripe.client_secret.$post({
      json: { email: 'p@example.com', amount: 2500, campaign_id: campaign.id },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ statusCode: 503, message: 'Card payments are not configured' });
    expect(await prod.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toHaveLength(0);
    const confirm = await stripe.demo.confirm.$post({ json: { clientSecret: 'pi_demo1_secret_2' } });
    await errorOf(confirm, 404);
  });

  it('development keeps the demo flow', async () => {
    const dev = await setupTestApp({ APP_ENV: 'development' });
    const campaign = await createCampaign(dev.db);
    const stripe = dev.client().api.stripe;
    const res = await stripe.client_secret.$post({
      json: { email: 'd@example.com', amount: 2500, campaign_id: campaign.id },
    });
    const { clientSecret, mode } = await bodyOf(res, 200);
    expect(mode).toBe('demo');
    const confirm = await stripe.demo.confirm.$post({ json: { clientSecret } });
    expect(await confirm.json()).toEqual({ status: 'succeeded' });
  });
});

describe(`POST /api/stripe/client_secret is throttled (${engineName})`, () => {
  const start = (campaignId: string, email: string, headers: Record<string, string> = {}) =>
    t.client().api.stripe.client_secret.$post({ json: { email, amount: 500, campaign_id: campaignId } }, { headers });

  it('allows 10 checkouts per email in 15 minutes, then answers 429 with Retry-After and stores nothing', async () => {
    const campaign = await createCampaign(t.db);
    const email = `busy.${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 10; i++) expect((await start(campaign.id, email)).status).toBe(200);
    const blocked = await start(campaign.id, email.toUpperCase());
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(blocked, 429)).message).toMatch(
      /^Too many donation attempts\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toHaveLength(10);
    expect((await start(campaign.id, `other.${email}`)).status).toBe(200);
  });

  it('asks for the security check after 5 per client address behind Cloudflare, refuses after 30, and does not count callers without one', {
    timeout: 30_000,
  }, async () => {
    const campaign = await createCampaign(t.db);
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const stamp = crypto.randomUUID().slice(0, 8);
    const cf = { 'cf-connecting-ip': ip };
    for (let i = 0; i < 5; i++) expect((await start(campaign.id, `ip${i}.${stamp}@example.com`, cf)).status).toBe(200);
    const checked = await start(campaign.id, `ip5.${stamp}@example.com`, cf);
    expect(checked.status).toBe(428);
    expect(await checked.json()).toEqual({ statusCode: 428, message: expect.stringMatching(/security check/) });
    const withToken = (email: string, token: string) =>
      t
        .client()
        .api.stripe.client_secret.$post(
          { json: { email, amount: 500, campaign_id: campaign.id, turnstile_token: token } },
          { headers: cf },
        );
    expect((await withToken(`ip-bad.${stamp}@example.com`, 'bad-token')).status).toBe(428);
    for (let i = 7; i < 30; i++)
      expect((await withToken(`ip${i}.${stamp}@example.com`, `t-${crypto.randomUUID()}`)).status).toBe(200);
    const blocked = await withToken(`ip-last.${stamp}@example.com`, `t-${crypto.randomUUID()}`);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    expect((await start(campaign.id, `ip-other.${stamp}@example.com`, { 'cf-connecting-ip': `${ip}0` })).status).toBe(
      200,
    );
    await resetSiteWideCount();
    for (let i = 0; i < 31; i++) expect((await start(campaign.id, `noip${i}.${stamp}@example.com`)).status).toBe(200);
    // Nothing was stored for the refused attempts.
    expect(await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toHaveLength(
      5 + 23 + 1 + 31,
    );
  });

  it('asks every anonymous donor for the check past 60 anonymous checkouts in 10 minutes (rotating addresses), not signed-in donors', async () => {
    const campaign = await createCampaign(t.db);
    await t.db.insert(rateLimits).values({ key: 'challenge:checkout-anonymous', windowStart: new Date(), count: 60 });
    const stamp = crypto.randomUUID().slice(0, 8);
    const res = await start(campaign.id, `rot.${stamp}@example.com`, { 'cf-connecting-ip': '192.0.2.77' });
    expect(res.status).toBe(428);
    const passed = await t.client().api.stripe.client_secret.$post({
      json: {
        email: `rot.${stamp}@example.com`,
        amount: 500,
        campaign_id: campaign.id,
        turnstile_token: `t-${crypto.randomUUID()}`,
      },
    });
    expect(passed.status).toBe(200);
    const donor = await createUser(t.db);
    const token = await createSession(t.db, donor.id);
    const signedIn = await t.client(token).api.stripe.client_secret.$post({
      json: { amount: 500, campaign_id: campaign.id },
    });
    expect(signedIn.status).toBe(200);
  });
});
