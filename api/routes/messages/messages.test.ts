import { beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../db/schema';
import { createAppeal, createCampaign, createOrganization, createUser, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';

type Message = { _id: string; name: string; message: string; amount: number | null; date: string };

describe(`messages of support and giving anonymously (${engineName})`, () => {
  let t: TestApp;
  let campaignId: string;
  let appealId: string;
  let adminToken: string;
  let otherOrgAdminToken: string;
  let orgAdminToken: string;

  const give = async (email: string, amount: number, extra: Record<string, unknown>) => {
    const start = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email, amount, campaign_id: campaignId, appeal_id: appealId, ...extra },
    });
    expect(start.status, await start.clone().text()).toBe(200);
    const { clientSecret } = (await start.json()) as { clientSecret: string };
    const confirm = await t.request('/api/stripe/demo/confirm', { method: 'POST', json: { clientSecret } });
    expect(confirm.status).toBe(200);
  };

  beforeAll(async () => {
    t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const fundraiser = await createUser(t.db, { firstName: 'Fay', email: 'fay-fundraiser@example.com' });
    campaignId = (await createCampaign(t.db, { organizationId: org.id })).id;
    appealId = (
      await createAppeal(t.db, campaignId, {
        organizationId: org.id,
        goal: 10_000,
        createdBy: fundraiser.id,
        title: 'Fay runs',
      })
    ).id;
    await createUser(t.db, { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.com' });
    await createUser(t.db, { firstName: 'Ben', lastName: 'Jones', email: 'ben@example.com' });
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    otherOrgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg.id] })).token;

    await give('amira@example.com', 2_500, { message: '  Go Fay! <script>alert(1)</script>  ' });
    await give('ben@example.com', 7_000, { message: 'Proud of you', anonymous: true, hide_amount: true });
  });

  it('lists the latest messages on the appeal, with the amount unless hidden and the name unless anonymous', async () => {
    const res = await t.request(`/api/appeals/${appealId}/messages`);
    expect(res.status).toBe(200);
    const messages = (await res.json()) as Message[];
    expect(messages.map(({ name, message, amount }) => ({ name, message, amount }))).toEqual([
      { name: 'Anonymous', message: 'Proud of you', amount: null },
      { name: 'Amira K.', message: 'Go Fay! <script>alert(1)</script>', amount: 2_500 },
    ]);
  });

  it('shows an anonymous donor as "Anonymous" on top donors, and a hidden amount as null there too', async () => {
    for (const query of [`appeal_id=${appealId}`, `campaign_id=${campaignId}`]) {
      const res = await t.request(`/api/donations?type=public&${query}`, { headers: { 'cache-control': 'no-cache' } });
      expect(await res.json()).toEqual([
        { donor: 'Anonymous', count: 1, total: null },
        { donor: 'Amira K.', count: 1, total: 2_500 },
      ]);
    }
    // The appeal and campaign pages show the same list.
    const { loadDetail } = await import('../../../src/lib/server/detail');
    expect((await loadDetail(t.db, 'appeal', appealId, campaignId))?.donors).toEqual([
      { donor: 'Anonymous', count: 1, total: null },
      { donor: 'Amira K.', count: 1, total: 2_500 },
    ]);
    expect((await loadDetail(t.db, 'campaign', campaignId))?.donors.map((d) => d.total)).toEqual([null, 2_500]);
  });

  it('emails the fundraiser when the demo payment records the gift', async () => {
    const mails = (await t.db.select().from(outbox)).filter((m) => m.to === 'fay-fundraiser@example.com');
    expect(mails.map((m) => m.subject)).toEqual([
      '“Fay runs” received a new gift',
      '“Fay runs” is halfway to its goal',
    ]);
  });

  it('lets staff of the organization hide a message; others get 404', async () => {
    const list = await t.request(`/api/messages?appeal_id=${appealId}`, { token: orgAdminToken });
    const staff = (await list.json()) as (Message & { hidden: boolean; donor: string })[];
    expect(staff).toHaveLength(2);
    const amira = staff.find((m) => m.donor === 'Amira Khan')!;
    expect(
      await t.request(`/api/messages?appeal_id=${appealId}`, { token: otherOrgAdminToken }).then((r) => r.json()),
    ).toEqual([]);
    const denied = await t.request(`/api/messages/${amira._id}`, {
      method: 'PUT',
      token: otherOrgAdminToken,
      json: { hidden: true },
    });
    expect(denied.status).toBe(404);
    const hide = await t.request(`/api/messages/${amira._id}`, {
      method: 'PUT',
      token: adminToken,
      json: { hidden: true },
    });
    expect(hide.status).toBe(200);
    expect(await hide.json()).toMatchObject({ hidden: true });
    const after = (await (await t.request(`/api/appeals/${appealId}/messages`)).json()) as Message[];
    expect(after.map((m) => m.name)).toEqual(['Anonymous']);
    const anon = await t.request(`/api/messages/${amira._id}`, { method: 'PUT', json: { hidden: false } });
    expect(anon.status).toBe(401);
    const donorToken = (await signedIn(t.db, 'donor')).token;
    expect(
      (await t.request(`/api/messages/${amira._id}`, { method: 'PUT', token: donorToken, json: { hidden: false } }))
        .status,
    ).toBe(403);
  });

  it.each([
    [{ message: 'x'.repeat(281) }, 'message'],
    [{ message: 42 }, 'message'],
    [{ anonymous: 'yes' }, 'anonymous'],
    [{ hide_amount: 1 }, 'hide_amount'],
  ])('refuses %j at checkout with a 400 naming the field', async (extra, field) => {
    const res = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email: 'c@example.com', amount: 500, campaign_id: campaignId, appeal_id: appealId, ...extra },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(field);
  });

  it('accepts exactly 280 characters (emoji count as one)', async () => {
    await give('d@example.com', 500, { message: '🎉'.repeat(280) });
    const messages = (await (await t.request(`/api/appeals/${appealId}/messages`)).json()) as Message[];
    expect([...messages[0].message]).toHaveLength(280);
  });
});
