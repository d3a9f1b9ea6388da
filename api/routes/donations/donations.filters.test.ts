import { beforeAll, describe, expect, it } from 'vitest';
import { createCharity, createDonation, createUser, signedIn, viewerOf } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

type Api = TestClient['api'];
import { donationRowsAfter, type DonationCursor } from '../../services/donations/export';
import { adminDonationsWhere, donationRows } from '../../services/donations/list';

describe(`admin lists: server-side search, sort and filters (${engineName})`, () => {
  let t: TestApp;
  let adminToken: string;
  let orgAdminToken: string;
  let campaignA: string;
  let appealA: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await setupTestApp();
    const a = await createCharity(t.db, {
      organization: { name: 'Wells for Hope' },
      campaign: { title: 'Alpha wells' },
      appeal: { title: 'Alpha run' },
    });
    const b = await createCharity(t.db, {
      organization: { name: 'Homes 100% Safe' },
      campaign: { title: 'Beta homes' },
    });
    const campaignB = b.campaign.id;
    [campaignA, appealA] = [a.campaign.id, a.appeal.id];
    const priya = await createUser(t.db, { firstName: 'Priya', lastName: 'Patel', email: 'priya@example.com' });
    const tom = await createUser(t.db, { firstName: 'Tom', lastName: 'Adams', email: 'tom_a@example.com' });
    const zed = await createUser(t.db, { firstName: 'Zed', lastName: 'Young', email: 'zed@example.com' });
    const gift = async (key: string, o: Parameters<typeof createDonation>[1]) =>
      (ids[key] = (await createDonation(t.db, o)).id);
    await gift('p1', {
      donorId: priya.id,
      campaignId: campaignA,
      appealId: appealA,
      amount: 1_000,
      date: new Date('2026-03-10T12:00:00Z'),
    });
    await gift('p2', {
      donorId: priya.id,
      campaignId: campaignA,
      amount: 5_000,
      type: 'monthly',
      date: new Date('2026-04-10T12:00:00Z'),
    });
    // 23:30 UTC on 30 June is 1 July in London (BST).
    await gift('t1', {
      donorId: tom.id,
      campaignId: campaignA,
      amount: 2_500,
      status: 'refunded',
      refundedAmount: 2_500,
      date: new Date('2026-06-30T23:30:00Z'),
    });
    await gift('z1', { donorId: zed.id, campaignId: campaignB, amount: 9_000, date: new Date('2026-07-02T12:00:00Z') });
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [a.org.id] })).token;
  });

  // Staff lists: their rows and X-Total-Count.
  const donationsList = async (query: Parameters<Api['donations']['$get']>[0]['query'], token = adminToken) => {
    const res = await t.client(token).api.donations.$get({ query });
    return { rows: await bodyOf(res, 200), total: Number(res.headers.get('x-total-count')) };
  };
  const usersList = async (query: Parameters<Api['users']['$get']>[0]['query']) => {
    const res = await t.client(adminToken).api.users.$get({ query });
    return { rows: await bodyOf(res, 200), total: Number(res.headers.get('x-total-count')) };
  };
  const orgsList = async (query: Parameters<Api['organizations']['$get']>[0]['query']) => {
    const res = await t.client(adminToken).api.organizations.$get({ query });
    return { rows: await bodyOf(res, 200), total: Number(res.headers.get('x-total-count')) };
  };
  const only = (rows: { _id: string }[]) => rows.map((r) => r._id).filter((id) => Object.values(ids).includes(id));

  it('filters donations by donor, campaign, appeal, status, type, London dates and amounts', async () => {
    expect(only((await donationsList({ search: 'PATEL' })).rows).sort()).toEqual([ids.p1, ids.p2].sort());
    expect(only((await donationsList({ search: 'tom_a' })).rows)).toEqual([ids.t1]);
    // "_" is a literal, not LIKE's any-character.
    expect((await donationsList({ search: 'tom_' })).total).toBe(1);
    expect((await donationsList({ search: 'tomxa' })).total).toBe(0);
    expect(only((await donationsList({ campaign_id: campaignA })).rows)).toEqual([ids.t1, ids.p2, ids.p1]);
    expect(only((await donationsList({ appeal_id: appealA })).rows)).toEqual([ids.p1]);
    expect(only((await donationsList({ status: 'refunded' })).rows)).toEqual([ids.t1]);
    expect(only((await donationsList({ type: 'monthly' })).rows)).toEqual([ids.p2]);
    const july = await donationsList({ date_from: '2026-07-01', date_to: '2026-07-31' });
    expect(only(july.rows)).toEqual([ids.z1, ids.t1]);
    expect(july.total).toBe(2);
    expect(only((await donationsList({ date_to: '2026-06-30' })).rows)).toEqual([ids.p2, ids.p1]);
    expect(only((await donationsList({ amount_min: '2500', amount_max: '5000' })).rows)).toEqual([ids.t1, ids.p2]);
  });

  it('sorts on the server and pages the sorted list', async () => {
    expect(only((await donationsList({ sort: 'amount', order: 'asc' })).rows)).toEqual([
      ids.p1,
      ids.t1,
      ids.p2,
      ids.z1,
    ]);
    expect(only((await donationsList({ sort: 'donor', order: 'asc' })).rows)).toEqual([ids.p2, ids.p1, ids.t1, ids.z1]);
    expect(only((await donationsList({ sort: 'campaign', order: 'desc' })).rows)[0]).toBe(ids.z1);
    const page2 = await donationsList({ sort: 'amount', order: 'desc', limit: '1', offset: '1' });
    expect(page2.rows.map((r) => r._id)).toEqual([ids.p2]);
    expect(page2.total).toBe(4);
  });

  it('keeps org admins inside their organizations whatever they filter', async () => {
    const mine = await donationsList({ sort: 'amount', order: 'desc' }, orgAdminToken);
    expect(mine.rows.map((r) => r._id)).toEqual([ids.p2, ids.t1, ids.p1]);
    expect((await donationsList({ search: 'zed' }, orgAdminToken)).total).toBe(0);
  });

  it('searches and sorts donors and organizations', async () => {
    const donors = await usersList({ search: 'example.com', type: 'donor', sort: 'name', order: 'asc' });
    const names = donors.rows.map((d) => d.name.first_name);
    expect(names).toEqual(['Priya', 'Tom', 'Zed']);
    expect((await usersList({ search: 'young' })).total).toBe(1);
    const orgs = await orgsList({ search: '100%' });
    expect(orgs.rows.map((o) => o.name)).toEqual(['Homes 100% Safe']);
    const byName = await orgsList({ sort: 'name', order: 'desc' });
    expect(byName.rows.map((o) => o.name)).toEqual(['Wells for Hope', 'Homes 100% Safe']);
  });

  it('pages exports by keyset in exactly the list order, ties included', async () => {
    const viewer = viewerOf('admin');
    // Two more gifts that tie with p1 on amount and date.
    const donations = t.client(adminToken).api.donations;
    const priya = await bodyOf(await donations[':id'].$get({ param: { id: ids.p1 } }), 200);
    for (let i = 0; i < 2; i++) {
      await donations.$post({
        json: { donor: priya.donor.value, amount: 1_000, date: '2026-03-10', campaign: campaignA, appeal: appealA },
      });
    }
    for (const filters of [
      {},
      { sort: 'amount' as const, order: 'asc' as const },
      { sort: 'donor' as const },
      { sort: 'campaign' as const, order: 'desc' as const },
      { sort: 'status' as const },
    ]) {
      const where = adminDonationsWhere(viewer, filters);
      const expected = (await donationRows(t.db, where, filters, { limit: 100, offset: 0 })).map((r) => r.row.id);
      const seen: string[] = [];
      let cursor: DonationCursor | null = null;
      for (let i = 0; i < 20; i++) {
        const page = await donationRowsAfter(t.db, where, filters, cursor, 2);
        seen.push(...page.rows.map((r) => r.row.id));
        cursor = page.cursor;
        if (page.rows.length < 2) break;
      }
      expect(seen, JSON.stringify(filters)).toEqual(expected);
      expect(new Set(seen).size).toBe(expected.length);
    }
  });

  it.each([
    ['/api/donations?sort=password', 'sort'],
    ['/api/donations?order=up', 'order'],
    ['/api/donations?date_from=2026-07-02&date_to=2026-07-01', 'date_to'],
    ['/api/donations?date_from=31/12/2026', 'date_from'],
    ['/api/donations?amount_min=900&amount_max=100', 'amount_max'],
    ['/api/donations?amount_min=-5', 'amount_min'],
    ['/api/donations?limit=100000', 'limit'],
    ['/api/donations?status=lost', 'status'],
    ['/api/donations?campaign_id=not-an-id', 'campaign_id'],
    [`/api/donations?search=${'x'.repeat(41)}`, 'search'],
    ['/api/users?sort=password_hash', 'sort'],
    ['/api/users?limit=5000', 'limit'],
    ['/api/organizations?sort=secret', 'sort'],
    ['/api/organizations?limit=101', 'limit'],
  ])('%s is a 400 naming %s', async (path, field) => {
    // Raw: each row is a list's path and query as a caller types it.
    const res = await t.request(path, { token: adminToken });
    expect((await errorOf(res, 400)).message).toContain(field);
  });
});
