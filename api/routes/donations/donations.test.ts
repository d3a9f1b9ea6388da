import { beforeAll, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import {
  type AppealRow,
  type CampaignRow,
  createAppeal,
  createCampaign,
  createDonation,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

describe(`GET /api/donations?type=public (${engineName})`, () => {
  let t: TestApp;
  let campaign: CampaignRow;
  let appeal: AppealRow;
  let draftAppeal: AppealRow;

  beforeAll(async () => {
    t = await setupTestApp();
    const amira = await createUser(t.db, {
      firstName: 'Amira',
      lastName: 'khan',
      email: `amira-${Date.now()}@example.com`,
    });
    const oliver = await createUser(t.db, { firstName: 'Oliver', lastName: 'Hughes' });
    const nameless = await createUser(t.db, { firstName: '', lastName: '' });
    campaign = await createCampaign(t.db, { title: 'Leaderboard campaign' });
    appeal = await createAppeal(t.db, campaign.id, { title: 'Leaderboard appeal' });
    draftAppeal = await createAppeal(t.db, campaign.id, { status: 'draft' });
    const give = (donorId: string, amount: number, extra: Record<string, unknown> = {}) =>
      createDonation(t.db, { donorId, campaignId: campaign.id, amount, source: 'card', ownCheckout: true, ...extra });
    await give(amira.id, 2_000, { appealId: appeal.id });
    await give(amira.id, 3_000, { appealId: appeal.id });
    await give(oliver.id, 10_000);
    await give(oliver.id, 1_000, { appealId: appeal.id });
    await give(nameless.id, 500, { appealId: appeal.id });
    // Not counted: pending, failed and refunded gifts.
    await give(nameless.id, 90_000, { appealId: appeal.id, status: 'pending' });
    await give(nameless.id, 90_000, { appealId: appeal.id, status: 'failed' });
    await give(oliver.id, 90_000, { appealId: appeal.id, status: 'refunded', refundedAmount: 90_000 });
  });

  it("ranks an appeal's donors by total, with display names and no emails", async () => {
    const api = t.client().api;
    const body = await bodyOf(await api.donations.$get({ query: { type: 'public', appeal_id: appeal.id } }), 200);
    expect(body).toEqual([
      { donor: 'Amira K.', count: 2, total: 5_000 },
      { donor: 'Oliver H.', count: 1, total: 1_000 },
      { donor: 'Anonymous', count: 1, total: 500 },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/@/);
    // GET /donations/top is the same answer under its own path (one response shape per route).
    const top = await api.donations.top.$get({ query: { appeal_id: appeal.id } });
    expect(await bodyOf(top, 200)).toEqual(body);
  });

  it("counts a campaign's own gifts and its appeals' gifts, and accepts short ids", async () => {
    const res = await t.client().api.donations.$get({ query: { type: 'public', campaign_id: toShortId(campaign.id) } });
    expect(await bodyOf(res, 200)).toEqual([
      { donor: 'Oliver H.', count: 2, total: 11_000 },
      { donor: 'Amira K.', count: 2, total: 5_000 },
      { donor: 'Anonymous', count: 1, total: 500 },
    ]);
  });

  it('returns at most ten donors', async () => {
    const big = await createCampaign(t.db);
    for (let i = 0; i < 12; i++) {
      const donor = await createUser(t.db, { firstName: `Donor${i}`, lastName: 'Z' });
      await createDonation(t.db, {
        donorId: donor.id,
        campaignId: big.id,
        amount: 100 + i,
        source: 'card',
        ownCheckout: true,
      });
    }
    const donations = t.client().api.donations;
    const body = await bodyOf(await donations.$get({ query: { type: 'public', campaign_id: big.id } }), 200);
    expect(body).toHaveLength(10);
    expect(body[0]).toEqual({ donor: 'Donor11 Z.', count: 1, total: 111 });
    expect((await donations.$get({ query: { type: 'public', campaign_id: big.id, limit: '50' } })).status).toBe(400);
  });

  it('names no donor whose every gift here the office entered: they were never asked (decision 077)', async () => {
    const office = await createCampaign(t.db);
    const officeAppeal = await createAppeal(t.db, office.id);
    const cara = await createUser(t.db, { firstName: 'Cara', lastName: 'Cole' });
    const dev = await createUser(t.db, { firstName: 'Dev', lastName: 'Shah' });
    const top = async (query: { campaign_id: string } | { appeal_id: string }) =>
      bodyOf(await t.client().api.donations.top.$get({ query }), 200);
    // A cheque in a banked batch and a gift typed by staff, to the appeal.
    await createDonation(t.db, {
      donorId: cara.id,
      campaignId: office.id,
      appealId: officeAppeal.id,
      amount: 20_000,
      source: 'batch',
      method: 'cheque',
    });
    await createDonation(t.db, {
      donorId: dev.id,
      campaignId: office.id,
      amount: 9_000,
      source: 'manual',
      method: 'cash',
    });
    expect(await top({ campaign_id: office.id })).toEqual([
      { donor: 'Anonymous', count: 1, total: 20_000 },
      { donor: 'Anonymous', count: 1, total: 9_000 },
    ]);
    // Cara then gives in her own checkout (and chose to be named there): named on both lists.
    await createDonation(t.db, {
      donorId: cara.id,
      campaignId: office.id,
      appealId: officeAppeal.id,
      amount: 1_000,
      source: 'card',
      ownCheckout: true,
    });
    expect(await top({ appeal_id: officeAppeal.id })).toEqual([{ donor: 'Cara C.', count: 2, total: 21_000 }]);
    // Dev gives in his own checkout elsewhere: still not named here.
    await createDonation(t.db, {
      donorId: dev.id,
      campaignId: campaign.id,
      amount: 100,
      source: 'card',
      ownCheckout: true,
    });
    expect(await top({ campaign_id: office.id })).toEqual([
      { donor: 'Cara C.', count: 2, total: 21_000 },
      { donor: 'Anonymous', count: 1, total: 9_000 },
    ]);
  });

  it('hides the leaderboard of a draft appeal from anonymous callers', async () => {
    const res = await t.client().api.donations.$get({ query: { type: 'public', appeal_id: draftAppeal.id } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'Appeal not found' });
  });

  it.each([
    ['type=public', 400, /exactly one of campaign_id or appeal_id/],
    ['type=public&campaign_id=a&appeal_id=b', 400, /exactly one/],
    ['type=public&appeal_id=not-an-id', 404, /Appeal not found/],
    ['type=public&campaign_id=00000000-0000-0000-0000-000000000000', 404, /Campaign not found/],
    ['type=bogus', 400, /type must be one of/],
    ['', 401, /Sign in/],
    ['type=me', 401, /Sign in/],
  ])('answers %s with %i and a readable message', async (query, status, message) => {
    // Raw: each row is a query string as a caller types it.
    const res = await t.request(`/api/donations?${query}`);
    expect((await errorOf(res, status)).message).toMatch(message);
  });

  it('does not treat a campaign id as an appeal id', async () => {
    const res = await t.client().api.donations.$get({ query: { type: 'public', appeal_id: campaign.id } });
    expect(res.status).toBe(404);
  });

  it('lets a signed-in donor read the public leaderboard too', async () => {
    const token = (await signedIn(t.db, 'donor')).token;
    const res = await t
      .client(token)
      .api.donations.$get({ query: { type: 'public', appeal_id: toShortId(appeal.id) } });
    expect((await bodyOf(res, 200))[0]).toMatchObject({ donor: 'Amira K.' });
  });
});
