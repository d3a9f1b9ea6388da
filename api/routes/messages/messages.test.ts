import { beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../db/schema';
import { createAppeal, createCampaign, createOrganization, createUser, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

describe(`messages of support and giving anonymously (${engineName})`, () => {
  let t: TestApp;
  let campaignId: string;
  let appealId: string;
  let adminToken: string;
  let otherOrgAdminToken: string;
  let orgAdminToken: string;

  const give = async (
    email: string,
    amount: number,
    extra: { message?: string; anonymous?: boolean; hide_amount?: boolean },
    token?: string,
  ) => {
    const stripe = t.client(token).api.stripe;
    const start = await stripe.client_secret.$post({
      json: { email, amount, campaign_id: campaignId, appeal_id: appealId, ...extra },
    });
    const { clientSecret } = await bodyOf(start, 200);
    const confirm = await stripe.demo.confirm.$post({ json: { clientSecret } });
    expect(confirm.status).toBe(200);
  };
  const appealMessages = async () =>
    bodyOf(await t.client().api.appeals[':id'].messages.$get({ param: { id: appealId } }), 200);
  const staffMessages = async (token: string) =>
    bodyOf(await t.client(token).api.messages.$get({ query: { appeal_id: appealId } }), 200);
  const setHidden = (token: string | undefined, id: string, hidden: boolean) =>
    t.client(token).api.messages[':id'].$put({ param: { id }, json: { hidden } });

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
    // Amira gives signed in: her own checkout, so her account's name may show (decision 077).
    const amira = await signedIn(t.db, 'donor', {
      overrides: { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.com' },
    });
    await createUser(t.db, { firstName: 'Ben', lastName: 'Jones', email: 'ben@example.com' });
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    otherOrgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg.id] })).token;

    await give('amira@example.com', 2_500, { message: '  Go Fay! <script>alert(1)</script>  ' }, amira.token);
    await give('ben@example.com', 7_000, { message: 'Proud of you', anonymous: true, hide_amount: true });
  });

  it('lists the latest messages on the appeal, with the amount unless hidden and the name unless anonymous', async () => {
    const messages = await appealMessages();
    expect(messages.map(({ name, message, amount }) => ({ name, message, amount }))).toEqual([
      { name: 'Anonymous', message: 'Proud of you', amount: null },
      { name: 'Amira K.', message: 'Go Fay! <script>alert(1)</script>', amount: 2_500 },
    ]);
  });

  it('shows an anonymous donor as "Anonymous" on top donors, and a hidden amount as null there too', async () => {
    for (const query of [{ appeal_id: appealId }, { campaign_id: campaignId }]) {
      const res = await t
        .client()
        .api.donations.$get({ query: { type: 'public', ...query } }, { headers: { 'cache-control': 'no-cache' } });
      expect(await bodyOf(res, 200)).toEqual([
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
    const staff = await staffMessages(orgAdminToken);
    expect(staff).toHaveLength(2);
    const amira = staff.find((m) => m.donor === 'Amira Khan')!;
    expect(await staffMessages(otherOrgAdminToken)).toEqual([]);
    const denied = await setHidden(otherOrgAdminToken, amira._id, true);
    expect(denied.status).toBe(404);
    const hide = await setHidden(adminToken, amira._id, true);
    expect(await bodyOf(hide, 200)).toMatchObject({ hidden: true });
    const after = await appealMessages();
    expect(after.map((m) => m.name)).toEqual(['Anonymous']);
    const anon = await setHidden(undefined, amira._id, false);
    expect(anon.status).toBe(401);
    const donorToken = (await signedIn(t.db, 'donor')).token;
    expect((await setHidden(donorToken, amira._id, false)).status).toBe(403);
  });

  // Bodies of the wrong types are what this checks: sent raw, as the typed client would refuse them.
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
    expect((await errorOf(res, 400)).message).toContain(field);
  });

  it('accepts exactly 280 characters (emoji count as one)', async () => {
    await give('d@example.com', 500, { message: '🎉'.repeat(280) });
    const messages = await appealMessages();
    expect([...messages[0].message]).toHaveLength(280);
  });
});
