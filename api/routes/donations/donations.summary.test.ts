import { describe, expect, it } from 'vitest';
import { createCampaign, createDonation, createSession, createUser } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp } from '#test-app';

describe(`GET /api/donations/summary (${engineName})`, () => {
  it("sums every one of the caller's gifts that went through, net of refunds", async () => {
    const t = await setupTestApp();
    const donor = await createUser(t.db);
    const other = await createUser(t.db);
    const campaign = await createCampaign(t.db);
    const gift = (overrides: Partial<Parameters<typeof createDonation>[1]>) =>
      createDonation(t.db, { donorId: donor.id, campaignId: campaign.id, ...overrides });
    // 60 gifts: more than one page of type=me, so a client-side sum would be wrong.
    for (let i = 0; i < 60; i++) await gift({ amount: 1_000, date: new Date(Date.UTC(2026, 0, 1 + (i % 28))) });
    await gift({ amount: 2_500, type: 'monthly', date: new Date(Date.UTC(2026, 5, 1)) });
    await gift({ amount: 5_000, refundedAmount: 2_000 });
    await gift({ amount: 700, status: 'refunded', refundedAmount: 700 });
    await gift({ amount: 9_999, status: 'pending' });
    await gift({ amount: 8_888, status: 'failed' });
    await createDonation(t.db, { donorId: other.id, campaignId: campaign.id, amount: 123_456 });

    const res = await t.client(await createSession(t.db, donor.id)).api.donations.summary.$get();
    const body = await bodyOf(res, 200);
    expect(body).toMatchObject({ total: 60 * 1_000 + 2_500 + 3_000, count: 63, monthly: 1 });
    expect(new Date(body.last_date ?? '').getTime()).toBeGreaterThan(Date.UTC(2026, 5, 1) - 1);
  });

  it('is zero for someone who has not given, and 401 without a token', async () => {
    const t = await setupTestApp();
    const user = await createUser(t.db);
    const res = await t.client(await createSession(t.db, user.id)).api.donations.summary.$get();
    expect(await res.json()).toEqual({ total: 0, count: 0, monthly: 0, last_date: null });
    const anon = await t.client().api.donations.summary.$get();
    expect(anon.status).toBe(401);
  });
});
