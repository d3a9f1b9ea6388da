import { beforeAll, describe, expect, it } from 'vitest';
import * as reports from '../../services/reports/reports';
import { staffScope } from '../../services/reports/scope';
import { createCharity, createDonation, createUser, signedIn, viewerOf } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

const NOW = new Date('2026-11-22T12:00:00Z');
const at = (iso: string) => new Date(iso);

const admin = () => viewerOf('admin');
const orgAdminOf = (orgId: string) => viewerOf('org_admin', [orgId]);

describe(`overview aggregates (${engineName})`, () => {
  let t: TestApp;
  let orgA: string;
  let orgB: string;
  let campaignA: string;
  let campaignB: string;
  let adminToken: string;
  let orgAdminToken: string;
  let donorToken: string;

  beforeAll(async () => {
    t = await setupTestApp();
    const a = await createCharity(t.db, { campaign: { title: 'Wells' } });
    const b = await createCharity(t.db, { campaign: { title: 'Homes' } });
    [orgA, campaignA, orgB, campaignB] = [a.org.id, a.campaign.id, b.org.id, b.campaign.id];
    const [p, q, r, s] = await Promise.all([createUser(t.db), createUser(t.db), createUser(t.db), createUser(t.db)]);
    const gift = (o: Parameters<typeof createDonation>[1]) => createDonation(t.db, o);
    // Hand-computed fixture (London time; BST until 25 October 2026).
    await gift({ donorId: p.id, campaignId: campaignA, amount: 1000, date: at('2024-01-01T12:00:00Z') }); // before the window
    await gift({ donorId: p.id, campaignId: campaignA, amount: 1003, date: at('2026-11-17T10:00:00Z'), giftAid: true });
    await gift({
      donorId: p.id,
      campaignId: campaignA,
      amount: 2000,
      refundedAmount: 500,
      date: at('2026-11-18T10:00:00Z'),
      giftAid: true,
    });
    await gift({
      donorId: p.id,
      campaignId: campaignA,
      amount: 3000,
      refundedAmount: 3000,
      status: 'refunded',
      date: at('2026-11-18T11:00:00Z'),
    });
    await gift({
      donorId: p.id,
      campaignId: campaignA,
      amount: 9999,
      status: 'pending',
      date: at('2026-11-18T12:00:00Z'),
    });
    await gift({ donorId: r.id, campaignId: campaignB, amount: 7000, date: at('2026-11-17T09:00:00Z') });
    // 23:30 UTC on Sunday 7 June is 00:30 BST on Monday 8 June: London's week and month.
    await gift({
      donorId: q.id,
      campaignId: campaignA,
      amount: 500,
      type: 'monthly',
      date: at('2026-06-07T23:30:00Z'),
    });
    await gift({
      donorId: q.id,
      campaignId: campaignA,
      amount: 500,
      type: 'monthly',
      date: at('2026-10-16T12:00:00Z'),
    });
    await gift({
      donorId: s.id,
      campaignId: campaignB,
      amount: 700,
      type: 'monthly',
      date: at('2026-10-20T12:00:00Z'),
    });
    // 23:30 UTC on 31 May is 1 June in London.
    await gift({ donorId: s.id, campaignId: campaignB, amount: 100, date: at('2026-05-31T23:30:00Z') });
    await gift({ donorId: s.id, campaignId: campaignB, amount: 100, date: at('2025-11-23T12:00:00Z') }); // a week and month too old

    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [orgA] })).token;
    donorToken = (await signedIn(t.db, 'donor')).token;
  });

  it('buckets gifts per London week, one-off and monthly apart, net of refunds', async () => {
    const weeks = await reports.giftsPerWeek(t.db, staffScope(admin()), NOW);
    expect(weeks).toHaveLength(52);
    expect(weeks[0].week_start).toBe('2025-11-24');
    expect(weeks.at(-1)).toEqual({
      week_start: '2026-11-16',
      once_count: 3,
      once_amount: 9503,
      monthly_count: 0,
      monthly_amount: 0,
    });
    expect(weeks.find((w) => w.week_start === '2026-06-08')).toMatchObject({ monthly_count: 1, monthly_amount: 500 });
    expect(weeks.find((w) => w.week_start === '2026-06-01')).toMatchObject({
      once_count: 1,
      once_amount: 100,
      monthly_count: 0,
    });
    expect(weeks.find((w) => w.week_start === '2026-10-19')).toMatchObject({ monthly_count: 1, monthly_amount: 700 });
    const sum = weeks.reduce((n, w) => n + w.once_amount + w.monthly_amount, 0);
    expect(sum).toBe(9503 + 500 + 500 + 700 + 100);

    const scoped = await reports.giftsPerWeek(t.db, staffScope(orgAdminOf(orgA)), NOW);
    expect(scoped.at(-1)).toMatchObject({ once_count: 2, once_amount: 2503 });
    expect(scoped.reduce((n, w) => n + w.once_amount + w.monthly_amount, 0)).toBe(2503 + 1000);
  });

  it('shows raised against goal per live campaign, most raised first', async () => {
    const all = await reports.campaignProgress(t.db, staffScope(admin()));
    const mine = all.filter((c) => c._id === campaignA || c._id === campaignB);
    expect(mine).toEqual([
      { _id: campaignB, title: 'Homes', goal: 100_000, raised: 7000 + 700 + 100 + 100 },
      { _id: campaignA, title: 'Wells', goal: 100_000, raised: 1000 + 1003 + 1500 + 500 + 500 },
    ]);
    expect(await reports.campaignProgress(t.db, staffScope(orgAdminOf(orgA)))).toEqual([mine[1]]);
  });

  it('sums monthly recurring income and active monthly donors per London month', async () => {
    const months = await reports.monthlyRecurring(t.db, staffScope(admin()), NOW);
    expect(months.map((m) => m.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    expect(months.find((m) => m.month === '2026-06')).toEqual({ month: '2026-06', income: 500, donors: 1 });
    expect(months.find((m) => m.month === '2026-10')).toEqual({ month: '2026-10', income: 1200, donors: 2 });
    expect(months.find((m) => m.month === '2026-11')).toEqual({ month: '2026-11', income: 0, donors: 0 });
    const scoped = await reports.monthlyRecurring(t.db, staffScope(orgAdminOf(orgA)), NOW);
    expect(scoped.find((m) => m.month === '2026-10')).toEqual({ month: '2026-10', income: 500, donors: 1 });
  });

  it('splits donors into new and returning by their first gift in scope', async () => {
    const months = await reports.newVsReturning(t.db, staffScope(admin()), NOW);
    const by = (m: string) => months.find((x) => x.month === m);
    expect(by('2026-11')).toEqual({ month: '2026-11', new_donors: 1, returning_donors: 1 });
    // Q's first gift ever; S gave in November 2025, outside the window but still before.
    expect(by('2026-06')).toEqual({ month: '2026-06', new_donors: 1, returning_donors: 1 });
    expect(by('2026-10')).toEqual({ month: '2026-10', new_donors: 0, returning_donors: 2 });
    expect(by('2026-05')).toEqual({ month: '2026-05', new_donors: 0, returning_donors: 0 });
  });

  it('adds up Gift Aid eligible gifts and the 25% they bring, rounded down per gift', async () => {
    const months = await reports.giftAidByMonth(t.db, staffScope(admin()), NOW);
    expect(months.at(-1)).toEqual({ month: '2026-11', total_amount: 9503, eligible_amount: 2503, gift_aid: 250 + 375 });
    const scopedB = await reports.giftAidByMonth(t.db, staffScope(admin(), orgB), NOW);
    expect(scopedB.at(-1)).toEqual({ month: '2026-11', total_amount: 7000, eligible_amount: 0, gift_aid: 0 });
  });

  it('serves each chart to staff only, scoped like the lists', async () => {
    // A loop over every chart's path: raw requests; the one chart read for its body goes through the client.
    const get = (path: string, token?: string) => t.request(path, { token });
    for (const chart of ['gifts-per-week', 'campaigns', 'monthly-recurring', 'donors', 'gift-aid']) {
      expect((await get(`/api/reports/${chart}`)).status).toBe(401);
      const denied = await get(`/api/reports/${chart}`, donorToken);
      expect(denied.status).toBe(403);
      expect(await denied.json()).toMatchObject({ statusCode: 403 });
      expect((await get(`/api/reports/${chart}`, adminToken)).status).toBe(200);
      const other = await get(`/api/reports/${chart}?organization_id=${orgB}`, orgAdminToken);
      expect((await errorOf(other, 403)).message).toContain('organization_id');
    }
    const campaigns = (token: string, query: { organization_id?: string } = {}) =>
      t.client(token).api.reports.campaigns.$get({ query });
    const body = await bodyOf(await campaigns(orgAdminToken), 200);
    expect(body.campaigns.map((c) => c._id)).toEqual([campaignA]);
    const bad = await campaigns(adminToken, { organization_id: 'nope' });
    expect(await errorOf(bad, 400)).toEqual({ statusCode: 400, message: expect.stringContaining('organization_id') });
  });
});
