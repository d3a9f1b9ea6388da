import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  donations,
  giftAidDeclarations,
  marketingConsents,
  monthlyGifts,
  outbox,
  prices,
  sessions,
  users,
} from '../../../db/schema';
import { MARKETING_CONSENT_WORDING } from '../../../domain';
import {
  createAppeal,
  createCampaign,
  createGiftAidDeclaration,
  createDonation,
  createSession,
  createUser,
  type DonationFields,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

let t: TestApp;
const PRICE = `price_me_${Date.now()}`;

beforeAll(async () => {
  t = await setupTestApp();
  await t.db.insert(prices).values({ id: PRICE, unitAmount: 800 });
});

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, {
    firstName: 'Grace',
    lastName: 'Hopper',
    phone: '07700 900123',
    address: '1 Lane',
    city: 'Leeds',
    postalCode: 'LS1 1AA',
    ...overrides,
  });
  return { user, token: await createSession(t.db, user.id) };
}

describe(`marketing consent (${engineName})`, () => {
  it('stores the wording, time and source; withdrawing keeps the history; My Info reads it', async () => {
    const { user, token } = await signedIn();
    const me = t.client(token).api.me;
    const none = await bodyOf(await me.consent.$get(), 200);
    expect(none).toEqual({ consented: false, wording: MARKETING_CONSENT_WORDING, given: null, withdrawn_at: null });
    const give = await bodyOf(
      await me.consent.$put({ json: { consent: true, source: 'sign_up', consent_wording: MARKETING_CONSENT_WORDING } }),
      200,
    );
    expect(give).toMatchObject({ consented: true, given: { wording: MARKETING_CONSENT_WORDING, source: 'sign_up' } });
    // Ticking again is still one consent.
    await me.consent.$put({ json: { consent: true } });
    expect(await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, user.id))).toHaveLength(1);
    const withdrawn = await bodyOf(await me.consent.$put({ json: { consent: false } }), 200);
    expect(withdrawn).toMatchObject({
      consented: false,
      given: { source: 'sign_up' },
      withdrawn_at: expect.any(String),
    });
    const [row] = await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, user.id));
    expect(row).toMatchObject({ email: user.email, wording: MARKETING_CONSENT_WORDING, source: 'sign_up' });
    expect(row.givenAt.getTime()).toBeLessThanOrEqual(row.withdrawnAt!.getTime());
  });

  it('records consent from the donation box only when its own box was ticked', async () => {
    const campaign = await createCampaign(t.db);
    const stripe = t.client().api.stripe;
    const start = (email: string, extra: { marketing_consent?: boolean; consent_wording?: string }) =>
      stripe.client_secret.$post({ json: { email, amount: 500, campaign_id: campaign.id, ...extra } });
    const yes = `yes.${crypto.randomUUID().slice(0, 6)}@example.com`;
    const no = `no.${crypto.randomUUID().slice(0, 6)}@example.com`;
    const stale = `stale.${crypto.randomUUID().slice(0, 6)}@example.com`;
    // Recorded when the gift is paid (a checkout that is never paid changes no account).
    const paid = async (email: string, extra: { marketing_consent?: boolean; consent_wording?: string }) => {
      const { clientSecret } = await bodyOf(await start(email, extra), 200);
      expect((await stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    };
    await paid(yes, { marketing_consent: true, consent_wording: MARKETING_CONSENT_WORDING });
    await paid(no, {});
    const bad = await start(stale, { marketing_consent: true, consent_wording: 'old words' });
    expect((await errorOf(bad, 400)).message).toMatch(/^consent_wording/);
    const consentFor = async (email: string) => {
      const [u] = await t.db.select().from(users).where(eq(users.email, email));
      return u ? t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, u.id)) : [];
    };
    expect(await consentFor(yes)).toMatchObject([
      { source: 'donation_box', wording: MARKETING_CONSENT_WORDING, email: yes, withdrawnAt: null },
    ]);
    expect(await consentFor(no)).toHaveLength(0);
    expect(await consentFor(stale)).toHaveLength(0);
  });

  it('rejects changed wording, bad bodies and anonymous callers', async () => {
    const { token } = await signedIn();
    const stale = await t
      .client(token)
      .api.me.consent.$put({ json: { consent: true, consent_wording: 'Send me everything' } });
    expect((await errorOf(stale, 400)).message).toMatch(/^consent_wording/);
    // Bodies the schema refuses (no consent, a string, a source callers may not claim): raw requests.
    for (const json of [{}, { consent: 'yes' }, { consent: true, source: 'donation_box' }]) {
      const res = await t.request('/api/me/consent', { method: 'PUT', token, json });
      expect(res.status).toBe(400);
    }
    expect((await t.client().api.me.consent.$get()).status).toBe(401);
  });

  it('exports who consented as CSV to admins only, formulas neutralised, withdrawn ones left out', async () => {
    const a = await signedIn({ firstName: '=HYPERLINK("http://evil")' });
    const b = await signedIn();
    const consent = (token: string, given: boolean) =>
      t.client(token).api.me.consent.$put({ json: { consent: given } });
    await consent(a.token, true);
    await consent(b.token, true);
    await consent(b.token, false);
    const consentsExport = (token?: string) => t.client(token).api.consents.export.$get();
    const admin = await signedIn({ type: 'admin' });
    const res = await consentsExport(admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const csv = await res.text();
    expect(csv.split('\r\n')[0]).toBe(
      '"email","first_name","last_name","consented_on","consented_at_utc","source","wording"',
    );
    expect(csv).toContain(`"${a.user.email}","'=HYPERLINK(""http://evil"")","Hopper"`);
    expect(csv).not.toContain(b.user.email);
    const orgAdmin = await signedIn({ type: 'org_admin' });
    expect((await consentsExport(orgAdmin.token)).status).toBe(403);
    expect((await consentsExport(a.token)).status).toBe(403);
    expect((await consentsExport()).status).toBe(401);
  });
});

describe(`account erasure (${engineName})`, () => {
  const codeFrom = async (email: string) => {
    const [mail] = (await t.db.select().from(outbox).where(eq(outbox.to, email))).filter((m) =>
      m.subject.includes('confirms deleting'),
    );
    return /code is (\d{6})/.exec(mail.text)![1];
  };

  it('blanks the donor, signs them out, cancels monthly gifts, keeps totals and Gift Aid records', async () => {
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const { user, token } = await signedIn();
    const email = user.email;
    await t.client(token).api.me.consent.$put({ json: { consent: true } });
    const declaration = await createGiftAidDeclaration(t.db, {
      donorId: user.id,
      fullName: 'Grace Hopper',
      homeAddress: '1 Lane, Leeds',
      postcode: 'LS1 1AA',
    });
    await createDonation(t.db, {
      donorId: user.id,
      campaignId: campaign.id,
      appealId: appeal.id,
      amount: 2500,
      giftAid: true,
      giftAidDeclarationId: declaration.id,
    });
    const api = t.client(token).api;
    const start = await bodyOf(
      await api.stripe.client_secret.$post({ json: { price: PRICE, campaign_id: campaign.id, appeal_id: appeal.id } }),
      200,
    );
    await api.stripe.demo.confirm.$post({ json: { clientSecret: start.clientSecret } });
    const total = async () =>
      (await bodyOf(await api.appeals[':id'].$get({ param: { id: appeal.id } }), 200)).summary.total_donations;
    expect(await total()).toBe(3300);

    const ask = await api.me.erasure.$post();
    expect(ask.status).toBe(200);
    const confirm = (code: string) => api.me.erasure.confirm.$post({ json: { code } });
    const wrong = await confirm('000000');
    expect((await errorOf(wrong, 400)).message).toMatch(/^code/);
    expect((await confirm('abc')).status).toBe(400);
    const ok = await confirm(await codeFrom(email));
    expect(ok.status).toBe(200);

    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({
      firstName: '',
      lastName: '',
      phone: null,
      address: null,
      city: null,
      postalCode: null,
      avatar: null,
      stripeCustomerId: null,
    });
    expect(after.email).not.toContain(email.split('@')[0]);
    expect(after.erasedAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await api.auth.$get()).status).toBe(401);
    const [consent] = await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, user.id));
    expect(consent).toMatchObject({ email: null, withdrawnAt: expect.any(Date) });
    // Totals unchanged; the donations stay, anonymous; the Gift Aid declaration is untouched.
    expect(await total()).toBe(3300);
    expect(await t.db.select().from(donations).where(eq(donations.donorId, user.id))).toHaveLength(2);
    expect(
      (await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, declaration.id)))[0],
    ).toMatchObject({ fullName: 'Grace Hopper', postcode: 'LS1 1AA' });
    const top = await bodyOf(
      await t.client().api.donations.$get({ query: { type: 'public', appeal_id: appeal.id } }),
      200,
    );
    expect(top[0]).toMatchObject({ donor: 'Anonymous', total: 3300 });
    const gifts = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.donorId, user.id));
    expect(gifts).toMatchObject([{ status: 'cancelled', cancelledBy: 'erasure' }]);
    // The admin sees the request and its outcome.
    const admin = await signedIn({ type: 'admin' });
    const listed = await bodyOf(await t.client(admin.token).api.users[':id'].$get({ param: { id: user.id } }), 200);
    expect(listed.erasure).toMatchObject({ outcome: 'completed', completed_at: expect.any(String) });
  });

  it('refuses administrators, anonymous callers and a code that was never asked for', async () => {
    const admin = await signedIn({ type: 'admin' });
    expect((await t.client(admin.token).api.me.erasure.$post()).status).toBe(409);
    expect((await t.client().api.me.erasure.$post()).status).toBe(401);
    const { user, token } = await signedIn();
    expect((await t.client(token).api.me.erasure.confirm.$post({ json: { code: '123456' } })).status).toBe(400);
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0].erasedAt).toBeNull();
  });
});

describe(`annual statement (${engineName})`, () => {
  it("lists the tax year's gifts (6 April to 5 April, London time) with Gift Aid marked, net of refunds", async () => {
    const campaign = await createCampaign(t.db, { title: 'Clean water' });
    const { user, token } = await signedIn();
    const other = await createUser(t.db);
    const gift = (donorId: string, iso: string, fields: Omit<DonationFields, 'donorId' | 'campaignId'>) =>
      createDonation(t.db, { donorId, campaignId: campaign.id, date: new Date(iso), ...fields });
    await gift(user.id, '2025-04-05T22:30:00Z', { amount: 1000 }); // 23:30 BST 5 April: 2024-25
    await gift(user.id, '2025-04-05T23:30:00Z', { amount: 2000, giftAid: true }); // 00:30 BST 6 April: 2025-26
    await gift(user.id, '2026-01-10T12:00:00Z', { amount: 3000, refundedAmount: 1000 });
    await gift(user.id, '2026-01-11T12:00:00Z', { amount: 4000, status: 'failed' });
    await gift(other.id, '2026-01-12T12:00:00Z', { amount: 9999 });
    const statement = t.client(token).api.me.statement;
    const s = await bodyOf(await statement.$get({ query: { tax_year: '2025' } }), 200);
    expect(s.tax_year).toMatchObject({ start_year: 2025, label: '2025-26' });
    expect(s.gifts.map((g) => [g.amount, g.net, g.gift_aid, g.cause])).toEqual([
      [2000, 2000, true, 'Clean water'],
      [3000, 2000, false, 'Clean water'],
    ]);
    expect(s.totals).toEqual({ count: 2, net: 4000, gift_aid_net: 2000, gift_aid_value: 500 });
    const earlier = await bodyOf(await statement.$get({ query: { tax_year: '2024' } }), 200);
    expect(earlier.gifts.map((g) => g.amount)).toEqual([1000]);
  });

  it('answers 400 naming tax_year for a bad year and 401 without sign-in', async () => {
    const { token } = await signedIn();
    for (const bad of ['25', 'abcd', '1999', '2999', '2025-26']) {
      const res = await t.client(token).api.me.statement.$get({ query: { tax_year: bad } });
      expect((await errorOf(res, 400)).message, bad).toMatch(/^tax_year/);
    }
    expect((await t.client().api.me.statement.$get({ query: {} })).status).toBe(401);
  });
});
