import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach } from 'vitest';
import { donations, giftAidDeclarations, prices, rateLimits, supportMessages, users } from '../../db/schema';
import { type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

type CheckoutBody = JsonOf<TestClient['api']['stripe']['client_secret']['$post']>;

/**
 * The ground the start-date and end-date tests share (api/routes/stripe/opens.test.ts and
 * ended.test.ts): the app with a monthly price of its own, anonymous checkouts (the site-wide
 * check's threshold is reset before each test; it is tested elsewhere), and the rows a refused
 * checkout must not have written. Call once at a file's top level: it registers the hooks.
 */
export function datedCheckouts(tag: string) {
  let app: TestApp | undefined;
  const monthlyPrice = `price_${tag}_${Date.now()}`;
  beforeAll(async () => {
    app = await setupTestApp();
    await app.db.insert(prices).values({ id: monthlyPrice, unitAmount: 1000 });
  });
  beforeEach(async () => {
    await appOf().db.delete(rateLimits).where(eq(rateLimits.key, 'challenge:checkout-anonymous'));
  });
  const appOf = (): TestApp => {
    if (!app) throw new Error('datedCheckouts: the app is set up in beforeAll');
    return app;
  };

  /** An anonymous gift of £15 from a new email, with `json` on top. */
  const start = (json: CheckoutBody) =>
    appOf()
      .client()
      .api.stripe.client_secret.$post({
        json: { email: `${tag}.${crypto.randomUUID().slice(0, 8)}@example.com`, amount: 1500, ...json },
      });

  /** Rows a refused checkout must not have written. */
  async function counts() {
    const db = appOf().db;
    const [d, u, g, m] = await Promise.all([
      db.select({ id: donations.id }).from(donations),
      db.select({ id: users.id }).from(users),
      db.select({ id: giftAidDeclarations.id }).from(giftAidDeclarations),
      db.select({ id: supportMessages.donationId }).from(supportMessages),
    ]);
    return { donations: d.length, users: u.length, declarations: g.length, messages: m.length };
  }

  return { app: appOf, monthlyPrice, start, counts };
}
