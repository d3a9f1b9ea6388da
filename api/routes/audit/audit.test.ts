import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, campaigns } from '../../../db/schema';
import {
  createAppeal,
  createCampaign,
  createOrganization,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';
import { createApp } from '../..';

type Entry = {
  action: string;
  target_type: string;
  target_id: string;
  actor_email: string | null;
  organization_id: string | null;
  changes: Record<string, [unknown, unknown]>;
  request_id: string | null;
};

describe(`audit log (${engineName})`, () => {
  let t: TestApp;
  let admin: SignedIn;
  let orgAdmin: SignedIn;
  let finance: SignedIn;
  let orgX: string;
  let orgY: string;
  let campaignX: string;
  let campaignY: string;

  beforeAll(async () => {
    t = await setupTestApp();
    orgX = (await createOrganization(t.db, { name: 'Audit X' })).id;
    orgY = (await createOrganization(t.db, { name: 'Audit Y' })).id;
    campaignX = (await createCampaign(t.db, { organizationId: orgX })).id;
    campaignY = (await createCampaign(t.db, { organizationId: orgY })).id;
    admin = await signedIn(t.db, 'admin', { overrides: { email: `audit-admin-${Date.now()}@example.org` } });
    orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgX] });
    finance = await signedIn(t.db, 'finance', { organizationIds: [orgX] });
  });

  const entries = async (token: string, query = '') => {
    const res = await t.request(`/api/audit${query}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Entry[];
  };

  it('appends one row per staff write, with who, what, the changed fields and the request id', async () => {
    const donor = await createUser(t.db);
    const appeal = await createAppeal(t.db, campaignX, { organizationId: orgX });
    const created = await t.request('/api/donations', {
      method: 'POST',
      token: admin.token,
      json: { donor: donor.id, amount: 1200, date: '2026-01-10', campaign: campaignX, appeal: appeal.id },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const giftId = ((await created.json()) as { _id: string })._id;
    expect(
      (await t.request(`/api/donations/${giftId}`, { method: 'PUT', token: orgAdmin.token, json: { amount: 1500 } }))
        .status,
    ).toBe(200);
    // An unchanged save writes nothing.
    expect(
      (await t.request(`/api/donations/${giftId}`, { method: 'PUT', token: orgAdmin.token, json: { amount: 1500 } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.request(`/api/organizations/${orgX}`, {
          method: 'PUT',
          token: admin.token,
          json: { legal_name: 'Audit X Trust' },
        })
      ).status,
    ).toBe(200);
    const person = await createUser(t.db);
    expect(
      (await t.request(`/api/users/${person.id}`, { method: 'PUT', token: admin.token, json: { type: 'finance' } }))
        .status,
    ).toBe(200);
    expect(
      (await t.request(`/api/campaigns/${campaignX}`, { method: 'PUT', token: admin.token, json: { status: 'draft' } }))
        .status,
    ).toBe(200);
    const org = await t.request('/api/organizations', {
      method: 'POST',
      token: admin.token,
      json: { name: 'Audit New Org' },
    });
    expect(org.status).toBe(201);

    const gift = await entries(admin.token, `?target=${giftId}`);
    expect(gift.map((e) => e.action)).toEqual(['donation.update', 'donation.create']);
    expect(gift[0]).toMatchObject({
      actor_email: orgAdmin.user.email,
      organization_id: orgX,
      changes: { amount: [1200, 1500] },
    });
    expect(gift[0].request_id).toEqual(expect.any(String));
    expect((await entries(admin.token, `?target=${orgX}&target_type=organization`))[0]).toMatchObject({
      action: 'organization.update',
      changes: { legalName: [null, 'Audit X Trust'] },
    });
    expect((await entries(admin.token, `?target=${person.id}`))[0]).toMatchObject({
      action: 'user.type',
      changes: { type: ['donor', 'finance'] },
    });
    expect((await entries(admin.token, `?target=${campaignX}`))[0]).toMatchObject({
      action: 'campaign.status',
      changes: { status: ['approved', 'draft'] },
    });
    const newOrgId = ((await org.json()) as { _id: string })._id;
    expect((await entries(admin.token, `?target=${newOrgId}`))[0]).toMatchObject({ action: 'organization.create' });
    // Filter by actor (email part) and date.
    const mine = await entries(admin.token, `?actor=${encodeURIComponent(orgAdmin.user.email)}`);
    expect(mine.map((e) => e.action)).toEqual(['donation.update']);
    expect(await entries(admin.token, '?to=2000-01-01')).toEqual([]);
  });

  it('shows org admins and finance users their organizations only; platform rows to admins only', async () => {
    await t.request(`/api/campaigns/${campaignY}`, { method: 'PUT', token: admin.token, json: { status: 'draft' } });
    for (const viewer of [orgAdmin, finance]) {
      const rows = await entries(viewer.token, '?limit=200');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.organization_id === orgX)).toBe(true);
    }
    expect((await entries(admin.token, `?target=${campaignY}`)).length).toBe(1);
    const donor = await signedIn(t.db, 'donor');
    expect((await t.request('/api/audit', { token: donor.token })).status).toBe(403);
    expect((await t.request('/api/audit')).status).toBe(401);
  });

  it('refuses bad filters with a message naming the field', async () => {
    for (const [query, field] of [
      ['?target_type=planet', 'target_type'],
      ['?from=2026-13-01', 'from'],
      ['?from=2026-02-01&to=2026-01-01', 'to'],
      ['?limit=0', 'limit'],
    ] as const) {
      const res = await t.request(`/api/audit${query}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(field);
    }
  });

  it('exports the same rows as CSV, formula-safe', async () => {
    await t.db.insert(auditLog).values({
      at: new Date(),
      action: 'donation.update',
      targetType: 'donation',
      targetId: 'x',
      organizationId: orgX,
      changes: {},
      note: '=HYPERLINK("evil")',
    });
    const res = await t.request(`/api/exports/audit.csv?target=x`, { token: finance.token });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toContain('When,Actor,Actor type,Action');
    expect(text).toContain(`'=HYPERLINK`);
    expect(text).not.toMatch(/,=HYPERLINK/);
  });

  it('cannot be changed: no route writes it, and the database refuses UPDATE and DELETE', async () => {
    const auditRoutes = new Set(
      createApp()
        .routes.filter((r) => r.path.includes('audit') && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...auditRoutes].sort()).toEqual(['GET /api/audit', 'GET /api/exports/audit.csv']);
    // This file's rows only: other suites may append to a shared D1 database meanwhile.
    const mine = () =>
      t.db
        .select()
        .from(auditLog)
        .where(inArray(auditLog.organizationId, [orgX, orgY]));
    const before = await mine();
    expect(before.length).toBeGreaterThan(0);
    await expect(t.db.update(auditLog).set({ note: 'rewritten' })).rejects.toThrow();
    await expect(t.db.delete(auditLog)).rejects.toThrow();
    await expect(t.db.run(sql`delete from audit_log where id = ${before[0].id}`)).rejects.toThrow();
    expect(await mine()).toEqual(before);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await t.request(`/api/audit`, { method, token: admin.token, json: {} });
      expect(res.status).toBe(404);
    }
    // A write that fails leaves no audit row behind: the row rides in the write's batch.
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignX));
    expect(row).toBeTruthy();
  });
});
