import { describe, expect, it } from 'vitest';
import { createCharity, createDonation, createSession, createUser, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp } from '#test-app';

describe(`org_admin scope over donors counts paid gifts only (${engineName})`, () => {
  it("an unpaid checkout started with a stranger's email does not reveal them to the org admin", async () => {
    const t = await setupTestApp();
    const { org, campaign, appeal } = await createCharity(t.db, { appeal: {} });
    const token = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    const email = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const victim = await createUser(t.db, { email, phone: '7946095800', address: '1 Secret St' });

    // Anyone can start a checkout for any email: it leaves a pending row (and a failed one after a decline).
    const started = await t.client().api.stripe.client_secret.$post({
      json: { email, amount: 100, campaign_id: campaign.id },
    });
    expect(started.status).toBe(200);
    await createDonation(t.db, { donorId: victim.id, campaignId: campaign.id, status: 'failed', source: 'card' });

    const api = t.client(token).api;
    const profile = (viewer = api) => viewer.users[':id'].$get({ param: { id: victim.id } });
    const donorList = async () => bodyOf(await api.users.$get({ query: { limit: '1000' } }), 200);
    expect((await profile()).status).toBe(404);
    const list = await donorList();
    expect(list.map((u) => u._id)).not.toContain(victim.id);
    const manual = await api.donations.$post({
      json: { donor: victim.id, amount: 500, date: '2025-03-01', campaign: campaign.id, appeal: appeal.id },
    });
    expect((await errorOf(manual, 400)).message).toBe('donor: No donor with this id');

    // A paid gift (even one refunded later) makes them this organization's donor.
    await createDonation(t.db, {
      donorId: victim.id,
      campaignId: campaign.id,
      status: 'refunded',
      refundedAmount: 1000,
      source: 'card',
    });
    const visible = await profile();
    // …but only their name and email: the profile stays private (anyone can pay £1 with someone's email).
    const seen = await bodyOf(visible, 200);
    expect(seen).toMatchObject({ _id: victim.id, email, phone: null, image: null, image_url: null });
    expect(seen.address).toEqual({ address: null, city: null, province: null, postal_code: null, country: null });
    expect(JSON.stringify(seen)).not.toMatch(/7946095800|Secret St/);
    const listed = await donorList();
    const entry = listed.find((u) => u._id === victim.id)!;
    expect(entry).toMatchObject({ email, phone: null, image: null });
    expect(JSON.stringify(listed)).not.toMatch(/7946095800|Secret St/);
    // Their gifts to this organization's campaigns are what the org admin sees of their giving.
    const gifts = await bodyOf(await api.donations.$get({ query: { limit: '100' } }), 200);
    expect(gifts.some((g) => g.donor.value === victim.id)).toBe(true);
    // An admin, and the person themself, still see the whole profile.
    const adminToken = (await signedIn(t.db, 'admin')).token;
    expect((await bodyOf(await profile(t.client(adminToken).api), 200)).phone).toBe('7946095800');
    const selfToken = await createSession(t.db, victim.id);
    const self = await t.client(selfToken).api.users[':id'].$get({ param: { id: 'me' } });
    expect((await bodyOf(self, 200)).address.address).toBe('1 Secret St');
  });
});
