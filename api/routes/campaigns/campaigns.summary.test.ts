import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp } from '#test-app';

describe(`campaign summary (${engineName})`, () => {
  it('counts paid gifts that were not fully refunded, and totals them net of refunds', async () => {
    const t = await setupTestApp();
    const donor = await createUser(t.db);
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const gift = (overrides: Parameters<typeof createDonation>[1] extends infer T ? Partial<T> : never) =>
      createDonation(t.db, {
        donorId: donor.id,
        campaignId: campaign.id,
        appealId: appeal.id,
        amount: 1000,
        ...overrides,
      });
    await gift({ status: 'succeeded' });
    await gift({ status: 'succeeded', refundedAmount: 200 });
    await gift({ status: 'refunded', refundedAmount: 1000 });
    await gift({ status: 'pending' });
    await gift({ status: 'failed' });

    const api = t.client().api;
    for (const read of [
      () => api.campaigns[':id'].$get({ param: { id: campaign.id } }),
      () => api.appeals[':id'].$get({ param: { id: appeal.id } }),
    ]) {
      const body = await bodyOf(await read(), 200);
      expect(body.summary).toEqual({ total_donations: 1800, donation_count: 2, gift_aid: 0 });
    }
  });
});
