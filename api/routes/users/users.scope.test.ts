import { describe, expect, it } from 'vitest';
import { createCharity, createDonation, createSession, createUser, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

describe(`org_admin scope over donors counts paid gifts only (${engineName})`, () => {
  it("an unpaid checkout started with a stranger's email does not reveal them to the org admin", async () => {
    const t = await setupTestApp();
    const { org, campaign, appeal } = await createCharity(t.db, { appeal: {} });
    const token = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    const email = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const victim = await createUser(t.db, { email, phone: '7946095800', address: '1 Secret St' });

    // Anyone can start a checkout for any email: it leaves a pending row (and a failed one after a decline).
    const started = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { email, amount: 100, campaign_id: campaign.id },
    });
    expect(started.status).toBe(200);
    await createDonation(t.db, { donorId: victim.id, campaignId: campaign.id, status: 'failed', source: 'card' });

    expect((await t.request(`/api/users/${victim.id}`, { token })).status).toBe(404);
    const list = (await (await t.request('/api/users?limit=1000', { token })).json()) as { _id: string }[];
    expect(list.map((u) => u._id)).not.toContain(victim.id);
    const manual = await t.request('/api/donations', {
      method: 'POST',
      token,
      json: { donor: victim.id, amount: 500, date: '2025-03-01', campaign: campaign.id, appeal: appeal.id },
    });
    expect(manual.status).toBe(400);
    expect(((await manual.json()) as { message: string }).message).toBe('donor: No donor with this id');

    // A paid gift (even one refunded later) makes them this organization's donor.
    await createDonation(t.db, {
      donorId: victim.id,
      campaignId: campaign.id,
      status: 'refunded',
      refundedAmount: 1000,
      source: 'card',
    });
    const visible = await t.request(`/api/users/${victim.id}`, { token });
    expect(visible.status).toBe(200);
    // …but only their name and email: the profile stays private (anyone can pay £1 with someone's email).
    const seen = (await visible.json()) as Record<string, any>;
    expect(seen).toMatchObject({ _id: victim.id, email, phone: null, image: null, image_url: null });
    expect(seen.address).toEqual({ address: null, city: null, province: null, postal_code: null, country: null });
    expect(JSON.stringify(seen)).not.toMatch(/7946095800|Secret St/);
    const listed = (await (await t.request('/api/users?limit=1000', { token })).json()) as Record<string, any>[];
    const entry = listed.find((u) => u._id === victim.id)!;
    expect(entry).toMatchObject({ email, phone: null, image: null });
    expect(JSON.stringify(listed)).not.toMatch(/7946095800|Secret St/);
    // Their gifts to this organization's campaigns are what the org admin sees of their giving.
    const gifts = (await (await t.request('/api/donations?limit=100', { token })).json()) as {
      donor: { value: string };
    }[];
    expect(gifts.some((g) => g.donor.value === victim.id)).toBe(true);
    // An admin, and the person themself, still see the whole profile.
    const adminToken = (await signedIn(t.db, 'admin')).token;
    expect(
      ((await (await t.request(`/api/users/${victim.id}`, { token: adminToken })).json()) as { phone: string }).phone,
    ).toBe('7946095800');
    const selfToken = await createSession(t.db, victim.id);
    expect(
      ((await (await t.request('/api/users/me', { token: selfToken })).json()) as { address: { address: string } })
        .address.address,
    ).toBe('1 Secret St');
  });
});
