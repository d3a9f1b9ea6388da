import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { donations, monthlyGifts, prices } from '../../../db/schema';
import { createCampaign, createSession, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';
import { cardUpdateByLink } from '../../services/monthly-gifts/link-actions';
import { createPaymentProvider } from '../../services/payments';
import { signMonthlyLink } from '../../services/monthly-gifts/link-tokens';

const SECRET = 'cancel-link-test-secret-0123456789';
let t: TestApp;
const PRICE = `price_cl_${Date.now()}`;

beforeAll(async () => {
  t = await setupTestApp({ AUTH_SECRET: SECRET });
  await t.db.insert(prices).values({ id: PRICE, unitAmount: 1500 });
});

async function demoMonthly() {
  const campaign = await createCampaign(t.db);
  const { user: donor, token } = await signedIn(t.db, 'donor');
  const stripe = t.client(token).api.stripe;
  const start = await bodyOf(
    await stripe.client_secret.$post({ json: { price: PRICE, campaign_id: campaign.id } }),
    200,
  );
  await stripe.demo.confirm.$post({ json: { clientSecret: start.clientSecret } });
  const [row] = await t.db.select().from(donations).where(eq(donations.donorId, donor.id));
  const id = row.subscriptionId!;
  const gift = () =>
    t.db
      .select()
      .from(monthlyGifts)
      .where(eq(monthlyGifts.id, id))
      .then((r) => r[0]);
  return { id, gift, donor };
}

const links = () => t.client().api['monthly-gift-links'].cancel;
const read = async (token: string) => bodyOf(await links().$get({ query: { token } }), 200);
const use = async (token: string) => bodyOf(await links().$post({ json: { token } }), 200);

describe(`signed cancel link (${engineName})`, () => {
  it('shows the gift on GET without cancelling, cancels once on POST, then says it was used', async () => {
    const m = await demoMonthly();
    const link = await signMonthlyLink(SECRET, 'cancel', m.id);
    for (let i = 0; i < 3; i++)
      expect(await read(link)).toMatchObject({ state: 'ready', gift: { _id: m.id, amount: 1500, status: 'active' } });
    expect(await m.gift()).toMatchObject({ status: 'active' });
    const [a, b] = await Promise.all([use(link), use(link)]);
    expect([a.state, b.state].sort()).toEqual(['done', 'used']);
    expect(await m.gift()).toMatchObject({ status: 'cancelled', cancelledBy: 'link' });
    expect(await use(link)).toMatchObject({ state: 'used', message: expect.stringMatching(/already been used/) });
    expect(await read(link)).toMatchObject({ state: 'used' });
  });

  it('refuses a tampered, expired, wrong-purpose or foreign-secret link, and one moved to another subscription', async () => {
    const m = await demoMonthly();
    const other = await demoMonthly();
    const link = await signMonthlyLink(SECRET, 'cancel', m.id);
    const [purpose, , expires, sig] = link.split('.');
    const cases: [string, string][] = [
      [`${purpose}.${other.id}.${expires}.${sig}`, 'invalid'],
      [`${purpose}.${m.id}.${Number(expires) + 86400}.${sig}`, 'invalid'],
      [`${link.slice(0, -2)}${link.endsWith('AA') ? 'BB' : 'AA'}`, 'invalid'],
      [await signMonthlyLink(SECRET, 'card', m.id), 'invalid'],
      [await signMonthlyLink('someone-elses-secret-0123456789', 'cancel', m.id), 'invalid'],
      [await signMonthlyLink(SECRET, 'cancel', m.id, new Date(Date.now() - 61 * 86400_000)), 'expired'],
      ['', 'invalid'],
      ['<script>alert(1)</script>', 'invalid'],
      ['x'.repeat(399), 'invalid'],
    ];
    for (const [token, state] of cases) {
      expect(await read(token), token).toMatchObject({ state, message: expect.any(String) });
      expect(await use(token), token).toMatchObject({ state });
    }
    expect(await m.gift()).toMatchObject({ status: 'active', cancelLinkUsedAt: null });
    expect(await other.gift()).toMatchObject({ status: 'active' });
    // A gift cancelled another way answers plainly.
    await t
      .client(await createSession(t.db, other.donor.id))
      .api.me['monthly-gifts'][':id'].cancel.$post({ param: { id: other.id } });
    expect(await use(await signMonthlyLink(SECRET, 'cancel', other.id))).toMatchObject({ state: 'cancelled' });
  });

  it('the card-update link says plainly that a demo gift has no card, and refuses tampered or expired links', async () => {
    const m = await demoMonthly();
    const ctx = {
      db: t.db,
      payments: createPaymentProvider({
        stripeSecretKey: null,
        stripeApiBase: null,
        stripePublishableKey: null,
        authSecret: SECRET,
        production: false,
      }),
      authSecret: SECRET,
      returnUrl: 'http://localhost/dashboard/donations/me',
    };
    expect(await cardUpdateByLink(ctx, await signMonthlyLink(SECRET, 'card', m.id))).toMatchObject({
      state: 'demo',
      message: expect.stringMatching(/demo/),
    });
    expect(await cardUpdateByLink(ctx, await signMonthlyLink(SECRET, 'cancel', m.id))).toMatchObject({
      state: 'invalid',
    });
    expect(
      await cardUpdateByLink(ctx, await signMonthlyLink(SECRET, 'card', m.id, new Date(Date.now() - 61 * 86400_000))),
    ).toMatchObject({ state: 'expired' });
    expect(await cardUpdateByLink(ctx, 'card.sub_nothing.9999999999.' + 'A'.repeat(43))).toMatchObject({
      state: 'invalid',
    });
  });

  it('answers 400 naming the field for a body without a token', async () => {
    // Raw: a body without the token the schema requires is the point.
    const res = await t.request('/api/monthly-gift-links/cancel', { method: 'POST', json: {} });
    expect((await errorOf(res, 400)).message).toMatch(/^token/);
  });
});
