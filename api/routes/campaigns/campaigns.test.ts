import { beforeAll, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import {
  type AppealRow,
  type CampaignRow,
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

describe(`campaigns API (${engineName})`, () => {
  let t: TestApp;
  let approved: CampaignRow;
  let draft: CampaignRow;
  let appeal: AppealRow;
  let adminToken: string;

  beforeAll(async () => {
    t = await setupTestApp();
    const donor = await createUser(t.db, { firstName: 'Priya', lastName: 'Patel' });
    adminToken = (await signedIn(t.db, 'admin')).token;
    approved = await createCampaign(t.db, { title: 'Clean Water', goal: 200_000, dateTo: '2099-12-31' });
    draft = await createCampaign(t.db, { title: 'Secret Draft', status: 'draft' });
    await createCampaign(t.db, { title: 'Removed', status: 'deleted' });
    appeal = await createAppeal(t.db, approved.id, { title: "Priya's 10k", createdBy: donor.id });
    await createDonation(t.db, { donorId: donor.id, campaignId: approved.id, appealId: appeal.id, amount: 2_500 });
    await createDonation(t.db, { donorId: donor.id, campaignId: approved.id, amount: 1_000 });
    await createDonation(t.db, { donorId: donor.id, campaignId: approved.id, amount: 9_999, status: 'pending' });
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: approved.id,
      amount: 700,
      status: 'refunded',
      refundedAmount: 700,
    });
  });

  it('lists only approved campaigns to anonymous callers, with totals in pence', async () => {
    const body = await bodyOf(await t.client().api.campaigns.$get({ query: {} }), 200);
    expect(body.map((c) => c.title)).toEqual(['Clean Water']);
    expect(body[0]).toMatchObject({
      _id: approved.id,
      short_id: toShortId(approved.id),
      goal: 200_000,
      status: 'approved',
      campaign_id: null,
      summary: { total_donations: 3_500, donation_count: 2 }, // the fully refunded gift is not counted
    });
  });

  it('ignores a status filter from anonymous callers but honours it for admins', async () => {
    const anon = await bodyOf(await t.client().api.campaigns.$get({ query: { status: 'draft' } }), 200);
    expect(anon.every((c) => 'status' in c && c.status === 'approved')).toBe(true);
    const admin = await bodyOf(await t.client(adminToken).api.campaigns.$get({ query: { status: 'draft' } }), 200);
    expect(admin.map((c) => c.title)).toEqual(['Secret Draft']);
  });

  it('answers the light list with ids, titles, organizations and giving days only', async () => {
    const body = await bodyOf(await t.client().api.campaigns.$get({ query: { tiny: 'true' } }), 200);
    // The days let the appeal editor say what the campaign's dates mean for an appeal (decision 062).
    expect(body).toEqual([
      { _id: approved.id, title: 'Clean Water', organization_id: null, date: { from: null, to: '2099-12-31' } },
    ]);
  });

  it('finds one campaign by UUID and by short id', async () => {
    for (const id of [approved.id, toShortId(approved.id)]) {
      expect((await bodyOf(await t.client().api.campaigns[':id'].$get({ param: { id } }), 200))._id).toBe(approved.id);
    }
  });

  it('gives appeals their own total and their creator', async () => {
    const body = await bodyOf(
      await t.client().api.campaigns[':id'].appeals.$get({ param: { id: approved.id }, query: {} }),
      200,
    );
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      title: "Priya's 10k",
      campaign_id: approved.id,
      created_by: { first_name: 'Priya', last_name: 'Patel' },
      summary: { total_donations: 2_500 },
    });
  });

  it('hides a draft from anonymous callers with a 404', async () => {
    const res = await t.client().api.campaigns[':id'].$get({ param: { id: draft.id } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'Campaign not found' });
  });

  it.each(['not-an-id', '123', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000'])(
    'answers 404, never 500, for the id %s',
    async (id) => {
      await errorOf(await t.client().api.campaigns[':id'].$get({ param: { id } }), 404);
    },
  );

  it('bounds page sizes', async () => {
    const res = await t.client().api.campaigns.$get({ query: { limit: '1000' } });
    expect((await errorOf(res, 400)).message).toMatch(/limit/);
  });

  it('lists only approved appeals to anonymous callers and signed-in donors', async () => {
    const draftAppeal = await createAppeal(t.db, approved.id, { title: 'Draft appeal', status: 'draft' });
    await createAppeal(t.db, approved.id, { title: 'Deleted appeal', status: 'deleted' });
    const donorToken = (await signedIn(t.db, 'donor')).token;
    for (const token of [undefined, donorToken]) {
      const api = t.client(token).api;
      const lists = {
        '/api/appeals': () => api.appeals.$get({ query: {} }),
        '/api/appeals?status=draft': () => api.appeals.$get({ query: { status: 'draft' } }),
        [`/api/campaigns/${approved.id}/appeals?status=all`]: () =>
          api.campaigns[':id'].appeals.$get({ param: { id: approved.id }, query: { status: 'all' } }),
      };
      for (const [path, list] of Object.entries(lists)) {
        const body = await bodyOf(await list(), 200);
        expect(body.length).toBeGreaterThan(0);
        expect(
          body.every((a) => a.status === 'approved'),
          path,
        ).toBe(true);
        expect(
          body.every((a) => a.campaign_id),
          path,
        ).toBe(true);
      }
      expect((await api.appeals[':id'].$get({ param: { id: draftAppeal.id } })).status).toBe(404);
    }
  });

  it('answers 404 for the appeals of a draft campaign to anonymous callers', async () => {
    const res = await t.client().api.campaigns[':id'].appeals.$get({ param: { id: draft.id }, query: {} });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'Campaign not found' });
  });

  it('pages lists with limit and page, newest first', async () => {
    const parent = await createCampaign(t.db, { title: 'Paged parent' });
    const base = Date.now();
    for (let i = 0; i < 5; i++) {
      await createAppeal(t.db, parent.id, { title: `Paged ${i}`, createdAt: new Date(base - i * 60_000) });
    }
    const page = async (n: number) =>
      (
        await bodyOf(
          await t
            .client()
            .api.campaigns[':id'].appeals.$get({ param: { id: parent.id }, query: { limit: '2', page: String(n) } }),
          200,
        )
      ).map((a) => a.title);
    expect(await page(1)).toEqual(['Paged 0', 'Paged 1']);
    expect(await page(2)).toEqual(['Paged 2', 'Paged 3']);
    expect(await page(3)).toEqual(['Paged 4']);
    expect(await page(4)).toEqual([]);
    // Public lists run prepared (db/prepared.ts): another campaign and page size bind afresh.
    const other = await createCampaign(t.db, { title: 'Other paged parent' });
    await createAppeal(t.db, other.id, { title: 'Other paged' });
    const api = t.client().api;
    const others = await bodyOf(
      await api.campaigns[':id'].appeals.$get({ param: { id: other.id }, query: { limit: '5' } }),
      200,
    );
    expect(others.map((a) => a.title)).toEqual(['Other paged']);
    expect(await page(1)).toEqual(['Paged 0', 'Paged 1']);
    expect((await api.appeals.$get({ query: { page: '0' } })).status).toBe(400);
  });

  it('lets an org admin see drafts of their own organization only', async () => {
    const mine = await createOrganization(t.db);
    const other = await createOrganization(t.db);
    const token = (await signedIn(t.db, 'org_admin', { organizationIds: [mine.id] })).token;
    await createCampaign(t.db, { title: 'Mine draft', status: 'draft', organizationId: mine.id });
    await createCampaign(t.db, { title: 'Other draft', status: 'draft', organizationId: other.id });
    const body = await bodyOf(await t.client(token).api.campaigns.$get({ query: { status: 'draft' } }), 200);
    expect(body.map((c) => c.title)).toEqual(['Mine draft']);
  });
});
