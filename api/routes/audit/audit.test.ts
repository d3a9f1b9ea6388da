import type { InferRequestType } from 'hono/client';
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
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';
import { createApp } from '../..';

type AuditQuery = InferRequestType<TestClient['api']['audit']['$get']>['query'];

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

  const entries = async (token: string, query: AuditQuery = {}) =>
    bodyOf(await t.client(token).api.audit.$get({ query }), 200);

  it('appends one row per staff write, with who, what, the changed fields and the request id', async () => {
    const donor = await createUser(t.db);
    const appeal = await createAppeal(t.db, campaignX, { organizationId: orgX });
    const api = t.client(admin.token).api;
    const created = await api.donations.$post({
      json: { donor: donor.id, amount: 1200, date: '2026-01-10', campaign: campaignX, appeal: appeal.id },
    });
    const giftId = (await bodyOf(created, 201))._id;
    const editGift = () =>
      t.client(orgAdmin.token).api.donations[':id'].$put({ param: { id: giftId }, json: { amount: 1500 } });
    expect((await editGift()).status).toBe(200);
    // An unchanged save writes nothing.
    expect((await editGift()).status).toBe(200);
    expect(
      (await api.organizations[':id'].$put({ param: { id: orgX }, json: { legal_name: 'Audit X Trust' } })).status,
    ).toBe(200);
    const person = await createUser(t.db);
    expect((await api.users[':id'].$put({ param: { id: person.id }, json: { type: 'finance' } })).status).toBe(200);
    expect((await api.campaigns[':id'].$put({ param: { id: campaignX }, json: { status: 'draft' } })).status).toBe(200);
    const org = await api.organizations.$post({ json: { name: 'Audit New Org' } });
    const newOrgId = (await bodyOf(org, 201))._id;

    const gift = await entries(admin.token, { target: giftId });
    expect(gift.map((e) => e.action)).toEqual(['donation.update', 'donation.create']);
    expect(gift[0]).toMatchObject({
      actor_email: orgAdmin.user.email,
      organization_id: orgX,
      changes: { amount: [1200, 1500] },
    });
    expect(gift[0].request_id).toEqual(expect.any(String));
    expect((await entries(admin.token, { target: orgX, target_type: 'organization' }))[0]).toMatchObject({
      action: 'organization.update',
      changes: { legalName: [null, 'Audit X Trust'] },
    });
    expect((await entries(admin.token, { target: person.id }))[0]).toMatchObject({
      action: 'user.type',
      changes: { type: ['donor', 'finance'] },
    });
    expect((await entries(admin.token, { target: campaignX }))[0]).toMatchObject({
      action: 'campaign.status',
      changes: { status: ['approved', 'draft'] },
    });
    expect((await entries(admin.token, { target: newOrgId }))[0]).toMatchObject({ action: 'organization.create' });
    // Filter by actor (email part) and date.
    const mine = await entries(admin.token, { actor: orgAdmin.user.email });
    expect(mine.map((e) => e.action)).toEqual(['donation.update']);
    expect(await entries(admin.token, { to: '2000-01-01' })).toEqual([]);
  });

  it('records who added a donor or started a campaign, and what an edit changed', async () => {
    const api = t.client(orgAdmin.token).api;
    const email = `audit-added-${Date.now()}@example.com`;
    const person = await bodyOf(
      await api.users.$post({ json: { first_name: 'Ada', last_name: 'Added', email, organization_id: orgX } }),
      201,
    );
    expect(await entries(admin.token, { target: person._id })).toMatchObject([
      {
        action: 'user.create',
        actor_email: orgAdmin.user.email,
        organization_id: orgX,
        changes: { email: [null, email], name: [null, 'Ada Added'], type: [null, 'donor'] },
      },
    ]);

    const created = await bodyOf(
      await api.campaigns.$post({
        json: {
          title: 'Audit Started',
          description: 'For the audit.',
          goal: 50_000,
          organization_id: orgX,
          campaign_id: null,
          // A demo image the site serves itself: no upload, so the test runs on every engine.
          images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
          date: { from: '2026-12-01', to: '2026-12-31' },
        },
      }),
      201,
    );
    const edit = (json: object) =>
      t.client(orgAdmin.token).api.campaigns[':id'].$put({ param: { id: created._id }, json: json as never });
    expect(
      (await edit({ title: 'Audit Renamed', goal: 60_000, story: 'A longer story.', status: 'draft' })).status,
    ).toBe(200);
    // A save that changes nothing writes no row.
    expect((await edit({ title: 'Audit Renamed' })).status).toBe(200);
    const rows = await entries(admin.token, { target: created._id });
    expect(rows.map((r) => r.action).sort()).toEqual(['campaign.create', 'campaign.status', 'campaign.update']);
    expect(rows.find((r) => r.action === 'campaign.create')).toMatchObject({
      organization_id: orgX,
      changes: {
        kind: [null, 'campaign'],
        title: [null, 'Audit Started'],
        goal: [null, 50_000],
        status: [null, 'approved'],
      },
    });
    expect(rows.find((r) => r.action === 'campaign.update')?.changes).toEqual({
      title: ['Audit Started', 'Audit Renamed'],
      goal: [50_000, 60_000],
      story: ['(before)', '(edited)'],
    });
  });

  it('shows org admins and finance users their organizations only; platform rows to admins only', async () => {
    await t.client(admin.token).api.campaigns[':id'].$put({ param: { id: campaignY }, json: { status: 'draft' } });
    for (const viewer of [orgAdmin, finance]) {
      const rows = await entries(viewer.token, { limit: '200' });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.organization_id === orgX)).toBe(true);
    }
    expect((await entries(admin.token, { target: campaignY })).length).toBe(1);
    const donor = await signedIn(t.db, 'donor');
    expect((await t.client(donor.token).api.audit.$get({ query: {} })).status).toBe(403);
    expect((await t.client().api.audit.$get({ query: {} })).status).toBe(401);
  });

  // A table of query strings, one with a target type the schema does not know: raw requests.
  it('refuses bad filters with a message naming the field', async () => {
    for (const [query, field] of [
      ['?target_type=planet', 'target_type'],
      ['?from=2026-13-01', 'from'],
      ['?from=2026-02-01&to=2026-01-01', 'to'],
      ['?limit=0', 'limit'],
    ] as const) {
      const res = await t.request(`/api/audit${query}`, { token: admin.token });
      expect((await errorOf(res, 400)).message).toContain(field);
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
    const res = await t.client(finance.token).api.exports['audit.csv'].$get({ query: { target: 'x' } });
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
    // Methods no route declares: only a raw request can send them.
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await t.request(`/api/audit`, { method, token: admin.token, json: {} });
      expect(res.status).toBe(404);
    }
    // A write that fails leaves no audit row behind: the row rides in the write's batch.
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignX));
    expect(row).toBeTruthy();
  });
});
