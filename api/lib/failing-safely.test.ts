import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { donations, users } from '../../db/schema';
import { createCampaign, createUser, signedIn } from '../../tests/factories';
import {
  fakeId,
  giftMetadata,
  paymentIntentSucceeded,
  sendEvent,
  WEBHOOK_SECRET,
} from '../../tests/fixtures/stripe/events';
import { engineName, setupTestApp } from '#test-app';
import { RETRY_AFTER_SECONDS } from './unavailable';

afterEach(() => vi.restoreAllMocks());

/** Every console line written while `work` runs, as text. */
async function captureLogs<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  }
  const result = await work();
  vi.restoreAllMocks();
  return { result, lines };
}

describe(`failing safely when the database is unreachable (${engineName})`, () => {
  it('answers the API with a JSON 503, Retry-After and a reference, never a stack', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const token = (await signedIn(t.db, 'donor')).token;
    t.outage.down();
    const { result: responses, lines } = await captureLogs(() =>
      Promise.all([
        t.request('/api/campaigns'),
        t.request(`/api/campaigns/${campaign.id}`),
        t.request('/api/auth', { token }),
        t.request('/api/donations/summary', { token }),
      ]),
    );
    for (const res of responses) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await res.json()) as { statusCode: number; message: string };
      expect(Object.keys(body).sort()).toEqual(['message', 'statusCode']);
      expect(body.statusCode).toBe(503);
      const requestId = res.headers.get('x-request-id')!;
      expect(body.message).toBe(
        `The service is busy right now. Nothing was changed; please try again in a minute. Reference: ${requestId}`,
      );
      expect(body.message).not.toMatch(/at |Error|ECONN|D1_|fetch failed|select/);
      // The log carries the same reference, so support can find the failure.
      expect(lines.some((line) => line.includes(requestId) && line.includes('"msg":"service unavailable"'))).toBe(true);
    }
    t.outage.up();
    expect((await t.request(`/api/campaigns/${campaign.id}`)).status).toBe(200);
  });

  it('reports the database unreachable on /api/health', async () => {
    const t = await setupTestApp();
    t.outage.down();
    const { result: res } = await captureLogs(() => t.request('/api/health'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await res.json()).toEqual({ status: 'degraded', database: { reachable: false } });
  });

  it('starts no checkout and writes nothing while the database is down', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const email = `busy-${crypto.randomUUID().slice(0, 8)}@example.org`;
    t.outage.down();
    const { result: res } = await captureLogs(() =>
      t.request('/api/stripe/client_secret', {
        method: 'POST',
        json: { email, amount: 1000, campaign_id: campaign.id },
      }),
    );
    expect(res.status).toBe(503);
    t.outage.up();
    expect(await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('answers the Stripe webhook 500 so Stripe retries, and the retry records the gift exactly once', async () => {
    const t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const campaign = await createCampaign(t.db);
    const donor = await createUser(t.db);
    const donationId = crypto.randomUUID();
    const metadata = giftMetadata({ donationId, campaignId: campaign.id, donorId: donor.id });
    const event = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 2500, metadata });

    t.outage.down();
    const { result: failed, lines } = await captureLogs(() => sendEvent(t, event));
    expect(failed.status).toBe(500);
    const body = (await failed.json()) as { statusCode: number; message: string };
    expect(body).toEqual({
      statusCode: 500,
      message: expect.stringMatching(/not recorded and Stripe will retry it\. Reference: /),
    });
    expect(lines.some((line) => line.includes(event.id) && line.includes('database unavailable'))).toBe(true);

    t.outage.up();
    expect(await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toHaveLength(0);
    const retried = await sendEvent(t, event);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ received: true, outcome: 'recorded' });
    const again = await sendEvent(t, event);
    expect(await again.json()).toEqual({ received: true, outcome: 'duplicate' });
    const rows = await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: donationId, status: 'succeeded', amount: 2500 });
  });

  it('keeps ordinary bugs as 500s: only an unreachable database is a 503', async () => {
    const t = await setupTestApp();
    t.app.get('/broken', () => {
      throw new Error('no such column: nope');
    });
    const { result: res } = await captureLogs(() => t.request('/api/broken'));
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
  });
});
