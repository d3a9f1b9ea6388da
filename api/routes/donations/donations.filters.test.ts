import { beforeAll, describe, expect, it } from 'vitest';
import { createCharity, createDonation, createUser, signedIn, viewerOf } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';
import { donationRowsAfter, type DonationCursor } from '../../services/donations/export';
import { adminDonationsWhere, donationRows } from '../../services/donations/list';

type Row = { _id: string; amount: number; donor: { label: string }; campaign: { label: string } };

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

  const list = async (path: string, token = adminToken) => {
    const res = await t.request(path, { token });
    expect(res.status, path).toBe(200);
    return { rows: (await res.json()) as Row[], total: Number(res.headers.get('x-total-count')) };
  };
  const only = (rows: Row[]) => rows.map((r) => r._id).filter((id) => Object.values(ids).includes(id));

  it('filters donations by donor, campaign, appeal, status, type, London dates and amounts', async () => {
    expect(only((await list('/api/donations?search=PATEL')).rows).sort()).toEqual([ids.p1, ids.p2].sort());
    expect(only((await list('/api/donations?search=tom_a')).rows)).toEqual([ids.t1]);
    // "_" is a literal, not LIKE's any-character.
    expect((await list('/api/donations?search=tom_')).total).toBe(1);
    expect((await list('/api/donations?search=tomxa')).total).toBe(0);
    expect(only((await list(`/api/donations?campaign_id=${campaignA}`)).rows)).toEqual([ids.t1, ids.p2, ids.p1]);
    expect(only((await list(`/api/donations?appeal_id=${appealA}`)).rows)).toEqual([ids.p1]);
    expect(only((await list('/api/donations?status=refunded')).rows)).toEqual([ids.t1]);
    expect(only((await list('/api/donations?type=monthly')).rows)).toEqual([ids.p2]);
    const july = await list('/api/donations?date_from=2026-07-01&date_to=2026-07-31');
    expect(only(july.rows)).toEqual([ids.z1, ids.t1]);
    expect(july.total).toBe(2);
    expect(only((await list('/api/donations?date_to=2026-06-30')).rows)).toEqual([ids.p2, ids.p1]);
    expect(only((await list('/api/donations?amount_min=2500&amount_max=5000')).rows)).toEqual([ids.t1, ids.p2]);
  });

  it('sorts on the server and pages the sorted list', async () => {
    expect(only((await list('/api/donations?sort=amount&order=asc')).rows)).toEqual([ids.p1, ids.t1, ids.p2, ids.z1]);
    expect(only((await list('/api/donations?sort=donor&order=asc')).rows)).toEqual([ids.p2, ids.p1, ids.t1, ids.z1]);
    expect(only((await list('/api/donations?sort=campaign&order=desc')).rows)[0]).toBe(ids.z1);
    const page2 = await list('/api/donations?sort=amount&order=desc&limit=1&offset=1');
    expect(page2.rows.map((r) => r._id)).toEqual([ids.p2]);
    expect(page2.total).toBe(4);
  });

  it('keeps org admins inside their organizations whatever they filter', async () => {
    const mine = await list('/api/donations?sort=amount&order=desc', orgAdminToken);
    expect(mine.rows.map((r) => r._id)).toEqual([ids.p2, ids.t1, ids.p1]);
    expect((await list(`/api/donations?search=zed`, orgAdminToken)).total).toBe(0);
  });

  it('searches and sorts donors and organizations', async () => {
    const donors = await list('/api/users?search=example.com&type=donor&sort=name&order=asc');
    const names = (donors.rows as unknown as { name: { first_name: string } }[]).map((d) => d.name.first_name);
    expect(names).toEqual(['Priya', 'Tom', 'Zed']);
    expect((await list('/api/users?search=young')).total).toBe(1);
    const orgs = await list('/api/organizations?search=100%25');
    expect((orgs.rows as unknown as { name: string }[]).map((o) => o.name)).toEqual(['Homes 100% Safe']);
    const byName = await list('/api/organizations?sort=name&order=desc');
    expect((byName.rows as unknown as { name: string }[]).map((o) => o.name)).toEqual([
      'Wells for Hope',
      'Homes 100% Safe',
    ]);
  });

  it('pages exports by keyset in exactly the list order, ties included', async () => {
    const viewer = viewerOf('admin');
    // Two more gifts that tie with p1 on amount and date.
    const priya = (await t.request(`/api/donations/${ids.p1}`, { token: adminToken }).then((r) => r.json())) as {
      donor: { value: string };
    };
    for (let i = 0; i < 2; i++) {
      await t.request('/api/donations', {
        method: 'POST',
        token: adminToken,
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
    const res = await t.request(path, { token: adminToken });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { statusCode: number; message: string };
    expect(body.statusCode).toBe(400);
    expect(body.message).toContain(field);
  });
});
