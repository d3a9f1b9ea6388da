import { describe, expect, it } from 'vitest';
import { addOrganizationAdmin, createAppeal, createCampaign, createDonation, createOrganization, createSession, createUser } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

describe(`org_admin scope over donors counts paid gifts only (${engineName})`, () => {
  it('an unpaid checkout started with a stranger\'s email does not reveal them to the org admin', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const orgAdmin = await createUser(t.db, { type: 'org_admin' });
    await addOrganizationAdmin(t.db, org.id, orgAdmin.id);
    const token = await createSession(t.db, orgAdmin.id);
    const campaign = await createCampaign(t.db, { organizationId: org.id });
    const appeal = await createAppeal(t.db, campaign.id, { organizationId: org.id });
    const email = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const victim = await createUser(t.db, { email, phone: '7946095800', address: '1 Secret St' });

    // Anyone can start a checkout for any email: it leaves a pending row (and a failed one after a decline).
    const started = await t.request('/api/stripe/client_secret', { method: 'POST', json: { email, amount: 100, campaign_id: campaign.id } });
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
    await createDonation(t.db, { donorId: victim.id, campaignId: campaign.id, status: 'refunded', refundedAmount: 1000, source: 'card' });
    const visible = await t.request(`/api/users/${victim.id}`, { token });
    expect(visible.status).toBe(200);
    expect(((await visible.json()) as { phone: string }).phone).toBe('7946095800');
  });
});
